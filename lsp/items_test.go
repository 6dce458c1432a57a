package lsp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/planls/planls/core"
)

func TestCheckedNotCompletedAndGroups(t *testing.T) {
	b, _ := os.ReadFile("testdata/checkboxes.md")
	root, plan := workspace(t, string(b))
	cliApprove(t, root)
	e := newEnv(t, envConfig{folders: []string{root}})
	u := e.open(plan, string(b))
	ds := e.waitDiags(u, "items", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleOpen) > 0 })
	if n := countCode(ds, core.RuleTicked); n != 1 {
		t.Fatalf("checked-not-completed: %d (%s)", n, codes(ds))
	}
	var checked protocol.Diagnostic
	for _, d := range ds {
		if d.Code == core.RuleTicked {
			checked = d
		}
	}
	if checked.Range.Start.Line != 7 || checked.Severity != protocol.DiagnosticSeverityWarning {
		t.Errorf("checked diagnostic %+v", checked)
	}
	if acts := e.actions(u, 7, []protocol.Diagnostic{checked}); !strings.HasPrefix(titles(acts), "Complete #3…") {
		t.Errorf("actions on the ticked item: %q", titles(acts))
	}
}

func TestBlockedHoverLensSymbols(t *testing.T) {
	e, root, u := approved(t)
	cli(t, root, `{"action":"update","id":2,"addBlockedBy":[1],"owner":"ana"}`)
	e.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{}}) // harmless
	ds := e.waitDiags(u, "blocked", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleBlocked) == 1 })
	var blocked protocol.Diagnostic
	for _, d := range ds {
		if d.Code == core.RuleBlocked {
			blocked = d
		}
	}
	if blocked.Message != "plan item #2 is blocked by #1: Wire the limiter into POST /v1/ingest and POST /v1/batch" {
		t.Errorf("blocked message %q", blocked.Message)
	}
	if len(blocked.RelatedInformation) != 1 || blocked.RelatedInformation[0].Location.Range.Start.Line != 7 ||
		string(blocked.RelatedInformation[0].Location.URI) != u {
		t.Errorf("related %+v, want #1's line 7", blocked.RelatedInformation)
	}
	h := e.hoverAt(u, 10, 4)
	for _, want := range []string{"**#2 Wire the limiter", "status: `pending`", "owner: ana", "blocked by: #1 Add `internal/ratelimit`"} {
		if !strings.Contains(h, want) {
			t.Errorf("hover #2 lacks %q:\n%s", want, h)
		}
	}
	if h := e.hoverAt(u, 8, 6); !strings.Contains(h, "blocks: #2 Wire") { // a nested line of #1
		t.Errorf("hover #1 (nested line):\n%s", h)
	}
	if h := e.hoverAt(u, 3, 0); h != "" {
		t.Errorf("hover on prose = %q", h)
	}

	var lenses []protocol.CodeLens
	e.call("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": u}}, &lenses)
	var first []string
	for _, l := range lenses {
		if l.Range.Start.Line == 7 {
			first = append(first, l.Command.Title)
		}
	}
	if strings.Join(first, " | ") != "Complete #1… | Defer #1… | Start #1" {
		t.Errorf("lenses on #1: %q", first)
	}

	var syms []protocol.DocumentSymbol
	e.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": u}}, &syms)
	if len(syms) != 1 || syms[0].Name != "Add per-client rate limiting to the ingest API" {
		t.Fatalf("symbols %+v", syms)
	}
	var groups []string
	for _, g := range syms[0].Children {
		groups = append(groups, g.Name+"/"+string(rune('0'+len(g.Children))))
	}
	if strings.Join(groups, " ") != "Important changes/4 Tests and verification/3" {
		t.Errorf("groups %q", groups)
	}
	checkSymbols(t, "basic", syms)

	var ws []protocol.SymbolInformation
	e.call("workspace/symbol", map[string]any{"query": "BUCKET"}, &ws)
	var names []string
	for _, s := range ws {
		names = append(names, s.Name)
	}
	if strings.Join(names, " | ") != "#1 Add `internal/ratelimit` with a token bucket keyed by API key | #5 Unit tests for the bucket: refill, burst, clock going backwards" {
		t.Errorf("workspace symbols %q", names)
	}
}

