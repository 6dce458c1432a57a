package lsp

import (
	"encoding/json"
	"errors"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/planls/planls/core"
	"github.com/planls/planls/planparse"
)

// capsEnv is the basic plan, approved, for a client sending caps and
// answering server→client requests with answer (nil: null).
func capsEnv(t *testing.T, caps map[string]any, answer func(string, json.RawMessage) (any, error)) (*env, string, string) {
	t.Helper()
	root, plan := workspace(t, basicPlan(t))
	cliApprove(t, root)
	e := newEnv(t, envConfig{noInit: true})
	e.answer = answer
	e.initialize(envConfig{folders: []string{root}, caps: caps})
	u := uriOf(plan)
	e.waitDiags(u, "7 open items", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleOpen) == 7 })
	e.settle(u)
	return e, root, u
}

func (e *env) inlayHints(u string, first, last int) []inlayHint {
	e.t.Helper()
	var out []inlayHint
	e.call("textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": u},
		"range": map[string]any{"start": map[string]any{"line": first, "character": 0}, "end": map[string]any{"line": last, "character": 0}}}, &out)
	return out
}

func hintLabels(hs []inlayHint) string {
	var out []string
	for _, h := range hs {
		out = append(out, h.Label)
	}
	return strings.Join(out, " | ")
}

// The item's status is an inlay hint at the end of its first line, for the
// lines asked; a closed item's proof is its tooltip; a status change from
// another writer sends workspace/inlayHint/refresh.
func TestInlayHintStatus(t *testing.T) {
	caps := map[string]any{"textDocument": modernTextDocumentCaps(),
		"workspace": map[string]any{"inlayHint": map[string]any{"refreshSupport": true}}}
	e, root, u := capsEnv(t, caps, nil)
	hs := e.inlayHints(u, 0, 40)
	if got := hintLabels(hs); got != "#1 pending | #2 pending | #3 pending | #4 pending | #5 pending | #6 pending | #7 pending" {
		t.Fatalf("hints %q", got)
	}
	line := strings.Split(basicPlan(t), "\n")[7]
	if p := hs[0].Position; p.Line != 7 || int(p.Character) != len(line) || !hs[0].PaddingLeft {
		t.Errorf("hint #1 at %+v (padding %v), want 7:%d", p, hs[0].PaddingLeft, len(line))
	}
	if got := hintLabels(e.inlayHints(u, 10, 11)); got != "#2 pending" {
		t.Errorf("hints on lines 10-11: %q", got)
	}
	// After each outside write: the state change is seen (planls/stateChanged
	// follows the new view), a refresh is asked for, and the hints show it.
	changes := func() int { // caller holds e.mu (waitFor does)
		n := 0
		for _, x := range e.notes {
			if x.method == "planls/stateChanged" {
				n++
			}
		}
		return n
	}
	write := func(what, params string) {
		e.barrier()
		e.mu.Lock()
		base, seen := e.reqCount("workspace/inlayHint/refresh"), changes()
		e.mu.Unlock()
		cli(t, root, params)
		e.waitFor(what+" seen", func() bool { return changes() > seen })
		e.waitFor(what+": inlayHint refresh", func() bool { return e.reqCount("workspace/inlayHint/refresh") > base })
	}
	write("completing #1", `{"action":"update","id":1,"status":"completed","evidence":"go test ./ratelimit ok"}`)
	hs = e.inlayHints(u, 7, 7)
	if len(hs) != 1 || hs[0].Label != "#1 completed" || hs[0].Tooltip != "evidence: go test ./ratelimit ok" {
		t.Errorf("after completing #1: %+v", hs)
	}
	// New evidence on a completed item changes only the tooltip: refreshed too.
	write("new evidence", `{"action":"update","id":1,"evidence":"go test ./ratelimit -race ok"}`)
	if hs = e.inlayHints(u, 7, 7); len(hs) != 1 || hs[0].Tooltip != "evidence: go test ./ratelimit -race ok" {
		t.Errorf("after new evidence: %+v", hs)
	}
}

// draftEnv opens the basic plan, not approved yet.
func draftEnv(t *testing.T) (*env, string) {
	t.Helper()
	root, plan := workspace(t, basicPlan(t))
	e := newEnv(t, envConfig{folders: []string{root}})
	u := e.open(plan, basicPlan(t))
	e.waitDiags(u, "plan-not-approved", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleNotApproved) == 1 })
	return e, u
}

