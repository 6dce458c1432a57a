package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/planls/planls/core"
)

func TestCommitWritesStateJournalAndGitignore(t *testing.T) {
	s := Open(t.TempDir(), "test")
	res, err := s.update(context.Background(), "call", params("{\n  \"action\": \"create\"\n}"), fakeCreate("a <b>"))
	if err != nil {
		t.Fatal(err)
	}
	if res.State.Revision != 1 || res.Envelope.Text() != "Created #1: a <b> (pending)" {
		t.Fatalf("result revision %d text %q", res.State.Revision, res.Envelope.Text())
	}
	if _, err := s.update(context.Background(), "call", params(`{"action":"create"}`), fakeCreate("b")); err != nil {
		t.Fatal(err)
	}
	st := mustRead(t, s)
	if st.Revision != 2 || len(st.Tasks) != 2 || st.NextID != 3 {
		t.Fatalf("state revision %d tasks %d nextId %d", st.Revision, len(st.Tasks), st.NextID)
	}
	data := stateBytes(t, s)
	want, _ := encodeState(st)
	if !bytes.Equal(data, want) {
		t.Errorf("state file is not in the canonical encoding:\n%s", data)
	}
	if bytes.HasPrefix(data, []byte("\xEF\xBB\xBF")) || !bytes.HasSuffix(data, []byte("}\n")) || !bytes.Contains(data, []byte("\n  \"tasks\": [\n    {\n      \"id\": 1,")) || !bytes.Contains(data, []byte(`"a <b>"`)) {
		t.Errorf("state file layout:\n%s", data)
	}
	gi, err := os.ReadFile(filepath.Join(s.Dir(), ".gitignore"))
	if err != nil || string(gi) != gitignoreBody {
		t.Errorf(".gitignore = %q, %v", gi, err)
	}
	if b, err := os.ReadFile(s.LockPath()); err != nil || len(b) != 0 {
		t.Errorf("lock file after release = %q, %v (want empty: no holder)", b, err)
	}
	journal, err := os.ReadFile(s.JournalPath())
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(journal), "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("journal has %d lines:\n%s", len(lines), journal)
	}
	// The task's identity is given at this first write (16 hex digits).
	if !strings.HasPrefix(lines[0], `{"revision":1,"base":0,"time":"`) || !strings.Contains(lines[0], `"actor":"test","kind":"call","params":{"action":"create"},"result":"Created #1: a <b> (pending)","head":{"version":1,"revision":1,"nextId":2},"tasks":[{"id":1,"uid":"`) ||
		!regexp.MustCompile(`"tasks":\[\{"id":1,"uid":"[0-9a-f]{16}","subject":"a <b>"`).MatchString(lines[0]) {
		t.Errorf("journal line 1: %s", lines[0])
	}
	entries, probs, err := ReadJournal(s.JournalPath())
	if err != nil || len(probs) != 0 || len(entries) != 2 {
		t.Fatalf("ReadJournal: %d entries, problems %v, err %v", len(entries), probs, err)
	}
	if len(entries[1].Tasks) != 1 || entries[1].Tasks[0].ID != 2 {
		t.Errorf("entry 2 should carry only the changed task: %+v", entries[1].Tasks)
	}
	rebuilt, _ := encodeState(Replay(entries))
	if !bytes.Equal(rebuilt, data) {
		t.Errorf("replayed journal\n%s\ndiffers from state\n%s", rebuilt, data)
	}
}

// Reads, no-ops and rejections create nothing: read-only commands never
// create .planls/.
func TestNoChangeCreatesNothing(t *testing.T) {
	root := t.TempDir()
	s := Open(root, "test")
	res, err := s.update(context.Background(), "call", params(`{"action":"list"}`), noChange)
	if err != nil || res.Envelope.Text() != "No tasks" {
		t.Fatalf("%q %v", res.Envelope.Text(), err)
	}
	if _, err := os.Stat(filepath.Join(root, DirName)); !os.IsNotExist(err) {
		t.Errorf("a no-op created %s", DirName)
	}
}

