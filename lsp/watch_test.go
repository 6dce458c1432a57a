package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
	"go.lsp.dev/protocol"

	"github.com/planls/planls/core"
	"github.com/planls/planls/store"
)

// cli is another writer of the same state (what `planls todo` does).
func cli(t testing.TB, root string, params string) core.Result {
	t.Helper()
	res, err := store.Open(root, "cli").Call(context.Background(), json.RawMessage(params), core.Options{})
	if err != nil {
		t.Fatalf("cli %s: %v", params, err)
	}
	if res.Envelope.IsError() {
		t.Fatalf("cli %s: %s", params, res.Envelope.Text())
	}
	return res
}

func cliApprove(t testing.TB, root string) {
	t.Helper()
	if _, err := store.Open(root, "cli").Approve(context.Background(), "PLAN.md", core.Options{}, store.ApproveOptions{}); err != nil {
		t.Fatalf("approve: %v", err)
	}
}

// diskEnv is an approved plan that is NOT open in the editor: what the server
// shows comes from disk only.
func diskEnv(t *testing.T, opts options) (*env, string, string) {
	t.Helper()
	root, plan := workspace(t, basicPlan(t))
	cliApprove(t, root)
	if opts.gitHead == nil {
		opts = testOptions()
	}
	e := newEnv(t, envConfig{folders: []string{root}, opts: opts})
	u := uriOf(plan)
	e.waitDiags(u, "7 open items", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleOpen) == 7 })
	e.settle(u) // the planls/stateChanged of the background refresh has come
	return e, root, u
}

func hasMessage(ds []protocol.Diagnostic, sub string) bool {
	for _, d := range ds {
		if strings.Contains(d.Message, sub) {
			return true
		}
	}
	return false
}

// An editor-style save (temp file renamed over the original) twice; both
// are seen, the watch is on the directory.
func TestWatchRenameOverSave(t *testing.T) {
	e, root, u := diskEnv(t, options{})
	state := filepath.Join(root, ".planls", "state.json")
	for i, status := range []string{"in_progress", "deferred"} {
		raw, err := os.ReadFile(state)
		if err != nil {
			t.Fatal(err)
		}
		var st core.State
		if err := json.Unmarshal(raw, &st); err != nil {
			t.Fatal(err)
		}
		st.Tasks[0].Status = core.Status(status)
		if status == "deferred" {
			st.Tasks[0].Reason = "later"
		}
		st.Revision++
		out, _ := json.MarshalIndent(st, "", "  ")
		tmp := state + ".tmp"
		writeFile(t, tmp, string(out))
		if err := os.Rename(tmp, state); err != nil {
			t.Fatal(err)
		}
		want := map[int]func([]protocol.Diagnostic) bool{
			0: func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleInProgress) == 1 },
			1: func(d []protocol.Diagnostic) bool {
				return countCode(d, core.RuleOpen) == 6 && countCode(d, core.RuleInProgress) == 0
			},
		}[i]
		e.waitDiags(u, fmt.Sprintf("save %d (%s)", i+1, status), want)
	}
}

// No .planls/ at start; another process creates it by approving.
func TestWatchStateAppearsLater(t *testing.T) {
	root, plan := workspace(t, basicPlan(t))
	e := newEnv(t, envConfig{folders: []string{root}})
	u := uriOf(plan)
	e.waitDiags(u, "not approved", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleNotApproved) == 1 })
	cliApprove(t, root)
	e.waitDiags(u, "approved by the CLI", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleOpen) == 7 })
	cli(t, root, `{"action":"update","id":2,"status":"in_progress"}`)
	e.waitDiags(u, "a later CLI change", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleInProgress) == 1 })
}

