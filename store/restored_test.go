package store

import (
	"bytes"
	"context"
	"errors"
	"os"
	"slices"
	"testing"
)

// An older state.json put back next to a longer journal is a warning for
// Check (status) and Doctor (exit 1); a write is refused with nothing
// written until KeepState journals the older copy as the state.
func TestRestoredStateWarns(t *testing.T) {
	s := Open(t.TempDir(), "test")
	seed(t, s, 2)
	old := stateBytes(t, s)
	seed(t, s, 3)
	const want = "state.json is at revision 2 but the journal records 5 changes: it was restored from an older copy; planls doctor --rebuild --move-aside brings back the journal's state, planls doctor --keep-state keeps this copy"

	if w, err := s.Check(); err != nil || len(w) != 0 {
		t.Fatalf("before the restore: warnings %q, err %v", w, err)
	}
	if err := os.WriteFile(s.StatePath(), old, 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := s.Check()
	if err != nil || !slices.Equal(w, []string{want}) {
		t.Errorf("Check = %q, %v; want [%q]", w, err, want)
	}
	r, err := s.Doctor(context.Background(), false, false)
	if err != nil {
		t.Fatal(err)
	}
	if r.OK() || !slices.Equal(r.Warnings, []string{want}) || !slices.Contains(r.Notes, "warning: "+want) {
		t.Errorf("Doctor: ok=%v warnings %q notes %q", r.OK(), r.Warnings, r.Notes)
	}

	// A write would drop revisions 3-5 from the state: refused.
	journal, _ := os.ReadFile(s.JournalPath())
	_, err = s.update(context.Background(), "call", params(`{"action":"create"}`), fakeCreate("forked"))
	var rerr *RestoredError
	if !errors.As(err, &rerr) || rerr.State != 2 || rerr.Journal != 5 {
		t.Fatalf("write on a restored state: err %v, want a *RestoredError 2/5", err)
	}
	const refusal = "state.json is at revision 2 but the journal records 5 changes: it was restored from an older copy, and a change now would drop the journal's newer ones; nothing written: planls doctor --rebuild --move-aside brings back the journal's state, planls doctor --keep-state keeps this copy"
	if err.Error() != refusal {
		t.Errorf("refusal %q, want %q", err, refusal)
	}
	if !bytes.Equal(stateBytes(t, s), old) {
		t.Error("the refused write changed state.json")
	}
	if now, _ := os.ReadFile(s.JournalPath()); !bytes.Equal(now, journal) {
		t.Error("the refused write changed the journal")
	}

	// Keeping the copy journals it after the journal's last revision; then
	// writes go on from it and a rebuild gives it back.
	note, err := s.KeepState(context.Background())
	if err != nil || note != "kept .planls/state.json at revision 2 as revision 6 (the journal's revisions 3-5 stay in it, before this snapshot)" {
		t.Fatalf("KeepState = %q, %v", note, err)
	}
	seed(t, s, 1)
	if w, err := s.Check(); err != nil || len(w) != 0 {
		t.Errorf("after keeping it and a write: warnings %q, err %v", w, err)
	}
	if r, err := s.Doctor(context.Background(), false, false); err != nil || !r.OK() {
		t.Errorf("after keeping it and a write: doctor %+v, %v", r, err)
	}
	st, err := s.Read()
	if err != nil || st.Revision != 7 || len(st.Tasks) != 3 {
		t.Fatalf("after keeping it and a write: %+v, %v", st, err)
	}
	kept := stateBytes(t, s)
	if err := os.Remove(s.StatePath()); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Doctor(context.Background(), true, false); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(stateBytes(t, s), kept) {
		t.Error("the rebuild does not give the kept state back")
	}
}

func TestRestoredWarningBounds(t *testing.T) {
	for _, tc := range []struct {
		state, journal int64
		warn           bool
	}{
		{3, 3, false}, {4, 3, false}, {3, -1, false}, {0, 0, false}, {2, 3, true},
	} {
		if got := restoredWarning(tc.state, tc.journal) != ""; got != tc.warn {
			t.Errorf("restoredWarning(%d, %d) warns %v, want %v", tc.state, tc.journal, got, tc.warn)
		}
	}
}
