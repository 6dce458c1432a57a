package store

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDoctorHealthy(t *testing.T) {
	s := Open(t.TempDir(), "test")
	seed(t, s, 3)
	r, err := s.Doctor(context.Background(), false, false)
	if err != nil || !r.OK() {
		t.Fatalf("report %+v, err %v", r, err)
	}
	want := []string{"state: ok, revision 3, 3 tasks", "journal: 3 entries, last revision 3"}
	if strings.Join(r.Notes, "\n") != strings.Join(want, "\n") {
		t.Errorf("notes %q", r.Notes)
	}
	r, err = s.Doctor(context.Background(), true, false)
	if err != nil || r.Rebuilt {
		t.Fatalf("rebuild of a matching state: rebuilt=%v err=%v", r.Rebuilt, err)
	}
	if got := r.Notes[len(r.Notes)-1]; got != "the state file matches the journal (revision 3); nothing to rebuild" {
		t.Errorf("last note %q", got)
	}
}

// A damaged file is reported, kept by --rebuild alone, and moved aside
// (never deleted) only with --move-aside; the rebuilt state equals the state
// before the damage.
func TestDoctorRebuildsDamagedState(t *testing.T) {
	s := Open(t.TempDir(), "test")
	seed(t, s, 3)
	seed(t, s, 0)
	good := stateBytes(t, s)
	damaged := good[:len(good)/2]
	if err := os.WriteFile(s.StatePath(), damaged, 0o644); err != nil {
		t.Fatal(err)
	}

	r, err := s.Doctor(context.Background(), false, false)
	var serr *StateError
	if err != nil || !errors.As(r.StateErr, &serr) || r.OK() {
		t.Fatalf("check: report %+v err %v", r, err)
	}

	_, err = s.Doctor(context.Background(), true, false)
	wantErr := ".planls/state.json is damaged; add --move-aside to keep it as .planls/state.json.corrupt-<time> and write the state rebuilt from the journal"
	if err == nil || err.Error() != wantErr {
		t.Fatalf("rebuild without --move-aside: %v", err)
	}
	if !bytes.Equal(stateBytes(t, s), damaged) {
		t.Fatal("the damaged file was touched")
	}

	r, err = s.Doctor(context.Background(), true, true)
	if err != nil || !r.Rebuilt || r.MovedAside == "" {
		t.Fatalf("rebuild: %+v %v", r, err)
	}
	if !strings.HasPrefix(filepath.Base(r.MovedAside), "state.json.corrupt-") {
		t.Errorf("moved aside to %s", r.MovedAside)
	}
	if kept, _ := os.ReadFile(r.MovedAside); !bytes.Equal(kept, damaged) {
		t.Error("the moved-aside file lost its content")
	}
	if !bytes.Equal(stateBytes(t, s), good) {
		t.Errorf("rebuilt\n%s\nwant\n%s", stateBytes(t, s), good)
	}
	// Writes work again and continue the revisions.
	seed(t, s, 1)
	if st := mustRead(t, s); st.Revision != 4 {
		t.Errorf("revision after repair %d", st.Revision)
	}
}

func TestDoctorRebuildsMissingState(t *testing.T) {
	s := Open(t.TempDir(), "test")
	seed(t, s, 2)
	good := stateBytes(t, s)
	os.Remove(s.StatePath())
	r, err := s.Doctor(context.Background(), true, false)
	if err != nil || !r.Rebuilt || r.MovedAside != "" {
		t.Fatalf("%+v %v", r, err)
	}
	if !bytes.Equal(stateBytes(t, s), good) {
		t.Error("rebuilt state differs")
	}
}

func TestDoctorMoveAsideOnly(t *testing.T) {
	s := Open(t.TempDir(), "test")
	seed(t, s, 1)
	// A usable state is never moved.
	r, err := s.Doctor(context.Background(), false, true)
	if err != nil || r.MovedAside != "" {
		t.Fatalf("moved a usable state: %+v %v", r, err)
	}
	os.WriteFile(s.StatePath(), []byte("<<<<<<< HEAD\n"), 0o644)
	r, err = s.Doctor(context.Background(), false, true)
	if err != nil || r.MovedAside == "" {
		t.Fatalf("%+v %v", r, err)
	}
	if _, err := os.Stat(s.StatePath()); !os.IsNotExist(err) {
		t.Error("state still there")
	}
}

func TestDoctorWithoutJournal(t *testing.T) {
	s := Open(t.TempDir(), "test")
	if _, err := s.Doctor(context.Background(), true, true); err == nil || err.Error() != "the journal has no entries: nothing to rebuild from" {
		t.Fatalf("err %v", err)
	}
}
