package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/planls/planls/core"
)

// basicPlan is examples/basic/PLAN.md.
func basicPlan(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("testdata/basic.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// workspace makes a temp root holding PLAN.md with text.
func workspace(t testing.TB, text string) (root, plan string) {
	t.Helper()
	root = t.TempDir()
	plan = filepath.Join(root, "PLAN.md")
	writeFile(t, plan, text)
	return root, plan
}

func (e *env) actions(u string, line int, ctx []protocol.Diagnostic) []protocol.CodeAction {
	e.t.Helper()
	if ctx == nil {
		ctx = []protocol.Diagnostic{}
	}
	var out []protocol.CodeAction
	pos := protocol.Position{Line: uint32(line)}
	e.call("textDocument/codeAction", protocol.CodeActionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: protocol.DocumentURI(u)},
		Range:        protocol.Range{Start: pos, End: pos},
		Context:      protocol.CodeActionContext{Diagnostics: ctx},
	}, &out)
	return out
}

func titles(as []protocol.CodeAction) string {
	var out []string
	for _, a := range as {
		out = append(out, a.Title)
	}
	return strings.Join(out, " | ")
}

// runAction executes a code action's command like an editor does.
func (e *env) runAction(a protocol.CodeAction) (map[string]any, error) {
	e.t.Helper()
	var res map[string]any
	err := e.tryCall("workspace/executeCommand", map[string]any{"command": a.Command.Command, "arguments": a.Command.Arguments}, &res)
	return res, err
}

func find(as []protocol.CodeAction, title string) protocol.CodeAction {
	for _, a := range as {
		if a.Title == title {
			return a
		}
	}
	return protocol.CodeAction{}
}

func envelopeText(res map[string]any) string {
	c, _ := res["content"].([]any)
	if len(c) == 0 {
		return ""
	}
	m, _ := c[0].(map[string]any)
	s, _ := m["text"].(string)
	return s
}

// approved opens the basic plan and approves it through the code action.
func approved(t *testing.T) (*env, string, string) {
	t.Helper()
	root, plan := workspace(t, basicPlan(t))
	e := newEnv(t, envConfig{folders: []string{root}})
	u := e.open(plan, basicPlan(t))
	ds := e.waitDiags(u, "plan-not-approved", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleNotApproved) == 1 })
	acts := e.actions(u, int(ds[0].Range.Start.Line), ds)
	a := find(acts, "Approve plan")
	if a.Command == nil {
		t.Fatalf("no Approve plan action in %q", titles(acts))
	}
	if _, err := e.runAction(a); err != nil {
		t.Fatalf("approve: %v", err)
	}
	e.waitDiags(u, "open items", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleOpen) > 0 })
	// HEAD, which a "Complete #N with <commit>" action offers, comes with
	// the background refresh: the diagnostics can come before it.
	e.settle(u)
	return e, root, u
}

func TestApproveThenDiagnosticsPerItem(t *testing.T) {
	e, _, u := approved(t)
	ds, _ := e.lastDiags(u)
	if n := countCode(ds, core.RuleOpen); n != 7 {
		t.Fatalf("open items: %d (%s), want 7", n, codes(ds))
	}
	lines := strings.Split(basicPlan(t), "\n")
	first := ds[0]
	if first.Message != "open plan item #1 (pending): Add internal/ratelimit with a token bucket keyed by API key" {
		t.Errorf("message %q", first.Message)
	}
	if first.Source != "planls" || first.Severity != protocol.DiagnosticSeverityInformation {
		t.Errorf("source/severity: %q %v", first.Source, first.Severity)
	}
	l := int(first.Range.Start.Line)
	if first.Range.Start.Character != 0 || int(first.Range.End.Character) != len(lines[l]) || first.Range.End.Line != first.Range.Start.Line {
		t.Errorf("range %+v, want the whole line %q", first.Range, lines[l])
	}
	raw, _ := json.Marshal(first.Data)
	if string(raw) != `{"code":"open-item","id":1}` {
		t.Errorf("data %s", raw)
	}
}

func TestCodeActionsAndComplete(t *testing.T) {
	e, _, u := approved(t)
	ds, _ := e.lastDiags(u)
	first := ds[0]
	acts := e.actions(u, int(first.Range.Start.Line), []protocol.Diagnostic{first})
	if got := titles(acts); got != "Complete #1… | Complete #1 with abc1234 Add the limiter | Defer #1… | Start #1" {
		t.Fatalf("actions %q", got)
	}
	for _, a := range acts {
		if a.Kind != protocol.QuickFix || len(a.Diagnostics) == 0 {
			t.Errorf("%s: kind %q, %d diagnostics", a.Title, a.Kind, len(a.Diagnostics))
		}
	}
	raw, _ := json.Marshal(acts[0].Command.Arguments)
	if string(raw) != `[{"id":1,"uri":"`+u+`"}]` {
		t.Errorf("arguments %s", raw)
	}
	before := len(e.notesOf("planls/stateChanged"))
	res, err := e.exec("planls.complete", map[string]any{"id": 1, "evidence": "go test ./internal/ratelimit: ok", "uri": u})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(envelopeText(res), "#1") {
		t.Errorf("envelope %v", res)
	}
	ds = e.waitDiags(u, "#1 cleared", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleOpen) == 6 })
	for _, d := range ds {
		if strings.Contains(d.Message, "#1 ") {
			t.Errorf("closed item still reported: %s", d.Message)
		}
	}
	if len(e.notesOf("planls/stateChanged")) <= before {
		t.Error("no planls/stateChanged after the change")
	}
}
