package lsp

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/planls/planls/core"
	"github.com/planls/planls/planparse"
)

// reqCount counts the server→client requests of method so far.
func (e *env) reqCount(method string) int {
	n := 0
	for _, r := range e.reqs {
		if r.method == method {
			n++
		}
	}
	return n
}

// lensTitles lists the titles of the code lenses on line (0-based).
func (e *env) lensTitles(u string, line uint32) string {
	e.t.Helper()
	var lenses []protocol.CodeLens
	e.call("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": u}}, &lenses)
	var out []string
	for _, l := range lenses {
		if l.Range.Start.Line == line {
			out = append(out, l.Command.Title)
		}
	}
	return strings.Join(out, " | ")
}

// A client that supports workspace/codeLens/refresh is asked to re-request
// lenses when a status changes (a command, another writer), so "#1 pending"
// never stays after #1 is completed; edits that change no lens ask nothing.
func TestCodeLensRefresh(t *testing.T) {
	root, plan := workspace(t, basicPlan(t))
	cliApprove(t, root)
	caps := map[string]any{"workspace": map[string]any{"codeLens": map[string]any{"refreshSupport": true}}}
	e := newEnv(t, envConfig{folders: []string{root}, caps: caps})
	text := basicPlan(t)
	u := e.open(plan, text)
	e.waitDiags(u, "open items", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleOpen) == 7 })
	e.barrier()
	e.mu.Lock()
	base := e.reqCount("workspace/codeLens/refresh")
	e.mu.Unlock()
	if got := e.lensTitles(u, 7); got != "Complete #1… | Defer #1… | Start #1" {
		t.Fatalf("lenses on #1 before: %q", got)
	}

	if _, err := e.exec("planls.complete", map[string]any{"id": 1, "evidence": "merged in abc1234", "uri": u}); err != nil {
		t.Fatal(err)
	}
	e.waitFor("codeLens refresh after complete", func() bool { return e.reqCount("workspace/codeLens/refresh") > base })
	if got := e.lensTitles(u, 7); got != "" { // a completed item has no actions
		t.Errorf("lenses on #1 after completing: %q", got)
	}

	// Another writer (the CLI) starts #2: the client hears of it too.
	e.mu.Lock()
	base = e.reqCount("workspace/codeLens/refresh")
	e.mu.Unlock()
	cli(t, root, `{"action":"update","id":2,"status":"in_progress"}`)
	e.waitFor("codeLens refresh after an outside write", func() bool { return e.reqCount("workspace/codeLens/refresh") > base })

	// The first edit makes the file differ from the approved plan: the
	// title gets a "Re-approve plan" lens.
	e.barrier()
	e.mu.Lock()
	base = e.reqCount("workspace/codeLens/refresh")
	e.mu.Unlock()
	e.change(u, 2, strings.Replace(text, "\n\n", "\n\nSome more prose.\n\n", 1))
	e.waitFor("codeLens refresh after drift", func() bool { return e.reqCount("workspace/codeLens/refresh") > base })
	if got := e.lensTitles(u, 0); got != "Re-approve plan" {
		t.Errorf("title lenses after an edit: %q", got)
	}

	// Typing more prose changes no lens: no refresh.
	e.barrier()
	e.mu.Lock()
	base = e.reqCount("workspace/codeLens/refresh")
	e.mu.Unlock()
	e.change(u, 3, strings.Replace(text, "\n\n", "\n\nSome more prose, longer.\n\n", 1))
	e.barrier()
	e.mu.Lock()
	got := e.reqCount("workspace/codeLens/refresh")
	e.mu.Unlock()
	if got != base {
		t.Errorf("%d codeLens refreshes for an edit that changes no lens", got-base)
	}
}

// Without refreshSupport the server never sends workspace/codeLens/refresh.
func TestCodeLensRefreshNeedsSupport(t *testing.T) {
	root, plan := workspace(t, basicPlan(t))
	cliApprove(t, root)
	e := newEnv(t, envConfig{folders: []string{root}})
	u := e.open(plan, basicPlan(t))
	e.waitDiags(u, "open items", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleOpen) == 7 })
	if _, err := e.exec("planls.start", map[string]any{"id": 1, "uri": u}); err != nil {
		t.Fatal(err)
	}
	e.waitDiags(u, "started", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleInProgress) == 1 })
	e.barrier()
	e.mu.Lock()
	defer e.mu.Unlock()
	if n := e.reqCount("workspace/codeLens/refresh"); n != 0 {
		t.Errorf("%d refreshes sent to a client without refreshSupport", n)
	}
}