// A truncate-then-write never flashes state-invalid; the last good
// state stays until the file is whole again.
func TestWatchHalfWrittenState(t *testing.T) {
	e, root, u := diskEnv(t, options{})
	state := filepath.Join(root, ".planls", "state.json")
	raw, _ := os.ReadFile(state)
	var st core.State
	_ = json.Unmarshal(raw, &st)
	st.Tasks[2].Status = core.InProgress
	st.Revision++
	full, _ := json.MarshalIndent(st, "", "  ")
	f, err := os.OpenFile(state, os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(full[:len(full)/2]); err != nil {
		t.Fatal(err)
	}
	_ = f.Sync()
	time.Sleep(20 * time.Millisecond) // the writer's pause: the scenario, not a wait
	if _, err := f.Write(full[len(full)/2:]); err != nil {
		t.Fatal(err)
	}
	_ = f.Close()
	e.waitDiags(u, "the whole write", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleInProgress) == 1 })
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, p := range e.pubs {
		if countCode(p.Diagnostics, core.RuleStateInvalid) > 0 {
			t.Errorf("state-invalid flashed on %s during a write", p.URI)
		}
	}
}

// A state file that stays broken is reported on the state file at the parse
// error's position, and on the plan's title; fixing it clears both.
func TestStateInvalidPositionAndRecovery(t *testing.T) {
	e, root, u := diskEnv(t, options{})
	state := filepath.Join(root, ".planls", "state.json")
	good, _ := os.ReadFile(state)
	writeFile(t, state, "{\n  \"version\": 1,\n  \"tasks\": [ oops ]\n}\n")
	su := uriOf(state)
	ds := e.waitDiags(su, "state-invalid", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleStateInvalid) == 1 })
	d := ds[0]
	if d.Severity != protocol.DiagnosticSeverityError || d.Source != "planls" || d.Range.Start.Line != 2 {
		t.Errorf("state diagnostic %+v, want an error on line 3", d)
	}
	pd := e.waitDiags(u, "state-invalid on the plan", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleStateInvalid) == 1 })
	if countCode(pd, core.RuleOpen) != 7 {
		t.Errorf("plan diagnostics %s: want state-invalid plus the last good items", codes(pd))
	}
	writeFile(t, state, string(good))
	e.waitDiags(su, "state cleared", func(d []protocol.Diagnostic) bool { return len(d) == 0 })
	e.mu.Lock()
	raw := e.rawDiag[su]
	e.mu.Unlock()
	if !strings.Contains(raw, `"diagnostics":[]`) {
		t.Errorf("clearing sent %s, want an empty array (never null)", raw)
	}
}

// An overflow means lost events: everything is re-read.
func TestWatchOverflowRereads(t *testing.T) {
	e, root, u := diskEnv(t, options{})
	e.barrier()
	srv := serverOf(t, e)
	srv.mu.Lock()
	fw := srv.watcher
	srv.mu.Unlock()
	if fw == nil {
		t.Fatal("no fsnotify watcher")
	}
	// Lose the events: drop the watches, change the state, then overflow.
	srv.mu.Lock()
	for d := range fw.dirs {
		_ = fw.w.Remove(d)
		delete(fw.dirs, d)
	}
	srv.mu.Unlock()
	cli(t, root, `{"action":"update","id":4,"status":"in_progress"}`)
	fw.w.Errors <- fsnotify.ErrEventOverflow
	e.waitDiags(u, "re-read after overflow", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleInProgress) == 1 })
}

// A checkout-like storm (plan, state and hundreds of other files)
// becomes one reload reading plan and state as a pair.
func TestWatchStormCoalesced(t *testing.T) {
	o := testOptions()
	o.debounce = 300 * time.Millisecond // generous: this machine stalls, and -race slows it further
	e, root, u := diskEnv(t, o)
	before := len(e.notesOf("planls/stateChanged"))
	plan := strings.Replace(basicPlan(t), "## Tests and verification", "## Tests and verification\n- Soak test for an hour", 1)
	state := filepath.Join(root, ".planls", "state.json")
	raw, _ := os.ReadFile(state)
	var st core.State
	_ = json.Unmarshal(raw, &st)
	st.Tasks[4].Status = core.InProgress
	st.Revision++
	next, _ := json.Marshal(st)
	// What a checkout does: plan and state rewritten among many other files
	// (fewer than a real checkout: this machine's disk is slow).
	for i := range 300 {
		if i == 150 {
			writeFile(t, filepath.Join(root, "PLAN.md"), plan)
			writeFile(t, state+".tmp", string(next))
			if err := os.Rename(state+".tmp", state); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("f%04d.go", i)), []byte("package src\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e.waitDiags(u, "plan and state together", func(d []protocol.Diagnostic) bool {
		return countCode(d, core.RuleInProgress) == 1 && countCode(d, core.RuleDrift) == 1
	})
	e.barrier()
	if n := len(e.notesOf("planls/stateChanged")) - before; n != 1 {
		t.Errorf("%d reloads for one storm, want 1", n)
	}
}