// A state file that does not parse is reported and never
// overwritten, and nothing is journaled.
func TestBadStateIsNeverOverwritten(t *testing.T) {
	for name, content := range map[string]string{
		"empty":     "",
		"truncated": `{"version":1,"tasks":[{"id":1,"sub`,
		"conflict":  "{\"tasks\":[\n<<<<<<< HEAD\n]}\n",
		"utf16":     "\xFF\xFE{\x00}\x00",
	} {
		t.Run(name, func(t *testing.T) {
			s := Open(t.TempDir(), "test")
			if err := os.MkdirAll(s.Dir(), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(s.StatePath(), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := s.update(context.Background(), "call", params(`{"action":"create"}`), fakeCreate("x"))
			var serr *StateError
			if !errors.As(err, &serr) {
				t.Fatalf("error %v, want *StateError", err)
			}
			if got := stateBytes(t, s); string(got) != content {
				t.Errorf("state file changed to %q", got)
			}
			if _, err := os.Stat(s.JournalPath()); !os.IsNotExist(err) {
				t.Errorf("journal written for a refused change")
			}
		})
	}
}

// Writers in one process, each with its own Store (its own lock file
// descriptor), lose nothing.
func TestConcurrentWritersLoseNothing(t *testing.T) {
	root := t.TempDir()
	const writers, each = 8, 15
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := Open(root, fmt.Sprintf("w%d", w))
			// What is tested is that no write is lost, not how long a
			// writer waits: with 8 writers queued on one lock, a loaded
			// machine (or Wine, where every fsync is slow) can keep one
			// waiting past the default timeout.
			s.LockTimeout = 5 * time.Minute
			for i := 0; i < each; i++ {
				if _, err := s.update(context.Background(), "call", params(`{}`), fakeCreate(fmt.Sprintf("w%d-%d", w, i))); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	s := Open(root, "check")
	st := mustRead(t, s)
	if st.Revision != writers*each || len(st.Tasks) != writers*each || st.NextID != writers*each+1 {
		t.Fatalf("revision %d, %d tasks, nextId %d; want %d", st.Revision, len(st.Tasks), st.NextID, writers*each)
	}
	seen := map[string]bool{}
	for i, task := range st.Tasks {
		if task.ID != i+1 {
			t.Fatalf("task %d has id %d", i, task.ID)
		}
		seen[task.Subject] = true
	}
	if len(seen) != writers*each {
		t.Errorf("%d distinct subjects, want %d", len(seen), writers*each)
	}
	entries, probs, err := ReadJournal(s.JournalPath())
	if err != nil || len(probs) > 0 || len(entries) != writers*each {
		t.Fatalf("journal: %d entries, %v, %v", len(entries), probs, err)
	}
	for i, e := range entries {
		if e.Revision != int64(i+1) || e.Base != int64(i) || e.Full {
			t.Fatalf("entry %d: revision %d base %d full %v", i, e.Revision, e.Base, e.Full)
		}
	}
	a, _ := encodeState(Replay(entries))
	if !bytes.Equal(a, stateBytes(t, s)) {
		t.Error("replayed journal differs from the state")
	}
}

func TestLockTimeoutNamesHolder(t *testing.T) {
	root := t.TempDir()
	holder := Open(root, "holder")
	release, err := holder.Lock(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	s := Open(root, "waiter")
	s.LockTimeout = 150 * time.Millisecond
	start := time.Now()
	_, err = s.update(context.Background(), "call", params(`{}`), fakeCreate("x"))
	var lerr *LockTimeoutError
	if !errors.As(err, &lerr) {
		t.Fatalf("error %v, want *LockTimeoutError", err)
	}
	if waited := time.Since(start); waited > 5*time.Second {
		t.Errorf("waited %s for a 150ms timeout", waited)
	}
	host, _ := os.Hostname()
	wantHolder := fmt.Sprintf("pid %d, actor holder, host %s, since ", os.Getpid(), host)
	if !strings.HasPrefix(lerr.Holder, wantHolder) {
		t.Errorf("holder %q, want prefix %q", lerr.Holder, wantHolder)
	}
	wantMsg := s.LockPath() + ": the state is locked by " + lerr.Holder + "; gave up after 150ms (the lock is released when that process ends; set PLANLS_LOCK_TIMEOUT to wait longer)"
	if err.Error() != wantMsg {
		t.Errorf("message\n got: %s\nwant: %s", err, wantMsg)
	}
	if err := release(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.update(context.Background(), "call", params(`{}`), fakeCreate("x")); err != nil {
		t.Fatalf("after release: %v", err)
	}
}

// A lock file left behind (empty, an hour old) by a dead holder never
// blocks a writer: the OS lock died with its process.
func TestStaleLockFileDoesNotBlock(t *testing.T) {
	s := Open(t.TempDir(), "test")
	s.LockTimeout = 500 * time.Millisecond
	if err := os.MkdirAll(s.Dir(), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.LockPath(), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(s.LockPath(), old, old); err != nil {
		t.Fatal(err)
	}
	if _, err := s.update(context.Background(), "call", params(`{}`), fakeCreate("x")); err != nil {
		t.Fatal(err)
	}
	if st := mustRead(t, s); st.Revision != 1 {
		t.Errorf("revision %d", st.Revision)
	}
}

// A writer killed between the rename and the journal append leaves the
// journal one revision behind; the next commit journals a full snapshot so
// the journal still rebuilds the state.
func TestJournalCatchesUpWithFullSnapshot(t *testing.T) {
	s := Open(t.TempDir(), "test")
	seed(t, s, 2)
	// Simulate the crash: a commit whose journal line never made it.
	st := mustRead(t, s)
	next := fakeCreate("lost line")(st).State
	next.Revision = st.Revision + 1
	data, _ := encodeState(next)
	if err := WriteFile(s.StatePath(), data); err != nil {
		t.Fatal(err)
	}
	// And a torn half line at the end of the journal.
	f, err := os.OpenFile(s.JournalPath(), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"revision":3,"ba`)
	f.Close()

	if _, err := s.update(context.Background(), "call", params(`{}`), fakeBump(1)); err != nil {
		t.Fatal(err)
	}
	entries, probs, err := ReadJournal(s.JournalPath())
	if err != nil {
		t.Fatal(err)
	}
	if len(probs) != 1 || probs[0].Line != 3 {
		t.Errorf("problems %+v, want the torn line 3", probs)
	}
	last := entries[len(entries)-1]
	if !last.Full || last.Revision != 4 || last.Base != 3 || len(last.Tasks) != 3 {
		t.Errorf("last entry full=%v revision=%d base=%d tasks=%d", last.Full, last.Revision, last.Base, len(last.Tasks))
	}
	a, _ := encodeState(Replay(entries))
	if !bytes.Equal(a, stateBytes(t, s)) {
		t.Errorf("replay\n%s\nstate\n%s", a, stateBytes(t, s))
	}
}

// A temp file a killed writer left behind is removed by the first commit of
// the next Store (the next process), and never read as the state.
func TestLeftoverTempFileRemoved(t *testing.T) {
	s := Open(t.TempDir(), "test")
	seed(t, s, 1)
	left := filepath.Join(s.Dir(), "."+StateName+"8127364")
	if err := os.WriteFile(left, []byte(`{"half`), 0o644); err != nil {
		t.Fatal(err)
	}
	seed(t, s, 1)
	if st := mustRead(t, s); st.Revision != 2 {
		t.Errorf("revision %d after two commits", st.Revision)
	}
	seed(t, Open(s.Root, "next"), 1)
	if _, err := os.Stat(left); !os.IsNotExist(err) {
		t.Errorf("temp file still there: %v", err)
	}
}

// Every top-level field (plan, nextId, the last delete_all, idempotency keys)
// survives a journal replay, not only the tasks.
func TestReplayKeepsTopLevelFields(t *testing.T) {
	s := Open(t.TempDir(), "test")
	seed(t, s, 2)
	_, err := s.update(context.Background(), "call", params(`{}`), func(st *core.State) core.Result {
		next := *st
		next.Plan = &core.PlanRef{ID: "sha256:ab", Title: `a "plan" with ,"tasks":null`, Path: "PLAN.md", ApprovedAt: fixedTime}
		next.LastDeleteAll = []int{1, 2}
		next.Mutations = []core.MutationKey{{Key: "k1", Action: "create", Text: "Created #1", IDs: []int{1}, At: fixedTime}}
		next.Tasks = slices.DeleteFunc(slices.Clone(st.Tasks), func(t core.Task) bool { return t.ID == 1 })
		return core.Result{State: &next, Changed: true, Envelope: textEnvelope("changed")}
	})
	if err != nil {
		t.Fatal(err)
	}
	seed(t, s, 1)
	entries, probs, err := ReadJournal(s.JournalPath())
	if err != nil || len(probs) > 0 {
		t.Fatal(probs, err)
	}
	if got := entries[2].Removed; len(got) != 1 || got[0] != 1 {
		t.Errorf("removed %v", got)
	}
	if entries[3].Mutations != nil {
		t.Errorf("unchanged idempotency keys journaled again")
	}
	a, _ := encodeState(Replay(entries))
	if !bytes.Equal(a, stateBytes(t, s)) {
		t.Errorf("replay\n%s\nstate\n%s", a, stateBytes(t, s))
	}
}