// A plan that is not approved has no ids to show.
func TestInlayHintUnapproved(t *testing.T) {
	e, u := draftEnv(t)
	if hs := e.inlayHints(u, 0, 40); len(hs) != 0 {
		t.Errorf("hints on a draft: %+v", hs)
	}
}

func TestInitializeAdvertises317(t *testing.T) {
	root, _ := workspace(t, basicPlan(t))
	e := newEnv(t, envConfig{noInit: true})
	res := e.initialize(envConfig{folders: []string{root}})
	caps := res["capabilities"].(map[string]any)
	if caps["inlayHintProvider"] != true {
		t.Errorf("inlayHintProvider %v", caps["inlayHintProvider"])
	}
	kinds, _ := json.Marshal(caps["codeActionProvider"])
	if string(kinds) != `{"codeActionKinds":["quickfix","refactor.rewrite","source.approve"]}` {
		t.Errorf("codeActionProvider %s", kinds)
	}
}

// hover.contentFormat without markdown (or preferring plaintext) gets plain
// text: no bold, no code span, the plan's own text as written.
func TestHoverPlainText(t *testing.T) {
	for _, formats := range [][]string{{"plaintext"}, {"plaintext", "markdown"}} {
		caps := map[string]any{"textDocument": map[string]any{"hover": map[string]any{"contentFormat": formats}}}
		e, _, u := capsEnv(t, caps, nil)
		var h protocol.Hover
		e.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": u},
			"position": map[string]any{"line": 7, "character": 3}}, &h)
		want := "#1 Add `internal/ratelimit` with a token bucket keyed by API key\nstatus: pending"
		if h.Contents.Kind != protocol.PlainText || h.Contents.Value != want {
			t.Errorf("%v: hover %s %q", formats, h.Contents.Kind, h.Contents.Value)
		}
	}
	e, _, u := capsEnv(t, map[string]any{"textDocument": map[string]any{"hover": map[string]any{"contentFormat": []string{"markdown", "plaintext"}}}}, nil)
	var h protocol.Hover
	e.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": u},
		"position": map[string]any{"line": 7, "character": 3}}, &h)
	if h.Contents.Kind != protocol.Markdown || !strings.HasPrefix(h.Contents.Value, "**#1 Add") {
		t.Errorf("markdown first: %s %q", h.Contents.Kind, h.Contents.Value)
	}
}

// hoverText for a plain-text client: no bold, no code span, one line per
// paragraph, the plan's own text as written.
func TestPlainHover(t *testing.T) {
	owner := "ana"
	task := &core.Task{ID: 3, Subject: "Add `x`", Status: core.InProgress, Evidence: "ok", Owner: &owner}
	st := &core.State{Tasks: []core.Task{*task}}
	for _, tt := range []struct {
		vi       core.Item
		approved bool
		md, want string
	}{
		{core.Item{Plan: &planparse.Item{Subject: "Add `x`"}, Task: task, Drift: "changed"}, true,
			"**#3 Add `x`**\n\nstatus: `in_progress` (text differs from the approved plan)\n\nevidence: ok\n\nowner: ana",
			"#3 Add `x`\nstatus: in_progress (text differs from the approved plan)\nevidence: ok\nowner: ana"},
		{core.Item{Plan: &planparse.Item{Subject: "a **b"}}, false,
			"**a **b**: draft (the plan is not approved)", "a **b: draft (the plan is not approved)"},
	} {
		st.Plan = nil
		if tt.approved {
			st.Plan = &core.PlanRef{ID: "sha256:00"}
		}
		sn := &snapshot{an: core.Analyze(core.Input{State: st})}
		if got := hoverText(sn, &tt.vi, markup{}); got != tt.md {
			t.Errorf("markdown %q, want %q", got, tt.md)
		}
		if got := hoverText(sn, &tt.vi, markup{plain: true}); got != tt.want {
			t.Errorf("plain %q, want %q", got, tt.want)
		}
	}
}

