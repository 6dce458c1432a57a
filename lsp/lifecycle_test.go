package lsp

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/planls/planls/core"
	"github.com/planls/planls/store"
)

// A watcher registration the client refuses only after shutdown starts no
// file watcher (no fallback to fsnotify), and once the session has ended
// nothing of it is left running.
func TestRegistrationRefusedAtShutdownLeavesNoWatcher(t *testing.T) {
	root, _ := workspace(t, basicPlan(t))
	cliApprove(t, root)
	release := make(chan struct{})
	e := newEnv(t, envConfig{noInit: true, opts: testOptions()})
	e.answer = func(method string, _ json.RawMessage) (any, error) {
		if method == "client/registerCapability" {
			<-release
			return nil, errors.New("refused")
		}
		return nil, nil
	}
	e.initialize(envConfig{folders: []string{root}, caps: map[string]any{
		"workspace": map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}}}})
	e.waitFor("the registration request", func() bool {
		for _, r := range e.reqs {
			if r.method == "client/registerCapability" {
				return true
			}
		}
		return false
	})
	s := serverOf(t, e)
	if err := e.tryCall("shutdown", nil, nil); err != nil {
		t.Fatal(err)
	}
	close(release)
	if s.watcherOrNil() != nil {
		t.Error("a file watcher is running after shutdown")
	}
	s.mu.Lock()
	s.startFSWatch() // what a late refusal falls back to
	started := s.watcher != nil
	s.mu.Unlock()
	if started {
		t.Error("startFSWatch started a watcher after shutdown")
	}
	e.notify("exit", nil)
	select {
	case err := <-e.done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(waitTimeout):
		t.Fatal("server did not exit")
	}
	if s.watcherOrNil() != nil {
		t.Error("a file watcher outlived the session")
	}
}

// A command waiting on the store's lock (another process holds it) does
// not hold up the session: other requests are answered meanwhile, and the
// command completes once the lock is free.
func TestCommandWaitingOnTheLockDoesNotBlock(t *testing.T) {
	root, plan := workspace(t, basicPlan(t))
	cliApprove(t, root)
	e := newEnv(t, envConfig{folders: []string{root}})
	u := uriOf(plan)
	e.waitDiags(u, "open", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleOpen) == 7 })
	unlock, err := store.Open(root, "test").Lock(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := e.exec("planls.start", map[string]any{"id": 1})
		done <- err
	}()
	e.barrier()
	if h := e.hoverAt(u, 7, 3); h == "" {
		t.Error("no hover while a command waits on the lock")
	}
	select {
	case err := <-done:
		t.Fatalf("the command finished while the lock was held: %v", err)
	default:
	}
	if err := unlock(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(waitTimeout):
		t.Fatal("the command did not finish once the lock was free")
	}
	e.waitDiags(u, "in progress", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleInProgress) == 1 })
}

// $/cancelRequest of a command waiting on the lock answers RequestCancelled
// and changes nothing.
func TestCancelWhileWaitingOnTheLock(t *testing.T) {
	root, plan := workspace(t, basicPlan(t))
	cliApprove(t, root)
	unlock, err := store.Open(root, "test").Lock(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	r := newRaw(t)
	r.send("", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"`+uriOf(root)+`","capabilities":{}}}`)
	r.reply(1)
	r.send("", `{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	r.send("", `{"jsonrpc":"2.0","id":2,"method":"workspace/executeCommand","params":{"command":"planls.start","arguments":[{"id":1,"uri":"`+uriOf(plan)+`"}]}}`)
	r.send("", `{"jsonrpc":"2.0","id":3,"method":"workspace/symbol","params":{"query":"none"}}`)
	r.reply(3) // the worker is free: the command runs on its own
	r.send("", `{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":2}}`)
	if m := r.reply(2); errCode(m) != float64(protocol.CodeRequestCancelled) {
		t.Errorf("reply %v, want RequestCancelled", m)
	}
	if findTask(readState(t, root), 1).Status != "pending" {
		t.Error("a cancelled command changed the item")
	}
}

// Editing a markdown file that is not the plan reads nothing from disk: a
// state change the server was not told about stays unseen until a save or
// a file event.
func TestNonPlanChangeReadsNothing(t *testing.T) {
	root, plan := workspace(t, basicPlan(t))
	cliApprove(t, root)
	notes := filepath.Join(root, "NOTES.md")
	writeFile(t, notes, "# notes\n")
	opts := testOptions()
	opts.noFSWatch = true
	e := newEnv(t, envConfig{folders: []string{root}, opts: opts})
	u := e.open(plan, basicPlan(t))
	e.waitDiags(u, "open", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleOpen) == 7 })
	nu := e.open(notes, "# notes\n")
	e.barrier() // opening re-reads the folder: before the state changes, not after
	cli(t, root, `{"action":"update","id":1,"status":"in_progress"}`)
	e.change(nu, 2, "# notes\n\nmore\n")
	e.barrier()
	if d, _ := e.lastDiags(u); countCode(d, core.RuleInProgress) != 0 {
		t.Error("a didChange of NOTES.md re-read the state")
	}
	e.notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": nu}})
	e.waitDiags(u, "in progress after a save", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleInProgress) == 1 })
}
