package lsp

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/planls/planls/core"
	"github.com/planls/planls/verify"
)

// gitIn runs git in dir with a fixed identity and date (reproducible ids).
func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=Test", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=Test", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_AUTHOR_DATE=2026-11-01T09:00:00Z",
		"GIT_COMMITTER_DATE=2026-11-01T09:00:00Z", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// TestEvidenceRoundTrip: weak evidence is a weak-evidence warning on the
// item (and a warning message when completed through the server); hover
// turns a file into a link and a commit into its subject and date;
// planls/plan carries each completed item's verify state and references.
func TestEvidenceRoundTrip(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	text := "# P\n\n## Work\n- Add the parser\n- Add the lexer\n- Add the printer\n- Add the docs\n"
	root, plan := workspace(t, text)
	writeFile(t, filepath.Join(root, "src", "a.go"), "package a\n\nfunc A() {}\n")
	gitIn(t, root, "init", "-q", "-b", "main")
	gitIn(t, root, "add", "src/a.go")
	gitIn(t, root, "commit", "-q", "-m", "Add the parser")
	sha := gitIn(t, root, "rev-parse", "HEAD")
	cliApprove(t, root)
	cli(t, root, `{"action":"update","id":1,"status":"completed","evidence":"done"}`)
	cli(t, root, `{"action":"update","id":2,"status":"completed","evidence":"commit `+sha[:7]+`, see src/a.go:3"}`)
	cli(t, root, `{"action":"update","id":3,"status":"completed","evidence":"src/missing.go"}`)

	e := newEnv(t, envConfig{folders: []string{root}})
	u := e.open(plan, text)
	e.settle(u)
	ds := e.waitDiags(u, "weak-evidence", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleWeak) == 1 })
	for _, d := range ds {
		if d.Code != core.RuleWeak {
			continue
		}
		want := `plan item #1 is completed with weak evidence "done": it names no commit, file, test, command with its result or URL that can be checked`
		if d.Message != want || d.Severity != protocol.DiagnosticSeverityWarning || d.Range.Start.Line != 3 || d.Source != "planls" {
			t.Errorf("weak-evidence %+v", d)
		}
		var data diagData
		raw, _ := json.Marshal(d.Data)
		if json.Unmarshal(raw, &data) != nil || data != (diagData{ID: 1, Code: core.RuleWeak}) {
			t.Errorf("data %s", raw)
		}
	}

	h := e.hoverAt(u, 4, 3)
	for _, want := range []string{
		"evidence: commit " + sha[:7] + ", see src/a.go:3",
		"- commit `" + sha[:12] + "` Add the parser (2026-11-01, on HEAD)",
		"- file [src/a.go:3](" + uriOf(filepath.Join(root, "src", "a.go")) + "#L3)",
	} {
		if !strings.Contains(h, want) {
			t.Errorf("hover lacks %q:\n%s", want, h)
		}
	}
	if h := e.hoverAt(u, 5, 3); !strings.Contains(h, "- file `src/missing.go` (not found)") {
		t.Errorf("hover of a missing file:\n%s", h)
	}

	var res struct {
		Groups []struct {
			Items []struct {
				ID     int `json:"id"`
				Verify *struct {
					State, Reason string
					Weak          bool
				} `json:"verify"`
				EvidenceRefs []evidenceRef `json:"evidenceRefs"`
			} `json:"items"`
		} `json:"groups"`
	}
	e.call("planls/plan", map[string]any{"uri": u}, &res)
	items := res.Groups[0].Items
	if len(items) != 4 {
		t.Fatalf("items %+v", items)
	}
	if v := items[0].Verify; v == nil || v.State != "unverifiable" || !v.Weak {
		t.Errorf("#1 verify %+v", v)
	}
	if v := items[1].Verify; v == nil || v.State != "verified" {
		t.Errorf("#2 verify %+v", v)
	}
	refs := items[1].EvidenceRefs
	if len(refs) != 2 || refs[0].Commit == nil || refs[0].Commit.Subject != "Add the parser" || !refs[0].Commit.OnHEAD ||
		refs[1].URI != uriOf(filepath.Join(root, "src", "a.go")) || refs[1].Line != 3 {
		t.Errorf("#2 refs %+v", refs)
	}
	if v := items[2].Verify; v == nil || v.State != "failed" || v.Reason != "file src/missing.go does not exist" {
		t.Errorf("#3 verify %+v", v)
	}
	if items[3].Verify != nil || len(items[3].EvidenceRefs) != 0 {
		t.Errorf("a pending item has a verify state: %+v", items[3])
	}

	// Completing through the server with weak evidence: the envelope's
	// text is the seed's, the warning is a window/showMessage.
	env, err := e.exec("planls.complete", map[string]any{"id": 4, "evidence": "works now", "uri": u})
	if err != nil {
		t.Fatal(err)
	}
	if c := env["content"].([]any); len(c) != 1 || c[0].(map[string]any)["text"] != "Updated #4 (pending → completed)" {
		t.Errorf("envelope content %v", c)
	}
	e.waitFor("weak-evidence message", func() bool {
		for _, n := range e.notes { // waitFor holds e.mu
			if n.method == "window/showMessage" && strings.Contains(string(n.params), `weak-evidence: plan item #4 is completed with weak evidence \"works now\"`) {
				return true
			}
		}
		return false
	})
	e.waitDiags(u, "two weak", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleWeak) == 2 })
}

// evidenceHover for a plain-text client: the same lines without markdown.
func TestEvidenceHoverPlain(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "src", "a_b.go"), "package a\n")
	ev := "see src/a_b.go:1, gone.go and `make test` passes; https://ci.example.com/7"
	abs := filepath.Join(root, "src", "a_b.go")
	res := verify.Tasks(context.Background(), root, []core.Task{{ID: 1, Status: core.Completed, Evidence: ev}}, verify.Options{})[0]
	md := evidenceHover(root, ev, &res, markup{})
	wantMD := "\n- file [src/a\\_b.go:1](" + uriOf(abs) + "#L1)\n- file `gone.go` (not found)\n- command `make test`: passes\n- <https://ci.example.com/7>"
	if md != wantMD {
		t.Errorf("markdown\n got %q\nwant %q", md, wantMD)
	}
	plain := evidenceHover(root, ev, &res, markup{plain: true})
	wantPlain := "\n- file src/a_b.go:1 (" + abs + ")\n- file gone.go (not found)\n- command make test: passes\n- https://ci.example.com/7"
	if plain != wantPlain {
		t.Errorf("plain\n got %q\nwant %q", plain, wantPlain)
	}
}