// The server's own write is not reloaded again, and a byte-identical
// rewrite by someone else triggers nothing.
func TestOwnWritesIgnored(t *testing.T) {
	e, root, u := diskEnv(t, options{})
	before := len(e.notesOf("planls/stateChanged"))
	if _, err := e.exec("planls.start", map[string]any{"id": 1}); err != nil {
		t.Fatal(err)
	}
	e.waitDiags(u, "#1 started", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleInProgress) == 1 })
	state := filepath.Join(root, ".planls", "state.json")
	raw, _ := os.ReadFile(state)
	writeFile(t, state, string(raw)) // identical bytes
	// A later, real change of the plan is the marker that every earlier event was handled.
	plan := strings.Replace(basicPlan(t), "- Clients already retry on 429", "- Clients already retry on 429 (checked)", 1)
	writeFile(t, filepath.Join(root, "PLAN.md.tmp"), plan) // atomic, so the edit is one change
	if err := os.Rename(filepath.Join(root, "PLAN.md.tmp"), filepath.Join(root, "PLAN.md")); err != nil {
		t.Fatal(err)
	}
	e.waitFor("the plan change", func() bool { return e.countLocked("planls/stateChanged")-before >= 2 })
	e.barrier()
	if n := len(e.notesOf("planls/stateChanged")) - before; n != 2 {
		t.Errorf("%d stateChanged, want 2 (our command, the plan edit)", n)
	}
	after, _ := os.ReadFile(state)
	if string(after) != string(raw) {
		t.Error("a reload wrote the state file")
	}
}

// The plan moves away while not open: its URI is cleared with [].
func TestPlanMovedAwayClears(t *testing.T) {
	e, root, u := diskEnv(t, options{})
	if err := os.MkdirAll(filepath.Join(root, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(root, "PLAN.md"), filepath.Join(root, "docs", "PLAN.md")); err != nil {
		t.Fatal(err)
	}
	e.waitDiags(u, "cleared", func(d []protocol.Diagnostic) bool { return len(d) == 0 })
	e.mu.Lock()
	raw := e.rawDiag[u]
	e.mu.Unlock()
	if !strings.Contains(raw, `"diagnostics":[]`) {
		t.Errorf("clearing sent %s", raw)
	}
	var res planResult
	e.call("planls/plan", map[string]any{}, &res)
	if res.Exists {
		t.Errorf("planls/plan still reports a plan: %+v", res)
	}
}

// With dynamic registration the client watches: the server registers the
// globs and reacts to workspace/didChangeWatchedFiles.
func TestClientWatching(t *testing.T) {
	root, plan := workspace(t, basicPlan(t))
	cliApprove(t, root)
	o := testOptions()
	caps := map[string]any{"workspace": map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}}}
	e := newEnv(t, envConfig{folders: []string{root}, opts: o, caps: caps})
	u := uriOf(plan)
	e.waitDiags(u, "open items", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleOpen) == 7 })
	reg := waitRegistration(e)
	for _, glob := range []string{`"**/.planls/state.json"`, `"**/PLAN.md"`, `"workspace/didChangeWatchedFiles"`} {
		if !strings.Contains(reg, glob) {
			t.Errorf("registration %s lacks %s", reg, glob)
		}
	}
	e.barrier()
	waitWatched(t, e, filepath.Join(root, ".planls"))
	cli(t, root, `{"action":"update","id":3,"status":"in_progress"}`)
	e.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{
		map[string]any{"uri": uriOf(filepath.Join(root, ".planls", "state.json")), "type": 2}}})
	e.waitDiags(u, "reload on the client's event", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleInProgress) == 1 })
}

// .planls/ removed and created again: the new state file is still watched.
func TestWatchStateDirRecreated(t *testing.T) {
	e, root, u := diskEnv(t, options{})
	dir := filepath.Join(root, ".planls")
	saved, err := os.ReadFile(filepath.Join(dir, "state.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	e.waitDiags(u, "state gone: not approved", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleNotApproved) == 1 })
	writeFile(t, filepath.Join(dir, "state.json"), string(saved))
	e.waitDiags(u, "state back", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleOpen) == 7 })
	cli(t, root, `{"action":"update","id":6,"status":"in_progress"}`)
	e.waitDiags(u, "a change in the new directory", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleInProgress) == 1 })
}

