package store

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/planls/planls/core"
)

// branchStores are a store with two tasks and two copies of its .planls
// (the branches), each changed by real todo calls.
func branchStores(t *testing.T, ours, theirs []string) (base, a, b *Store) {
	t.Helper()
	ctx := context.Background()
	base = Open(t.TempDir(), "test")
	for _, p := range []string{`{"action":"create","subject":"one"}`, `{"action":"create","subject":"two"}`} {
		if _, err := base.Call(ctx, params(p), core.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	branch := func(calls []string) *Store {
		s := Open(t.TempDir(), "test")
		if err := os.MkdirAll(s.Dir(), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{StateName, JournalName} {
			data, err := os.ReadFile(filepath.Join(base.Dir(), name))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(s.Dir(), name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		for _, p := range calls {
			res, err := s.Call(ctx, params(p), core.Options{})
			if err != nil || res.Envelope.IsError() {
				t.Fatalf("%s: %v %s", p, err, res.Envelope.Text())
			}
		}
		return s
	}
	return base, branch(ours), branch(theirs)
}

func files(t *testing.T, s *Store) (state, journal []byte) {
	t.Helper()
	st, err := os.ReadFile(s.StatePath())
	if err != nil {
		t.Fatal(err)
	}
	j, err := os.ReadFile(s.JournalPath())
	if err != nil {
		t.Fatal(err)
	}
	return st, j
}

// The two drivers run separately (git merges file by file) yet must agree:
// the journal's merge entry is exactly the merged state file, so doctor is
// clean and the journal replays to the state.
func TestMergeFilesAgree(t *testing.T) {
	base, a, b := branchStores(t,
		[]string{`{"action":"update","id":1,"status":"completed","evidence":"a ok"}`, `{"action":"create","subject":"a new"}`},
		[]string{`{"action":"update","id":2,"status":"completed","evidence":"b ok"}`, `{"action":"create","subject":"b new"}`, `{"action":"create","subject":"b newer","blockedBy":[3]}`})
	bs, bj := files(t, base)
	as, aj := files(t, a)
	ts, tj := files(t, b)
	sm, err := MergeStateFiles(relState(), bs, as, ts, nil)
	if err != nil {
		t.Fatal(err)
	}
	jm, err := MergeJournalFiles(bj, aj, tj, nil, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	out := Open(t.TempDir(), "test")
	if err := os.MkdirAll(out.Dir(), 0o755); err != nil {
		t.Fatal(err)
	}
	_ = os.WriteFile(out.StatePath(), sm.Data, 0o644)
	_ = os.WriteFile(out.JournalPath(), jm.Data, 0o644)
	r, err := out.Doctor(false, false)
	if err != nil || !r.OK() {
		t.Fatalf("doctor: %+v %v", r.Notes, err)
	}
	entries, probs, _ := ReadJournal(out.JournalPath())
	if len(probs) > 0 {
		t.Errorf("journal problems %v", probs)
	}
	replayed, _ := encodeState(Replay(entries))
	if !bytes.Equal(replayed, sm.Data) {
		t.Errorf("replay\n%s\nstate\n%s", replayed, sm.Data)
	}
	st := mustRead(t, out)
	subjects := map[int]string{}
	for _, k := range st.Tasks {
		subjects[k.ID] = k.Subject
	}
	want := map[int]string{1: "one", 2: "two", 3: "a new", 4: "b newer", 5: "b new"}
	if len(subjects) != len(want) {
		t.Errorf("tasks %v", subjects)
	}
	for id, s := range want {
		if subjects[id] != s {
			t.Errorf("#%d = %q, want %q (all: %v)", id, subjects[id], s, subjects)
		}
	}
	if k := st.Tasks[3]; len(k.BlockedBy) != 1 || k.BlockedBy[0] != 5 {
		t.Errorf("theirs's #3 → #5 in #4's blockedBy: %+v", k)
	}
	// Every line of both branches is in the merged journal; the last is the merge.
	lines := strings.Split(strings.TrimSpace(string(jm.Data)), "\n")
	if n := len(strings.Split(strings.TrimSpace(string(aj)), "\n")) + 3 + 1; len(lines) != n {
		t.Errorf("%d journal lines, want %d", len(lines), n)
	}
	var last JournalEntry
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil || last.Kind != kindMerge || !last.Full {
		t.Fatalf("last entry %+v %v", last, err)
	}
	if mp, _ := last.merge(); mp.Renumbered["3"] != 5 || mp.Base != 2 || mp.Ours != 4 || mp.Theirs != 7 {
		t.Errorf("merge params %+v", mp)
	}
	// Merging the result again with a side it holds changes no task.
	again, err := MergeStateFiles(relState(), as, sm.Data, as, nil)
	if err != nil {
		t.Fatal(err)
	}
	x, _ := json.Marshal(again.Result.State.Tasks)
	y, _ := json.Marshal(st.Tasks)
	if !bytes.Equal(x, y) || len(again.Result.Notes) > 0 {
		t.Errorf("remerge changed tasks: %s\n%s %q", x, y, again.Result.Notes)
	}
}

// A side with conflict markers cannot be merged: an error, nothing produced.
func TestMergeStateFilesRefusesConflicted(t *testing.T) {
	bad := []byte("{\n<<<<<<< ours\n=======\n>>>>>>> theirs\n}\n")
	if _, err := MergeStateFiles(relState(), nil, bad, []byte(`{"version":1,"nextId":1,"tasks":[]}`), nil); err == nil || !strings.Contains(err.Error(), "merge conflict") {
		t.Errorf("err %v", err)
	}
}

// A journal pasted together from two branches (a union merge, or git's
// conflict block) rebuilds with both branches' changes and a merge entry;
// before, the second branch's entries were ignored.
func TestRebuildMergesUnionJournal(t *testing.T) {
	base, a, b := branchStores(t,
		[]string{`{"action":"update","id":1,"status":"completed","evidence":"a ok"}`},
		[]string{`{"action":"update","id":2,"status":"completed","evidence":"b ok"}`})
	_, bj := files(t, base)
	as, aj := files(t, a)
	_, tj := files(t, b)
	union := string(bj) + "<<<<<<< HEAD\n" + strings.TrimPrefix(string(aj), string(bj)) + "=======\n" + strings.TrimPrefix(string(tj), string(bj)) + ">>>>>>> b\n"
	out := Open(t.TempDir(), "test")
	_ = os.MkdirAll(out.Dir(), 0o755)
	_ = os.WriteFile(out.StatePath(), as, 0o644)
	_ = os.WriteFile(out.JournalPath(), []byte(union), 0o644)
	r, _ := out.Doctor(false, false)
	if r.OK() || len(r.JournalProblems) != 4 {
		t.Fatalf("doctor before: %q", r.Notes)
	}
	if _, err := out.Doctor(true, false); err == nil || !strings.Contains(err.Error(), "holds git conflict markers (line 3)") {
		t.Fatalf("rebuild without --move-aside: %v", err)
	}
	r, err := out.Doctor(true, true)
	if err != nil || !r.Rebuilt {
		t.Fatalf("rebuild: %+v %v", r, err)
	}
	st := mustRead(t, out)
	if st.Tasks[0].Evidence != "a ok" || st.Tasks[1].Evidence != "b ok" || st.Revision != 5 {
		t.Errorf("rebuilt %+v", st)
	}
	if r, err := out.Doctor(false, false); err != nil || !r.OK() {
		t.Errorf("doctor after: %q %v", r.Notes, err)
	}
	moved, _ := filepath.Glob(out.JournalPath() + ".corrupt-*")
	if len(moved) != 1 {
		t.Errorf("conflicted journal not kept: %v", moved)
	} else if kept, _ := os.ReadFile(moved[0]); string(kept) != union {
		t.Errorf("kept journal differs")
	}
}

func BenchmarkMergeStateFiles1000(b *testing.B) {
	base, ours, theirs := benchStates(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := MergeStateFiles(relState(), base, ours, theirs, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// benchStates are the encoded states of a 1,000-task base and two branches
// each closing 500 tasks and creating 50 (ids colliding).
func benchStates(b *testing.B) (base, ours, theirs []byte) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	st := &core.State{Version: core.SchemaVersion, Revision: 1000, NextID: 1001}
	for id := 1; id <= 1000; id++ {
		st.Tasks = append(st.Tasks, core.Task{ID: id, Subject: "task", Status: core.Pending, Version: 1, CreatedAt: t0, UpdatedAt: t0})
	}
	branch := func(parity int, ev string) []byte {
		s := *st
		s.Tasks = append([]core.Task(nil), st.Tasks...)
		for i := range s.Tasks {
			if s.Tasks[i].ID%2 == parity {
				s.Tasks[i].Status, s.Tasks[i].Evidence, s.Tasks[i].Version = core.Completed, ev, 2
			}
		}
		for id := 1001; id <= 1050; id++ {
			s.Tasks = append(s.Tasks, core.Task{ID: id, Subject: ev, Status: core.Pending, Version: 1, CreatedAt: t0, UpdatedAt: t0})
		}
		s.NextID, s.Revision = 1051, 1550
		data, err := encodeState(&s)
		if err != nil {
			b.Fatal(err)
		}
		return data
	}
	data, err := encodeState(st)
	if err != nil {
		b.Fatal(err)
	}
	return data, branch(0, "ours"), branch(1, "theirs")
}
