package store

import (
	"context"
	"os"
	"slices"
	"testing"
)

// An older state.json put back next to a longer journal is a warning for
// Check (status) and Doctor (exit 1), and writes stay allowed.
func TestRestoredStateWarns(t *testing.T) {
	s := Open(t.TempDir(), "test")
	seed(t, s, 2)
	old := stateBytes(t, s)
	seed(t, s, 3)
	const want = "state.json is at revision 2 but the journal records 5 changes: it was restored from an older copy; planls doctor --rebuild brings back the journal's state"

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

	// Writing continues after the journal's last revision, which clears it.
	seed(t, s, 1)
	if w, err := s.Check(); err != nil || len(w) != 0 {
		t.Errorf("after a write: warnings %q, err %v", w, err)
	}
	if r, err := s.Doctor(context.Background(), false, false); err != nil || !r.OK() {
		t.Errorf("after a write: doctor %+v, %v", r, err)
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
