package store

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/planls/planls/core"
)

// A lost state.json with a journal is not the empty
// state: every reader and writer stops, and doctor --rebuild needs no
// --move-aside.
func TestMissingStateWithJournal(t *testing.T) {
	s := Open(t.TempDir(), "test")
	seed(t, s, 3)
	good := stateBytes(t, s)
	if err := os.Remove(s.StatePath()); err != nil {
		t.Fatal(err)
	}
	msg := "state.json is missing but journal.jsonl has 3 changes: run planls doctor --rebuild"
	isMissing := func(what string, err error) {
		t.Helper()
		var serr *StateError
		if !errors.As(err, &serr) || serr.Msg != msg || serr.Path != s.StatePath() {
			t.Errorf("%s: %v", what, err)
		}
	}
	_, err := s.Read()
	isMissing("Read", err)
	_, err = s.Check()
	isMissing("Check", err)
	_, err = s.Call(context.Background(), params(`{"action":"create","subject":"x"}`), core.Options{})
	isMissing("Call", err)
	_, err = s.update(context.Background(), "call", params(`{}`), fakeCreate("x"))
	isMissing("update", err)
	if err := os.WriteFile(filepath.Join(s.Root, "PLAN.md"), []byte("# P\n- a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = s.Approve(context.Background(), "PLAN.md", core.Options{}, ApproveOptions{})
	isMissing("Approve", err)
	if exists(s.StatePath()) {
		t.Fatal("a refused writer created the state file")
	}

	r, err := s.Doctor(context.Background(), false, false)
	if err != nil || r.StateErr == nil || !r.Missing || r.OK() {
		t.Fatalf("doctor: %+v %v", r, err)
	}
	if r.Notes[0] != "state: "+s.StatePath()+": "+msg {
		t.Errorf("first note %q", r.Notes[0])
	}
	r, err = s.Doctor(context.Background(), true, false)
	if err != nil || !r.Rebuilt || r.MovedAside != "" {
		t.Fatalf("rebuild: %+v %v", r, err)
	}
	if !bytes.Equal(stateBytes(t, s), good) {
		t.Error("rebuilt state differs")
	}

	// A journal line that cannot be read is nothing to rebuild from.
	s2 := Open(t.TempDir(), "test")
	if err := os.MkdirAll(s2.Dir(), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s2.JournalPath(), []byte("garbage\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if st, err := s2.Read(); err != nil || len(st.Tasks) != 0 {
		t.Errorf("unusable journal: %v", err)
	}
	_ = os.WriteFile(s2.JournalPath(), nil, 0o644)
	seed(t, s2, 1)
	_ = os.Remove(s2.StatePath())
	if _, err := s2.Read(); err == nil || !strings.HasSuffix(err.Error(), "journal.jsonl has 1 change: run planls doctor --rebuild") {
		t.Errorf("one change: %v", err)
	}
}

// After an older state.json is put back (git checkout) and kept
// (KeepState), the journal continues its numbering with a full snapshot,
// stays clean, and a rebuild gives the state file.
func TestRestoredOlderStateContinuesJournal(t *testing.T) {
	s := Open(t.TempDir(), "test")
	seed(t, s, 1)
	old := stateBytes(t, s)
	seed(t, s, 3) // revisions 2..4
	if err := os.WriteFile(s.StatePath(), old, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.KeepState(context.Background()); err != nil {
		t.Fatal(err)
	}
	res, err := s.update(context.Background(), "call", params(`{"action":"create"}`), fakeCreate("after restore"))
	if err != nil {
		t.Fatal(err)
	}
	if res.State.Revision != 6 {
		t.Errorf("revision %d, want 6", res.State.Revision)
	}
	seed(t, s, 1) // a plain diff on top
	entries, probs, err := ReadJournal(s.JournalPath())
	if err != nil || len(probs) > 0 || len(entries) != 7 {
		t.Fatalf("journal: %d entries, problems %v, %v", len(entries), probs, err)
	}
	if e := entries[4]; !e.Full || e.Revision != 5 || e.Base != 1 || e.Kind != kindKeepState {
		t.Errorf("entry 5: full %v revision %d base %d kind %q", e.Full, e.Revision, e.Base, e.Kind)
	}
	for i, want := range []int64{6, 7} {
		if e := entries[5+i]; e.Full || e.Revision != want || e.Base != want-1 {
			t.Errorf("entry %d: full %v revision %d base %d", want, e.Full, e.Revision, e.Base)
		}
	}
	got, _ := encodeState(Replay(entries))
	if !bytes.Equal(got, stateBytes(t, s)) {
		t.Errorf("replay differs from the state:\n%s", got)
	}
	r, err := s.Doctor(context.Background(), false, false)
	if err != nil || !r.OK() || r.Revision != 7 || r.JournalRevision != 7 {
		t.Fatalf("doctor: %+v %v", r, err)
	}
	if st := mustRead(t, s); len(st.Tasks) != 3 {
		t.Errorf("%d tasks, want the restored one and two new", len(st.Tasks))
	}
}

// A journal whose last line is damaged still bounds the next revision.
func TestNextRevisionPastDamagedTail(t *testing.T) {
	s := Open(t.TempDir(), "test")
	seed(t, s, 3)
	f, err := os.OpenFile(s.JournalPath(), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.WriteString(`{"revision": oops`)
	_ = f.Close()
	if got := s.nextRevision(1, lastRevision(s.JournalPath())); got != 4 {
		t.Errorf("nextRevision(1) = %d, want 4", got)
	}
	if got := s.nextRevision(7, lastRevision(s.JournalPath())); got != 8 {
		t.Errorf("nextRevision(7) = %d, want 8", got)
	}
}

func TestLastBase(t *testing.T) {
	plain, full := JournalEntry{}, JournalEntry{Full: true}
	for _, tc := range []struct {
		in   []JournalEntry
		want int
	}{
		{nil, 0},
		{[]JournalEntry{plain, plain}, 0},
		{[]JournalEntry{full, plain}, 0},
		{[]JournalEntry{plain, full, plain, full, plain}, 3},
		{[]JournalEntry{plain, plain, full}, 2},
	} {
		if got := lastBase(tc.in); got != tc.want {
			t.Errorf("lastBase(%v) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

// A journal forked by an older planls (a revision written twice) is clean
// for doctor once a full snapshot follows the fork, and rebuilds from it.
func TestDoctorForgivesDamageBeforeBase(t *testing.T) {
	s := Open(t.TempDir(), "test")
	seed(t, s, 1)
	old := stateBytes(t, s)
	seed(t, s, 1)
	j, err := os.ReadFile(s.JournalPath())
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(j), "\n")
	if err := os.WriteFile(s.JournalPath(), []byte(string(j)+lines[1]), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := s.Doctor(context.Background(), false, false)
	if err != nil || r.OK() || len(r.JournalProblems) != 1 || r.JournalProblems[0].Line != 3 {
		t.Fatalf("forked: %+v %v", r, err)
	}
	if err := os.WriteFile(s.StatePath(), old, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.KeepState(context.Background()); err != nil { // revision 3, a full snapshot on line 4
		t.Fatal(err)
	}
	r, err = s.Doctor(context.Background(), false, false)
	if err != nil || !r.OK() {
		t.Fatalf("after the snapshot: %+v %v", r, err)
	}
	want := "journal line 3: revision 2 does not follow revision 2; ignored (before the full snapshot on line 4, where a rebuild starts; harmless)"
	if !slices.Contains(r.Notes, want) {
		t.Errorf("notes %q", r.Notes)
	}
	good := stateBytes(t, s)
	_ = os.Remove(s.StatePath())
	if r, err := s.Doctor(context.Background(), true, false); err != nil || !r.Rebuilt || !bytes.Equal(stateBytes(t, s), good) {
		t.Errorf("rebuild: %+v %v", r, err)
	}
}

// Closed tasks without their proof load, with a warning.
func TestCheckClosedWithoutProof(t *testing.T) {
	s := Open(t.TempDir(), "test")
	if err := os.MkdirAll(s.Dir(), 0o755); err != nil {
		t.Fatal(err)
	}
	state := `{"version":1,"revision":2,"nextId":5,"tasks":[
{"id":1,"subject":"a","status":"completed","version":1,"createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:00:00Z"},
{"id":2,"subject":"b","status":"deferred","reason":"  ","version":1,"createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:00:00Z"},
{"id":3,"subject":"c","status":"completed","evidence":"ok","version":1,"createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:00:00Z"},
{"id":4,"subject":"d","status":"deleted","version":1,"createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:00:00Z"}]}`
	if err := os.WriteFile(s.StatePath(), []byte(state), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := s.Check()
	want := "#1 is completed without evidence\n#2 is deferred without a reason"
	if err != nil || strings.Join(w, "\n") != want {
		t.Errorf("warnings %q, %v", w, err)
	}
	r, err := s.Doctor(context.Background(), false, false)
	if err != nil || r.OK() || strings.Join(r.Warnings, "\n") != want {
		t.Errorf("doctor warnings %q, %v", r.Warnings, err)
	}
}

// An unedited .gitignore of an earlier version learns the moved-aside files;
// doctor --move-aside's files are ignored.
func TestGitignoreUpgrade(t *testing.T) {
	s := Open(t.TempDir(), "test")
	gi := filepath.Join(s.Dir(), ".gitignore")
	if err := os.MkdirAll(s.Dir(), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(gi, []byte(gitignoreV1), 0o644); err != nil {
		t.Fatal(err)
	}
	seed(t, s, 1)
	b, _ := os.ReadFile(gi)
	if string(b) != gitignoreBody || !strings.Contains(string(b), "\nstate.json.corrupt-*\n") {
		t.Errorf(".gitignore %q", b)
	}
}