// checkSymbols asserts selectionRange ⊆ range and child ⊆ parent.
func checkSymbols(t *testing.T, name string, syms []protocol.DocumentSymbol) {
	t.Helper()
	var walk func(parent *protocol.Range, s []protocol.DocumentSymbol)
	walk = func(parent *protocol.Range, s []protocol.DocumentSymbol) {
		for _, sym := range s {
			if !contains(sym.Range, sym.SelectionRange) {
				t.Errorf("%s: %q selectionRange %+v outside range %+v", name, sym.Name, sym.SelectionRange, sym.Range)
			}
			if parent != nil && !contains(*parent, sym.Range) {
				t.Errorf("%s: %q range %+v outside its parent %+v", name, sym.Name, sym.Range, *parent)
			}
			r := sym.Range
			walk(&r, sym.Children)
		}
	}
	walk(nil, syms)
}

func before(a, b protocol.Position) bool {
	return a.Line < b.Line || (a.Line == b.Line && a.Character <= b.Character)
}

func contains(outer, inner protocol.Range) bool {
	return before(outer.Start, inner.Start) && before(inner.End, outer.End) && before(inner.Start, inner.End)
}

// Over every fixture, approved or not, in both encodings.
func TestSymbolInvariants(t *testing.T) {
	fixtures := map[string]string{
		"ranges": "## Build   \n- compile\n  nested line\n## Test ##\n- x\n",
		"nested": "# T\n## A\n### A1\n- a\n#### deep\n- d\n## B\n\ntext only\n## Summary\n- skipped\n",
		"empty":  "",
		"loose":  "- no group\n- two\n",
	}
	for _, f := range []string{"basic.md", "crlf.md", "checkboxes.md", "unicode.md"} {
		b, _ := os.ReadFile(filepath.Join("testdata", f))
		fixtures[f] = string(b)
	}
	for name, text := range fixtures {
		for _, approve := range []bool{false, true} {
			root, plan := workspace(t, text)
			if approve {
				cliApprove(t, root)
			}
			e := newEnv(t, envConfig{folders: []string{root}})
			u := e.open(plan, text)
			var syms []protocol.DocumentSymbol
			e.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": u}}, &syms)
			checkSymbols(t, name, syms)
		}
	}
}

func TestPlanRequestShape(t *testing.T) {
	e, root, u := approved(t)
	cli(t, root, `{"action":"update","id":1,"status":"completed","evidence":"tests green"}`)
	cli(t, root, `{"action":"update","id":3,"addBlockedBy":[2]}`)
	e.waitDiags(u, "#1 closed", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleOpen) == 5 })
	var res planResult
	e.call("planls/plan", map[string]any{"uri": u}, &res)
	if res.Root != uriOf(root) || res.PlanURI != u || !res.Exists || !res.Approved || res.NeedsReapproval ||
		res.Open != 6 || res.Total != 7 || res.StateError != "" || res.Title != "Add per-client rate limiting to the ingest API" {
		t.Errorf("plan %+v", res)
	}
	if len(res.Groups) != 2 || res.Groups[0].Name != "Important changes" || len(res.Groups[0].Items) != 4 {
		t.Fatalf("groups %+v", res.Groups)
	}
	one, three := res.Groups[0].Items[0], res.Groups[0].Items[2]
	if one.ID != 1 || one.Status != "completed" || one.Evidence != "tests green" || one.Drift != "same" || one.Range == nil || one.Range.Start.Line != 7 {
		t.Errorf("item 1 %+v", one)
	}
	if !three.Blocked || len(three.BlockedBy) != 1 || three.BlockedBy[0] != 2 {
		t.Errorf("item 3 %+v", three)
	}
	raw, _ := json.Marshal(res)
	for _, key := range []string{`"needsReapproval":false`, `"stateError":""`, `"drift":"same"`} {
		if !strings.Contains(string(raw), key) {
			t.Errorf("result lacks %s", key)
		}
	}
	// An item's fields at their empty value are left out.
	for _, key := range []string{`"blockedBy":[]`, `"activeForm":""`, `"blocked":false`, `"verify":null`, `"evidenceRefs":[]`, `"reason":""`} {
		if strings.Contains(string(raw), key) {
			t.Errorf("result has %s", key)
		}
	}
}