// Without hierarchicalDocumentSymbolSupport the outline is
// SymbolInformation[], each naming its parent.
func TestFlatDocumentSymbols(t *testing.T) {
	e, _, u := capsEnv(t, map[string]any{"textDocument": map[string]any{}}, nil)
	var syms []protocol.SymbolInformation
	e.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": u}}, &syms)
	var got []string
	for _, s := range syms {
		got = append(got, s.Name+" < "+s.ContainerName)
	}
	if len(syms) != 10 || got[0] != "Add per-client rate limiting to the ingest API < " ||
		got[1] != "Important changes < Add per-client rate limiting to the ingest API" ||
		!strings.HasPrefix(got[2], "#1 Add `internal/ratelimit`") || !strings.HasSuffix(got[2], " < Important changes") {
		t.Errorf("flat symbols:\n%s", strings.Join(got, "\n"))
	}
	for _, s := range syms {
		if s.Location.URI != protocol.DocumentURI(u) {
			t.Errorf("%s in %s", s.Name, s.Location.URI)
		}
	}
}

// Without codeActionLiteralSupport the actions come as Command[]; a kind
// filter still applies.
func TestCodeActionsAsCommands(t *testing.T) {
	e, _, u := capsEnv(t, map[string]any{"textDocument": map[string]any{}}, nil)
	var raw []map[string]any
	pos := protocol.Position{Line: 7}
	e.call("textDocument/codeAction", protocol.CodeActionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: protocol.DocumentURI(u)},
		Range:        protocol.Range{Start: pos, End: pos},
		Context:      protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{}},
	}, &raw)
	var got []string
	for _, c := range raw {
		if _, ok := c["kind"]; ok {
			t.Errorf("a CodeAction literal: %v", c)
		}
		got = append(got, c["title"].(string)+" → "+c["command"].(string))
	}
	if strings.Join(got, " | ") != "Complete #1… → planls.complete | Complete #1 with abc1234 Add the limiter → planls.complete | Defer #1… → planls.defer | Start #1 → planls.start" {
		t.Errorf("commands %q", got)
	}
}

// Kinds say what an action is: quick fixes on an item's diagnostic, a
// status rewrite on an item without one, approve as a source action for the
// whole file (any range when only asks for source).
func TestCodeActionKinds(t *testing.T) {
	e, u := draftEnv(t)
	var acts []protocol.CodeAction
	pos := protocol.Position{Line: 25}
	e.call("textDocument/codeAction", protocol.CodeActionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: protocol.DocumentURI(u)},
		Range:        protocol.Range{Start: pos, End: pos},
		Context:      protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{}, Only: []protocol.CodeActionKind{protocol.Source}},
	}, &acts)
	if len(acts) != 1 || acts[0].Title != "Approve plan" || acts[0].Kind != "source.approve" {
		t.Fatalf("source actions on line 25: %+v", acts)
	}
	if _, err := e.runAction(acts[0]); err != nil {
		t.Fatal(err)
	}
	e.waitDiags(u, "open items", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleOpen) == 7 })
	if _, err := e.exec("planls.defer", map[string]any{"id": 1, "reason": "later", "uri": u}); err != nil {
		t.Fatal(err)
	}
	e.waitDiags(u, "6 open", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleOpen) == 6 })
	for _, a := range e.actions(u, 7, nil) {
		if a.Kind != protocol.RefactorRewrite || len(a.Diagnostics) != 0 {
			t.Errorf("%s on a deferred item: kind %q, %d diagnostics", a.Title, a.Kind, len(a.Diagnostics))
		}
	}
	ds, _ := e.lastDiags(u)
	for _, a := range e.actions(u, int(ds[0].Range.Start.Line), ds[:1]) {
		if a.Kind != protocol.QuickFix {
			t.Errorf("%s on an open item: kind %q", a.Title, a.Kind)
		}
	}
}