// A planFiles glob in a subdirectory that does not exist yet: its nearest
// existing ancestor is watched and the plan is found when it appears.
func TestWatchPlanInNewSubdirectory(t *testing.T) {
	root := t.TempDir()
	e := newEnv(t, envConfig{folders: []string{root}, initOpt: map[string]any{"planFiles": []string{"docs/plans/*.md"}}})
	e.barrier()
	plan := filepath.Join(root, "docs", "plans", "q4.md")
	writeFile(t, plan+".tmp", "# Q4\n\n## G\n- ship it\n")
	if err := os.Rename(plan+".tmp", plan); err != nil {
		t.Fatal(err)
	}
	e.waitDiags(uriOf(plan), "the plan in a new directory", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleNotApproved) == 1 })
}

// A state path that cannot be read at all (a directory) is reported, not fatal.
func TestStateUnreadable(t *testing.T) {
	root, plan := workspace(t, basicPlan(t))
	if err := os.MkdirAll(filepath.Join(root, ".planls", "state.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, envConfig{folders: []string{root}})
	ds := e.waitDiags(uriOf(plan), "state-invalid", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleStateInvalid) == 1 })
	if countCode(ds, core.RuleNotApproved) != 1 {
		t.Errorf("plan diagnostics %s", codes(ds))
	}
	var res planResult
	e.call("planls/plan", nil, &res)
	if res.StateError == "" {
		t.Error("planls/plan lacks stateError")
	}
	if _, err := e.exec("planls.start", map[string]any{"id": 1}); err == nil {
		t.Error("a command ran on an unreadable state")
	}
}

// A client that accepts the watch registration but never
// reports state.json replaced by rename (eglot 1.9, coc.nvim): the server's
// own watch of .planls/ still sees the CLI's change, and publishes it once.
func TestClientWatchingSilentStillSeesState(t *testing.T) {
	root, plan := workspace(t, basicPlan(t))
	cliApprove(t, root)
	caps := map[string]any{"workspace": map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}}}
	e := newEnv(t, envConfig{folders: []string{root}, opts: testOptions(), caps: caps})
	u := uriOf(plan)
	e.waitDiags(u, "open items", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleOpen) == 7 })
	waitRegistration(e)
	e.settle(u)
	before := len(e.notesOf("planls/stateChanged"))
	cli(t, root, `{"action":"update","id":3,"status":"in_progress"}`)
	e.waitDiags(u, "the CLI change without a client event", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleInProgress) == 1 })
	// The client's own (late) event for the same change must not refresh again.
	e.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{
		map[string]any{"uri": uriOf(filepath.Join(root, ".planls", "state.json")), "type": 2}}})
	e.barrier()
	cli(t, root, `{"action":"update","id":4,"status":"in_progress"}`)
	e.waitDiags(u, "a second CLI change", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleInProgress) == 2 })
	e.waitFor("the second planls/stateChanged", func() bool { return e.countLocked("planls/stateChanged")-before >= 2 })
	e.barrier()
	if n := len(e.notesOf("planls/stateChanged")) - before; n != 2 {
		t.Errorf("two CLI changes gave %d planls/stateChanged, want 2", n)
	}
}

// waitWatched waits until fsnotify watches exactly dirs. The change follows
// the client's answer to registerCapability, on the server's goroutine, so
// each check is a round trip to the server rather than a sleep.
func waitWatched(t *testing.T, e *env, dirs ...string) {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for {
		var got []string
		srv := serverOf(t, e)
		srv.mu.Lock()
		if w := srv.watcher; w != nil {
			for d := range w.dirs {
				got = append(got, d)
			}
		}
		srv.mu.Unlock()
		slices.Sort(got)
		if slices.Equal(got, dirs) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("fsnotify watches %q, want %q", got, dirs)
		}
		e.barrier()
	}
}