// Drift: an edited buffer shows plan-drift and offers Re-approve, which
// refuses unsaved changes and works once saved.
func TestDriftAndReapprove(t *testing.T) {
	e, root, u := approved(t)
	edited := strings.Replace(basicPlan(t), "- Export `ingest", "- Export and document `ingest", 1)
	edited = strings.Replace(edited, "## Not adopted", "- Canary in one region\n\n## Not adopted", 1)
	e.change(u, 2, edited)
	ds := e.waitDiags(u, "drift", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleDrift) >= 1 })
	var drift []protocol.Diagnostic
	for _, d := range ds {
		if d.Code == core.RuleDrift {
			drift = append(drift, d)
		}
	}
	if len(drift) < 1 {
		t.Fatalf("drift %s", codes(ds))
	}
	acts := e.actions(u, int(drift[0].Range.Start.Line), drift)
	re := find(acts, "Re-approve plan")
	if re.Command == nil {
		t.Fatalf("no Re-approve in %q", titles(acts))
	}
	if _, err := e.runAction(re); err == nil || !strings.Contains(err.Error(), "unsaved changes") {
		t.Errorf("re-approve of an unsaved buffer: %v", err)
	}
	writeFile(t, filepath.Join(root, "PLAN.md"), edited)
	e.notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": u}})
	if _, err := e.runAction(re); err != nil {
		t.Fatalf("re-approve: %v", err)
	}
	ds = e.waitDiags(u, "no drift", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleDrift) == 0 })
	if n := countCode(ds, core.RuleOpen); n != 8 {
		t.Errorf("open after re-approval: %d (%s)", n, codes(ds))
	}
}

func TestSettingsSeverityAndFadeClosed(t *testing.T) {
	root, plan := workspace(t, basicPlan(t))
	cliApprove(t, root)
	cli(t, root, `{"action":"update","id":1,"status":"completed","evidence":"done"}`)
	e := newEnv(t, envConfig{folders: []string{root}, initOpt: map[string]any{"settings": map[string]any{"planls": map[string]any{"severity": "warning"}}}})
	u := e.open(plan, basicPlan(t))
	ds := e.waitDiags(u, "items", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleOpen) == 6 })
	if ds[0].Severity != protocol.DiagnosticSeverityWarning {
		t.Errorf("severity %v, want warning", ds[0].Severity)
	}
	e.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"planls": map[string]any{"fadeClosed": true, "severity": "bogus"}}})
	ds = e.waitDiags(u, "closed-item", func(d []protocol.Diagnostic) bool { return countCode(d, codeClosed) == 1 })
	for _, d := range ds {
		if d.Code == codeClosed && (d.Severity != protocol.DiagnosticSeverityHint || len(d.Tags) != 1 || d.Tags[0] != protocol.DiagnosticTagUnnecessary || d.Message != "plan item #1 completed: done") {
			t.Errorf("closed-item %+v", d)
		}
		if d.Code == core.RuleOpen && d.Severity != protocol.DiagnosticSeverityWarning {
			t.Errorf("a bogus severity changed it: %v", d.Severity)
		}
	}
}

func TestEmptyItemWarning(t *testing.T) {
	text := "# P\n\n## G\n- \n- real\n"
	root, plan := workspace(t, text)
	cliApprove(t, root)
	e := newEnv(t, envConfig{folders: []string{root}})
	u := e.open(plan, text)
	ds := e.waitDiags(u, "empty-item", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleEmpty) == 1 })
	for _, d := range ds {
		if d.Code == core.RuleEmpty && (d.Range.Start.Line != 3 || d.Severity != protocol.DiagnosticSeverityWarning) {
			t.Errorf("empty-item %+v", d)
		}
	}
	if countCode(ds, core.RuleOpen) != 1 {
		t.Errorf("open: %s", codes(ds))
	}
}

func TestHoverEvidenceReasonDue(t *testing.T) {
	e, root, u := approved(t)
	cli(t, root, `{"action":"update","id":1,"status":"completed","evidence":"go test ./internal/ratelimit: ok"}`)
	cli(t, root, `{"action":"update","id":2,"status":"deferred","reason":"batch endpoint later"}`)
	e.waitDiags(u, "two closed", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleOpen) == 5 })
	if h := e.hoverAt(u, 7, 2); !strings.Contains(h, "status: `completed`") || !strings.Contains(h, "evidence: go test ./internal/ratelimit: ok") {
		t.Errorf("hover #1:\n%s", h)
	}
	if h := e.hoverAt(u, 10, 2); !strings.Contains(h, "status: `deferred`") || !strings.Contains(h, "reason: batch endpoint later") {
		t.Errorf("hover #2:\n%s", h)
	}
	// Due dates come from the MCP seed's due_at.
	res, err := e.exec("planls.todo", map[string]any{"params": map[string]any{"action": "update", "id": 3, "due_at": "2026-12-24T17:00:00Z"}})
	if err != nil {
		t.Fatal(err)
	}
	if details(res)["error"] != nil {
		t.Fatalf("due_at on update: %v", details(res)["error"])
	}
	if h := e.hoverAt(u, 12, 2); !strings.Contains(h, "due: 2026-12-24T17:00:00Z") {
		t.Errorf("hover #3:\n%s", h)
	}
}