// A one-click "Complete #N with <HEAD>" action ends in the same store call
// as the prompt: the item is completed with that evidence.
func TestReadyEvidenceAction(t *testing.T) {
	e, root, u := capsEnv(t, map[string]any{"textDocument": modernTextDocumentCaps()}, nil)
	cli(t, root, `{"action":"update","id":7,"status":"completed","evidence":"k6 run: p99 12 ms"}`)
	e.waitDiags(u, "6 open", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleOpen) == 6 })
	acts := e.actions(u, 10, nil)
	// #7's evidence is not offered to #2: it proves #7.
	if got := titles(acts); got != "Complete #2… | Complete #2 with abc1234 Add the limiter | Defer #2… | Start #2" {
		t.Fatalf("actions %q", got)
	}
	res, err := e.runAction(acts[1])
	if err != nil || details(res)["error"] != nil {
		t.Fatalf("ready evidence: %v %v", res, err)
	}
	if t2 := findTask(readState(t, root), 2); t2.Status != "completed" || t2.Evidence != "abc1234 Add the limiter" {
		t.Errorf("task 2 %+v", t2)
	}
	// The commit now proves #2, so it is no one-click proof of #3 either.
	e.waitDiags(u, "5 open", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleOpen) == 5 })
	if got := titles(e.actions(u, 12, nil)); got != "Complete #3… | Defer #3… | Start #3" {
		t.Errorf("actions on #3 after #2 was completed with the HEAD commit: %q", got)
	}
	if got := shorten(strings.Repeat("é", 70), 60); len([]rune(got)) != 60 || !strings.HasSuffix(got, "…") {
		t.Errorf("shorten: %q", got)
	}
}

