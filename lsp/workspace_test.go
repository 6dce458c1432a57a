package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/planls/planls/core"
)

// Two folders, each its own state; commands are
// advertised once; a command without uri is refused when ambiguous.
func TestMultiRoot(t *testing.T) {
	a, planA := workspace(t, "# A\n\n## G\n- alpha one\n- alpha two\n")
	b, planB := workspace(t, "# B\n\n## G\n- beta one\n")
	cliApprove(t, a)
	cliApprove(t, b)
	e := newEnv(t, envConfig{noInit: true})
	res := e.initialize(envConfig{folders: []string{a, b}})
	cmds := res["capabilities"].(map[string]any)["executeCommandProvider"].(map[string]any)["commands"].([]any)
	if len(cmds) != len(commands) {
		t.Errorf("commands %v: advertised once, never per folder", cmds)
	}
	ua, ub := uriOf(planA), uriOf(planB)
	e.waitDiags(ua, "A", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleOpen) == 2 })
	e.waitDiags(ub, "B", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleOpen) == 1 })
	if _, err := e.exec("planls.start", map[string]any{"id": 1}); rpcCode(err) != jsonrpc2.InvalidParams {
		t.Errorf("ambiguous folder: %v", err)
	}
	if _, err := e.exec("planls.start", map[string]any{"id": 1, "uri": uriOf(b)}); err != nil {
		t.Fatal(err)
	}
	e.waitDiags(ub, "B started", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleInProgress) == 1 })
	if d, _ := e.lastDiags(ua); countCode(d, core.RuleInProgress) != 0 {
		t.Errorf("A changed by B's command: %s", codes(d))
	}
	var pa, pb planResult
	e.call("planls/plan", map[string]any{"uri": uriOf(a)}, &pa)
	e.call("planls/plan", map[string]any{"uri": ub}, &pb)
	if pa.Title != "A" || pb.Title != "B" || pa.Open != 2 || pb.Open != 1 {
		t.Errorf("plans %+v / %+v", pa, pb)
	}
	// Removing a folder clears what it published.
	e.notify("workspace/didChangeWorkspaceFolders", map[string]any{"event": map[string]any{
		"added": []any{}, "removed": []any{map[string]any{"uri": uriOf(b), "name": "b"}}}})
	e.waitDiags(ub, "B cleared", func(d []protocol.Diagnostic) bool { return len(d) == 0 })
}

// A file opened under an unusual spelling of its URI is published under
// that exact spelling.
func TestURIsKeepClientSpelling(t *testing.T) {
	root, _ := workspace(t, "# P\n\n## G\n- one\n")
	spaced := filepath.Join(root, "My Repo")
	writeFile(t, filepath.Join(spaced, "PLAN.md"), "# P\n\n## G\n- one\n")
	cliApprove(t, spaced)
	e := newEnv(t, envConfig{folders: []string{spaced}})
	odd := "file://" + strings.ReplaceAll(filepath.ToSlash(spaced), " ", "%20") + "/./PLAN.md"
	e.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": odd, "version": 1, "text": "# P\n\n## G\n- one\n"}})
	e.waitDiags(odd, "published under the client's URI", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleOpen) == 1 })
}

// A plan file created after the server started is picked up.
func TestPlanAppearsLater(t *testing.T) {
	root := t.TempDir()
	e := newEnv(t, envConfig{folders: []string{root}})
	e.barrier()
	writeFile(t, filepath.Join(root, "PLAN.md.tmp"), "# Late\n\n## G\n- one\n")
	if err := os.Rename(filepath.Join(root, "PLAN.md.tmp"), filepath.Join(root, "PLAN.md")); err != nil {
		t.Fatal(err)
	}
	e.waitDiags(uriOf(filepath.Join(root, "PLAN.md")), "the new plan", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleNotApproved) == 1 })
}

// A single markdown file opened outside every folder: a PLAN.md gets a
// folder of its own (single-file mode); another file is left alone.
func TestFileOutsideFolders(t *testing.T) {
	e := newEnv(t, envConfig{folders: []string{t.TempDir()}})
	other := t.TempDir()
	writeFile(t, filepath.Join(other, ".git", "HEAD"), "ref: refs/heads/main\n")
	plan := filepath.Join(other, "PLAN.md")
	writeFile(t, plan, "# Solo\n- one\n")
	u := e.open(plan, "# Solo\n- one\n")
	e.waitDiags(u, "single-file mode", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleNotApproved) == 1 })
	notes := filepath.Join(t.TempDir(), "notes.md")
	writeFile(t, notes, "# Notes\n- x\n")
	nu := e.open(notes, "# Notes\n- x\n")
	e.barrier()
	if _, ok := e.lastDiags(nu); ok {
		t.Error("diagnostics for a file that is not a plan")
	}
	if n := len(serverOf(t, e).folders); n != 2 {
		t.Errorf("%d folders, want 2", n)
	}
}

// No client input crashes the server: every method gets params of every
// wrong shape, and the session keeps serving.
func TestJunkParams(t *testing.T) {
	e, _, u := approved(t)
	junk := []any{nil, []any{}, 1, "x", map[string]any{},
		map[string]any{"textDocument": map[string]any{"uri": 1}},
		map[string]any{"textDocument": map[string]any{"uri": u, "version": -5, "text": nil}, "position": map[string]any{"line": -1, "character": 1e12}},
		map[string]any{"textDocument": map[string]any{"uri": u}, "range": map[string]any{"start": map[string]any{"line": 1e9}}, "context": nil},
		map[string]any{"command": "planls.complete", "arguments": []any{"not an object"}},
		map[string]any{"command": "planls.complete", "arguments": []any{map[string]any{"id": -1, "evidence": 5}}},
		map[string]any{"command": "planls.approve", "arguments": []any{map[string]any{"uri": "untitled:x"}}},
		map[string]any{"command": "planls.todo", "arguments": []any{map[string]any{"params": "nope"}}},
		map[string]any{"changes": []any{nil, map[string]any{"uri": "untitled:1", "type": 9}}},
		map[string]any{"event": map[string]any{"added": []any{map[string]any{"uri": "bad"}}, "removed": nil}},
		map[string]any{"settings": map[string]any{"planls": map[string]any{"planFiles": "PLAN.md", "severity": 3}}},
	}
	for method := range handlers {
		if method == "initialize" || method == "shutdown" || strings.HasPrefix(method, "test/") {
			continue
		}
		for _, p := range junk {
			_ = e.tryCall(method, p, nil)
			e.notify(method, p)
		}
	}
	e.barrier()
	var res planResult
	e.call("planls/plan", map[string]any{}, &res)
	if !res.Exists {
		t.Errorf("server state lost: %+v", res)
	}
}