// context.only filters by kind (a kind covers its sub-kinds): the item's
// quick fixes, with the one-click evidence of HEAD; approve is a source
// action, for the whole file whatever the range.
func TestCodeActionOnly(t *testing.T) {
	e, _, u := approved(t)
	for _, tc := range []struct {
		only []protocol.CodeActionKind
		want int
	}{{nil, 4}, {[]protocol.CodeActionKind{protocol.QuickFix}, 4}, {[]protocol.CodeActionKind{"source.organizeImports", "refactor"}, 0}} {
		var out []protocol.CodeAction
		pos := protocol.Position{Line: 7}
		e.call("textDocument/codeAction", protocol.CodeActionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: protocol.DocumentURI(u)},
			Range:        protocol.Range{Start: pos, End: pos},
			Context:      protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{}, Only: tc.only},
		}, &out)
		if len(out) != tc.want {
			t.Errorf("only %v: %d actions, want %d", tc.only, len(out), tc.want)
		}
	}
}

func TestPlanRequestDraft(t *testing.T) {
	root, _ := workspace(t, basicPlan(t))
	e := newEnv(t, envConfig{folders: []string{root}})
	var res planResult
	e.call("planls/plan", nil, &res)
	if res.Approved || !res.Exists || res.Total != 7 || res.Open != 0 {
		t.Errorf("draft plan %+v", res)
	}
	for _, g := range res.Groups {
		for _, it := range g.Items {
			if it.Status != "draft" || it.ID != 0 || it.Drift != "new" || it.Range == nil {
				t.Errorf("draft item %+v", it)
			}
		}
	}
	if _, err := e.exec("planls.approve", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	e.call("planls/plan", map[string]any{"uri": uriOf(root)}, &res)
	if !res.Approved || res.Open != 7 {
		t.Errorf("after approve %+v", res)
	}
}

func TestCodeLensApproveAndReapprove(t *testing.T) {
	root, plan := workspace(t, "# P\n\n## G\n- one\n")
	e := newEnv(t, envConfig{folders: []string{root}})
	u := e.open(plan, "# P\n\n## G\n- one\n")
	lens := func() string {
		var ls []protocol.CodeLens
		e.call("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": u}}, &ls)
		var out []string
		for _, l := range ls {
			out = append(out, fmt.Sprintf("%d:%s", l.Range.Start.Line, l.Command.Title))
		}
		return strings.Join(out, " | ")
	}
	if got := lens(); got != "0:Approve plan (1 plan item) | 2:1 plan item on approval | 3:will be tracked" {
		t.Errorf("unapproved lenses %q", got)
	}
	if _, err := e.exec("planls.approve", map[string]any{"uri": u}); err != nil {
		t.Fatal(err)
	}
	if got := lens(); got != "3:Complete #1… | 3:Defer #1… | 3:Start #1" {
		t.Errorf("approved lenses %q", got)
	}
	e.change(u, 2, "# P\n\n## G\n- one\n- two\n")
	if got := lens(); !strings.HasPrefix(got, "0:Re-approve plan | 3:Complete #1…") {
		t.Errorf("drifted lenses %q", got)
	}
}

func TestNotApprovedMessageCountsItems(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"# One\n- a\n", `plan "One" is not approved: approve it to track its 1 item`},
		{"# None\n\nprose\n", `plan "None" is not approved and has no plan items yet: add a top-level bullet per piece of work`},
	} {
		root, plan := workspace(t, tc.text)
		e := newEnv(t, envConfig{folders: []string{root}})
		ds := e.waitDiags(uriOf(plan), "not approved", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleNotApproved) == 1 })
		if ds[0].Message != tc.want {
			t.Errorf("%q", ds[0].Message)
		}
	}
}