// A client that declares no window capability (eglot, ALE) is asked all the
// same (showMessageRequest is a base request).
func TestAskWithoutWindowCapability(t *testing.T) {
	var mu sync.Mutex
	asked := 0
	e, root, _ := capsEnv(t, map[string]any{}, func(method string, params json.RawMessage) (any, error) {
		if method != "window/showMessageRequest" {
			return nil, nil
		}
		mu.Lock()
		asked++
		mu.Unlock()
		var p protocol.ShowMessageRequestParams
		_ = json.Unmarshal(params, &p)
		return p.Actions[0], nil
	})
	res, err := e.exec("planls.complete", map[string]any{"id": 1})
	if err != nil || details(res)["error"] != nil {
		t.Fatalf("complete: %v %v", res, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if asked != 1 {
		t.Errorf("asked %d times", asked)
	}
	if t1 := findTask(readState(t, root), 1); t1.Status != "completed" || t1.Evidence != "abc1234 Add the limiter" {
		t.Errorf("task 1 %+v", t1)
	}
}

// A client that cannot prompt answers showMessageRequest with an error: the
// command answers the seed's error and a message says how to pass the value.
func TestAskRefusedSaysHow(t *testing.T) {
	e, root, _ := capsEnv(t, map[string]any{}, func(method string, _ json.RawMessage) (any, error) {
		if method == "window/showMessageRequest" {
			return nil, jsonrpc2.NewError(jsonrpc2.MethodNotFound, "unhandled")
		}
		return nil, nil
	})
	res, err := e.exec("planls.complete", map[string]any{"id": 1})
	if err != nil || details(res)["error"] != seedEvidenceErr {
		t.Fatalf("complete: %v %v", res, err)
	}
	e.waitFor("how-to message", func() bool {
		for _, n := range e.notes {
			if n.method == "window/showMessage" && strings.Contains(string(n.params), `planls.complete needs \"evidence\": run it again with the argument {\"id\": 1, \"evidence\": `) {
				return true
			}
		}
		return false
	})
	if findTask(readState(t, root), 1).Status != "pending" {
		t.Error("a refused prompt changed the item")
	}
}

// $/setTrace turns $/logTrace on ("messages": method and timing;
// "verbose": params too) and off; a bad value changes nothing.
func TestSetTraceLogTrace(t *testing.T) {
	e, _, u := capsEnv(t, nil, nil)
	// count reads e.notes: callers hold e.mu (waitFor does).
	count := func() int {
		n := 0
		for _, x := range e.notes {
			if x.method == "$/logTrace" {
				n++
			}
		}
		return n
	}
	locked := func() int {
		e.mu.Lock()
		defer e.mu.Unlock()
		return count()
	}
	e.barrier()
	if n := locked(); n != 0 {
		t.Fatalf("%d $/logTrace with trace off", n)
	}
	e.notify("$/setTrace", map[string]any{"value": "verbose"})
	e.hoverAt(u, 7, 3)
	e.waitFor("logTrace", func() bool { return count() > 0 })
	e.mu.Lock()
	var last protocol.LogTraceParams
	for _, x := range e.notes {
		if x.method == "$/logTrace" {
			_ = json.Unmarshal(x.params, &last)
		}
	}
	e.mu.Unlock()
	if !strings.HasPrefix(last.Message, "handled request 'textDocument/hover' (id ") || !strings.Contains(string(last.Verbose), `"line":7`) {
		t.Errorf("logTrace %+v", last)
	}
	e.notify("$/setTrace", map[string]any{"value": "loud"}) // ignored: still verbose
	e.notify("$/setTrace", map[string]any{"value": "off"})
	e.barrier()
	n := locked()
	e.hoverAt(u, 7, 3)
	e.barrier()
	if got := locked(); got != n {
		t.Errorf("%d $/logTrace after off", got-n)
	}
}

// The server exits when the client's process dies without closing stdio.
func TestExitWhenClientProcessDies(t *testing.T) {
	sleep := exec.Command("sleep", "60")
	if err := sleep.Start(); err != nil {
		t.Skip("no sleep binary:", err)
	}
	root, _ := workspace(t, basicPlan(t))
	e := newEnv(t, envConfig{noInit: true})
	var res map[string]any
	e.call("initialize", map[string]any{"processId": sleep.Process.Pid, "rootUri": uriOf(root), "capabilities": map[string]any{}}, &res)
	e.notify("initialized", map[string]any{})
	e.barrier()
	_ = sleep.Process.Kill()
	_ = sleep.Wait()
	select {
	case err := <-e.done:
		if !errors.Is(err, ErrClientGone) {
			t.Errorf("Run = %v, want ErrClientGone", err)
		}
	case <-time.After(waitTimeout):
		t.Fatal("server still running after its client died")
	}
}

// A processId that is not alive at initialize (another PID namespace) is
// not watched.
func TestDeadProcessIDAtStartIsIgnored(t *testing.T) {
	sleep := exec.Command("true")
	if err := sleep.Run(); err != nil {
		t.Skip("no true binary:", err)
	}
	root, _ := workspace(t, basicPlan(t))
	e := newEnv(t, envConfig{noInit: true})
	var res map[string]any
	e.call("initialize", map[string]any{"processId": sleep.Process.Pid, "rootUri": uriOf(root), "capabilities": map[string]any{}}, &res)
	e.notify("initialized", map[string]any{})
	e.barrier()
	if err := e.shutdown(); err != nil {
		t.Errorf("shutdown: %v", err)
	}
}

// With relativePatternSupport the watchers are per folder (baseUri + the
// folder's own globs); a folder added later is registered too.
func TestRelativePatternWatchers(t *testing.T) {
	a, _ := workspace(t, basicPlan(t))
	b, _ := workspace(t, basicPlan(t))
	c, _ := workspace(t, basicPlan(t))
	caps := map[string]any{"workspace": map[string]any{"didChangeWatchedFiles": map[string]any{
		"dynamicRegistration": true, "relativePatternSupport": true}}}
	e := newEnv(t, envConfig{folders: []string{a, b}, caps: caps})
	regs := func() []string {
		var out []string
		for _, r := range e.reqs {
			if r.method == "client/registerCapability" {
				out = append(out, string(r.params))
			}
		}
		return out
	}
	want := func(folders ...string) string {
		var ws []string
		for _, f := range folders {
			ws = append(ws, `{"globPattern":{"baseUri":"`+uriOf(f)+`","pattern":".planls/state.json"}}`,
				`{"globPattern":{"baseUri":"`+uriOf(f)+`","pattern":"PLAN.md"}}`)
		}
		return `"registerOptions":{"watchers":[` + strings.Join(ws, ",") + `]}`
	}
	e.waitFor("registration", func() bool { return len(regs()) == 1 })
	e.mu.Lock()
	first := regs()[0]
	e.mu.Unlock()
	if !strings.Contains(first, want(a, b)) {
		t.Fatalf("registration %s\nwant %s", first, want(a, b))
	}
	e.notify("workspace/didChangeWorkspaceFolders", map[string]any{"event": map[string]any{
		"added": []any{map[string]any{"uri": uriOf(c), "name": "c"}}, "removed": []any{}}})
	e.waitFor("re-registration", func() bool { return len(regs()) == 2 })
	e.mu.Lock()
	second := regs()[1]
	e.mu.Unlock()
	if !strings.Contains(second, want(a, b, c)) {
		t.Errorf("after adding a folder %s\nwant %s", second, want(a, b, c))
	}
}