// A planFiles change moves the client-side watchers: the old registration
// is unregistered by its id and one with the new globs is registered.
func TestPlanFilesReregistersWatchers(t *testing.T) {
	root, _ := workspace(t, basicPlan(t))
	caps := map[string]any{"workspace": map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}}}
	e := newEnv(t, envConfig{folders: []string{root}, caps: caps})
	var regs []protocol.RegistrationParams
	var unregs []protocol.UnregistrationParams
	collect := func() {
		regs, unregs = nil, nil
		for _, r := range e.reqs {
			switch r.method {
			case "client/registerCapability":
				var p protocol.RegistrationParams
				if err := json.Unmarshal(r.params, &p); err != nil {
					t.Fatal(err)
				}
				regs = append(regs, p)
			case "client/unregisterCapability":
				var p protocol.UnregistrationParams
				if err := json.Unmarshal(r.params, &p); err != nil {
					t.Fatal(err)
				}
				unregs = append(unregs, p)
			}
		}
	}
	e.waitFor("first registration", func() bool { collect(); return len(regs) == 1 })
	e.barrier()
	globsOf := func(p protocol.RegistrationParams) []string {
		raw, _ := json.Marshal(p.Registrations[0].RegisterOptions)
		var o struct {
			Watchers []struct {
				GlobPattern string `json:"globPattern"`
			} `json:"watchers"`
		}
		_ = json.Unmarshal(raw, &o)
		var out []string
		for _, w := range o.Watchers {
			out = append(out, w.GlobPattern)
		}
		return out
	}
	if got := strings.Join(globsOf(regs[0]), " "); got != "**/.planls/state.json **/PLAN.md" {
		t.Fatalf("first globs %q", got)
	}
	firstID := regs[0].Registrations[0].ID

	e.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"planls": map[string]any{
		"planFiles": []string{"docs/plans/*.md", filepath.ToSlash("PLAN.md")}}}})
	e.waitFor("re-registration", func() bool { collect(); return len(regs) == 2 })
	e.mu.Lock()
	collect()
	e.mu.Unlock()
	if len(unregs) != 1 || len(unregs[0].Unregisterations) != 1 ||
		unregs[0].Unregisterations[0].ID != firstID || unregs[0].Unregisterations[0].Method != "workspace/didChangeWatchedFiles" {
		t.Errorf("unregistrations %+v, want one of id %q", unregs, firstID)
	}
	second := regs[1].Registrations[0]
	if second.ID == firstID || second.Method != "workspace/didChangeWatchedFiles" {
		t.Errorf("second registration %+v", second)
	}
	if got := strings.Join(globsOf(regs[1]), " "); got != "**/.planls/state.json **/docs/plans/*.md **/PLAN.md" {
		t.Errorf("new globs %q", got)
	}
	// The unregister went out before the new register.
	e.mu.Lock()
	order := ""
	for _, r := range e.reqs {
		if strings.HasPrefix(r.method, "client/") {
			order += r.method + " "
		}
	}
	e.mu.Unlock()
	if order != "client/registerCapability client/unregisterCapability client/registerCapability " {
		t.Errorf("order: %s", order)
	}

	// Settings that keep planFiles (severity only) register nothing new.
	e.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"planls": map[string]any{"severity": "warning"}}})
	e.barrier()
	e.mu.Lock()
	collect()
	e.mu.Unlock()
	if len(regs) != 2 || len(unregs) != 1 {
		t.Errorf("%d registrations, %d unregistrations after a severity change", len(regs), len(unregs))
	}
}

// The lens sum changes exactly when a lens would: a status, an approval state,
// an item tracked or not; not when lines merely move.
func TestLensSum(t *testing.T) {
	src := []byte(basicPlan(t))
	approved := core.Approve(core.Empty(), planparse.Parse(src), src, "PLAN.md", core.Options{}).State
	sum := func(st *core.State, text []byte) uint64 {
		s := &server{settings: defaultSettings(), docs: map[string]*document{}}
		fo := newFolder("/w", "file:///w")
		fo.state, fo.planPath, fo.planDisk = st, "/w/PLAN.md", text
		lens, _ := refreshSums(s.build(fo))
		return lens
	}
	base := sum(approved, src)
	withTask0 := func(edit func(*core.Task)) *core.State {
		st := *approved
		st.Tasks = append([]core.Task(nil), approved.Tasks...)
		edit(&st.Tasks[0])
		return &st
	}
	started := withTask0(func(t *core.Task) { t.Status = core.InProgress })
	evidence := withTask0(func(t *core.Task) { t.Evidence = "not shown in a lens" })
	shifted := append([]byte("\n\n"), src...)
	tests := []struct {
		name string
		got  uint64
		same bool
	}{
		{"same input", sum(approved, src), true},
		{"evidence only", sum(evidence, src), true},
		{"status", sum(started, src), false},
		{"not approved", sum(core.Empty(), src), false},
		{"lines moved (drift: re-approve lens)", sum(approved, shifted), false},
	}
	for _, tc := range tests {
		if (tc.got == base) != tc.same {
			t.Errorf("%s: same sum = %v, want %v", tc.name, tc.got == base, tc.same)
		}
	}
}
