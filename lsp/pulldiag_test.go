package lsp

import (
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/planls/planls/core"
)

type pullResult struct {
	Kind     string                `json:"kind"`
	ResultID string                `json:"resultId"`
	Items    []protocol.Diagnostic `json:"items"`
}

func (e *env) pull(u, previous string) pullResult {
	e.t.Helper()
	var r pullResult
	e.call("textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": u}, "previousResultId": previous}, &r)
	return r
}

// A client that pulls diagnostics (LSP 3.17) gets the open plan's from
// textDocument/diagnostic with a result id, "unchanged" when it names the
// id it has, no push for the open plan, and workspace/diagnostic/refresh
// when another writer changes them, but not after its own edits.
func TestPullDiagnostics(t *testing.T) {
	root, plan := workspace(t, basicPlan(t))
	cliApprove(t, root)
	caps := map[string]any{
		"textDocument": map[string]any{"diagnostic": map[string]any{"dynamicRegistration": false}},
		"workspace":    map[string]any{"diagnostics": map[string]any{"refreshSupport": true}},
	}
	e := newEnv(t, envConfig{noInit: true})
	var init struct {
		Capabilities struct {
			DiagnosticProvider *diagnosticOptions `json:"diagnosticProvider"`
		} `json:"capabilities"`
	}
	e.call("initialize", map[string]any{"rootUri": uriOf(root), "capabilities": caps}, &init)
	e.notify("initialized", map[string]any{})
	if p := init.Capabilities.DiagnosticProvider; p == nil || p.Identifier != "planls" || p.InterFileDependencies || p.WorkspaceDiagnostics {
		t.Fatalf("diagnosticProvider %+v", p)
	}
	text := basicPlan(t)
	u := e.open(plan, text)
	e.settle(u)
	if ds, _ := e.lastDiags(u); len(ds) != 0 {
		t.Errorf("pushed to a pulling client: %s", codes(ds))
	}
	first := e.pull(u, "")
	if first.Kind != "full" || first.ResultID == "" || countCode(first.Items, core.RuleOpen) != 7 {
		t.Fatalf("first pull: %s %q %s", first.Kind, first.ResultID, codes(first.Items))
	}
	if again := e.pull(u, first.ResultID); again.Kind != "unchanged" || again.ResultID != first.ResultID || again.Items != nil {
		t.Errorf("pull with the same id: %+v", again)
	}

	// Its own edit: no refresh, the next pull sees it.
	e.mu.Lock()
	base := e.reqCount("workspace/diagnostic/refresh")
	e.mu.Unlock()
	e.change(u, 2, strings.Replace(text, "\n## ", "\n- an extra bullet\n\n## ", 1))
	e.barrier()
	edited := e.pull(u, first.ResultID)
	if edited.Kind != "full" || edited.ResultID == first.ResultID || countCode(edited.Items, core.RuleDrift) != 1 {
		t.Errorf("after the edit: %s %s", edited.Kind, codes(edited.Items))
	}
	e.mu.Lock()
	if n := e.reqCount("workspace/diagnostic/refresh"); n != base {
		t.Errorf("%d refreshes for the client's own edit", n-base)
	}
	e.mu.Unlock()

	// Another writer: a refresh, then the change in the pull.
	cli(t, root, `{"action":"update","id":1,"status":"in_progress"}`)
	e.waitFor("workspace/diagnostic/refresh", func() bool { return e.reqCount("workspace/diagnostic/refresh") > base })
	after := e.pull(u, edited.ResultID)
	if after.Kind != "full" || countCode(after.Items, core.RuleInProgress) != 1 {
		t.Errorf("after the CLI: %s %s", after.Kind, codes(after.Items))
	}
	// A document that is not a plan has none.
	if other := e.pull(uriOf(root+"/README.md"), ""); other.Kind != "full" || len(other.Items) != 0 {
		t.Errorf("another document: %+v", other)
	}
}