// A save that renames PLAN.md away and writes a new file a
// little later (empty at first) is no change at all when the bytes come back
// the same: no empty list, no "plan missing", no item reported missing in
// between, no planls/stateChanged.
func TestPlanReplacedBySaveSettles(t *testing.T) {
	// A window far wider than the editor's gaps below, so a slow machine
	// stretching them cannot end it early.
	o := testOptions()
	o.planSettle = 5 * time.Second
	e, root, u := diskEnv(t, o)
	plan := filepath.Join(root, "PLAN.md")
	text, err := os.ReadFile(plan)
	if err != nil {
		t.Fatal(err)
	}
	e.mu.Lock()
	seen, notes := len(e.pubs), e.countLocked("planls/stateChanged")
	e.mu.Unlock()
	if err := os.Rename(plan, plan+"~"); err != nil {
		t.Fatal(err)
	}
	// The editor's gaps (input timing, not a wait for the server): far
	// longer than the debounce, within the settle window.
	time.Sleep(120 * time.Millisecond)
	writeFile(t, plan, "")
	time.Sleep(60 * time.Millisecond)
	writeFile(t, plan, string(text))
	if err := os.Remove(plan + "~"); err != nil {
		t.Fatal(err)
	}
	// A later real change shows the server has read past the save.
	cli(t, root, `{"action":"update","id":2,"status":"in_progress"}`)
	e.waitDiags(u, "the CLI change after the save", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleInProgress) == 1 })
	e.barrier()
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, p := range e.pubs[seen:] {
		if string(p.URI) != u {
			t.Errorf("publish for %s during the save", p.URI)
			continue
		}
		if n := countCode(p.Diagnostics, core.RuleOpen) + countCode(p.Diagnostics, core.RuleInProgress); n != 7 {
			t.Errorf("a publish during the save shows %d open items, want 7: %s", n, codes(p.Diagnostics))
		}
	}
	if changes := e.countLocked("planls/stateChanged") - notes; changes != 1 {
		t.Errorf("%d planls/stateChanged for the save and one CLI change, want 1 (the CLI's)", changes)
	}
}

// countLocked counts the notifications of method received so far (caller
// holds e.mu, as waitFor's conditions do).
func (e *env) countLocked(method string) int {
	n := 0
	for _, x := range e.notes {
		if x.method == method {
			n++
		}
	}
	return n
}

// waitRegistration waits for the server's client/registerCapability and
// returns its params.
func waitRegistration(e *env) string {
	e.t.Helper()
	var reg string
	e.waitFor("registerCapability", func() bool {
		for _, r := range e.reqs {
			if r.method == "client/registerCapability" {
				reg = string(r.params)
				return true
			}
		}
		return false
	})
	return reg
}

// A state file caught empty by a writer that is not atomic (a hand edit,
// git checkout: truncate, then write) is re-read after retryDelay; when by
// then it holds the same bytes again, nothing changed and nothing is
// announced. The retry used to force a re-read that counted as a change:
// one stray planls/stateChanged under load (TestOwnWritesIgnored saw 3).
func TestRetryOfSameBytesIsNoChange(t *testing.T) {
	opts := testOptions()
	opts.retryDelay = time.Hour // the test fires the retry itself
	e, root, _ := diskEnv(t, opts)
	before := len(e.notesOf("planls/stateChanged"))
	state := filepath.Join(root, ".planls", "state.json")
	raw, _ := os.ReadFile(state)
	writeFile(t, state, "") // the writer's truncate
	s := serverOf(t, e)
	s.mu.Lock()
	f := s.folders[0]
	s.mu.Unlock()
	// The empty read leaves no trace the client sees: poll the server.
	for deadline := time.Now().Add(waitTimeout); ; time.Sleep(time.Millisecond) {
		s.mu.Lock()
		read := f.badReads > 0
		s.mu.Unlock()
		if read {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the server never read the empty state file")
		}
	}
	writeFile(t, state, string(raw)) // ... and its write: the same bytes
	e.barrier()
	s.mu.Lock()
	f.stateOK = false // what the retry timer does
	s.reload(f, false)
	s.mu.Unlock()
	e.barrier()
	if n := len(e.notesOf("planls/stateChanged")) - before; n != 0 {
		t.Errorf("%d stateChanged for a state file that came back the same", n)
	}
}
