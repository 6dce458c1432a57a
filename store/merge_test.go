package store

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
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
	sm, jm := mergeBoth(t, base, a, b)
	as, aj := files(t, a)
	out := Open(t.TempDir(), "test")
	if err := os.MkdirAll(out.Dir(), 0o755); err != nil {
		t.Fatal(err)
	}
	_ = os.WriteFile(out.StatePath(), sm.Data, 0o644)
	_ = os.WriteFile(out.JournalPath(), jm.Data, 0o644)
	r, err := out.Doctor(context.Background(), false, false)
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

// mergeBoth runs both drivers on the stores' files, as git would.
func mergeBoth(t *testing.T, base, a, b *Store) (state, journal *MergeOutcome) {
	t.Helper()
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
	return sm, jm
}

// A side with conflict markers cannot be merged: an error, nothing produced.
func TestMergeStateFilesRefusesConflicted(t *testing.T) {
	bad := []byte("{\n<<<<<<< ours\n=======\n>>>>>>> theirs\n}\n")
	if _, err := MergeStateFiles(relState(), nil, bad, []byte(`{"version":1,"nextId":1,"tasks":[]}`), nil); err == nil || !strings.Contains(err.Error(), "merge conflict") {
		t.Errorf("err %v", err)
	}
}

// A journal pasted together from two branches (git's conflict block, or a
// union resolved by hand) rebuilds with both branches' changes and a merge
// entry; before, the second branch's entries were ignored.
func TestRebuildMergesUnionJournal(t *testing.T) {
	for _, markers := range []bool{true, false} {
		base, a, b := branchStores(t,
			[]string{`{"action":"update","id":1,"status":"completed","evidence":"a ok"}`},
			[]string{`{"action":"update","id":2,"status":"deferred","reason":"b later"}`})
		_, bj := files(t, base)
		as, aj := files(t, a)
		_, tj := files(t, b)
		ours, theirs := strings.TrimPrefix(string(aj), string(bj)), strings.TrimPrefix(string(tj), string(bj))
		union := string(bj) + ours + theirs
		if markers {
			union = string(bj) + "<<<<<<< HEAD\n" + ours + "=======\n" + theirs + ">>>>>>> b\n"
		}
		out := Open(t.TempDir(), "test")
		_ = os.MkdirAll(out.Dir(), 0o755)
		_ = os.WriteFile(out.StatePath(), as, 0o644)
		_ = os.WriteFile(out.JournalPath(), []byte(union), 0o644)
		r, _ := out.Doctor(context.Background(), false, false)
		wantProbs := 1
		if markers {
			wantProbs = 4
		}
		if r.OK() || len(r.JournalProblems) != wantProbs || !slices.Contains(r.Notes, branchRepairNote(r.JournalProblems)[0]) {
			t.Fatalf("markers %v: doctor before: %q", markers, r.Notes)
		}
		if _, err := out.Doctor(context.Background(), true, false); err == nil {
			t.Fatalf("markers %v: rebuild without --move-aside replaced a file", markers)
		}
		r, err := out.Doctor(context.Background(), true, true)
		if err != nil || !r.Rebuilt {
			t.Fatalf("rebuild: %+v %v", r, err)
		}
		st := mustRead(t, out)
		if st.Tasks[0].Evidence != "a ok" || st.Tasks[1].Reason != "b later" || st.Revision != 5 {
			t.Errorf("markers %v: rebuilt %+v", markers, st)
		}
		if r, err := out.Doctor(context.Background(), false, false); err != nil || !r.OK() {
			t.Errorf("markers %v: doctor after: %q %v", markers, r.Notes, err)
		}
		moved, _ := filepath.Glob(out.JournalPath() + ".corrupt-*")
		switch {
		case markers && len(moved) != 1:
			t.Errorf("conflicted journal not kept: %v", moved)
		case markers:
			if kept, _ := os.ReadFile(moved[0]); string(kept) != union {
				t.Errorf("kept journal differs")
			}
		case len(moved) != 0:
			t.Errorf("a journal without markers was moved: %v", moved)
		}
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

// For random branches, the state file's merge and the journal's merge
// (run separately, as git runs them) always agree, and doctor is clean.
func TestMergeDriversAgreeRandom(t *testing.T) {
	if testing.Short() {
		t.Skip("many commits")
	}
	ops := []string{
		`{"action":"create","subject":"s%d"}`,
		`{"action":"create","subject":"s%d","blockedBy":[1]}`,
		`{"action":"update","id":%d,"status":"completed","evidence":"e%[1]d"}`,
		`{"action":"update","id":%d,"status":"deferred","reason":"r%[1]d"}`,
		`{"action":"update","id":%d,"status":"in_progress","owner":"o%[1]d"}`,
		`{"action":"update","id":%d,"note":"n%[1]d"}`,
		`{"action":"delete","id":%d}`,
	}
	for seed := 0; seed < 12; seed++ {
		pick := func(side int) []string {
			var out []string
			for i := 0; i < 2+(seed+side)%4; i++ {
				k := (seed*7 + side*3 + i*5) % len(ops)
				arg := 1 + (seed+i+side)%3
				if k < 2 {
					arg = seed*10 + side*100 + i
				}
				out = append(out, fmt.Sprintf(ops[k], arg))
			}
			return out
		}
		base, a, b := branchStoresLenient(t, pick(1), pick(2))
		sm, jm := mergeBoth(t, base, a, b)
		entries, probs, _ := ReadJournal(writeTemp(t, jm.Data))
		replayed, _ := encodeState(Replay(entries))
		if len(probs) > 0 || !bytes.Equal(replayed, sm.Data) {
			t.Fatalf("seed %d: problems %v\nreplay %s\nstate %s", seed, probs, replayed, sm.Data)
		}
	}
}

// branchStoresLenient is branchStores with calls the tool may reject
// (a delete of a plan item, a closed task's update): those change nothing.
func branchStoresLenient(t *testing.T, ours, theirs []string) (base, a, b *Store) {
	t.Helper()
	filter := func(s *Store, calls []string) []string {
		var ok []string
		st := mustRead(t, s)
		for _, c := range calls {
			res := core.Run(st, core.Decode(params(c)), core.Options{})
			if !res.Envelope.IsError() {
				ok = append(ok, c)
				st = res.State
			}
		}
		return ok
	}
	base, _, _ = branchStores(t, nil, nil)
	return branchStores(t, filter(base, ours), filter(base, theirs))
}

func writeTemp(t *testing.T, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), JournalName)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// BenchmarkMergeJournalFiles1000 merges the journals of a 1,000-task base
// (one full snapshot) and two branches that each complete 250 tasks, one
// commit each, and create 25 (colliding): replays three journals, merges,
// writes 1,000+ lines.
func BenchmarkMergeJournalFiles1000(b *testing.B) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	st := &core.State{Version: core.SchemaVersion, Revision: 1000, NextID: 1001}
	for id := 1; id <= 1000; id++ {
		st.Tasks = append(st.Tasks, core.Task{ID: id, Subject: "task", Status: core.Pending, Version: 1, CreatedAt: t0, UpdatedAt: t0})
	}
	line := func(old, next *core.State, full bool) []byte {
		e, err := newEntry(old, next, full)
		if err != nil {
			b.Fatal(err)
		}
		e.Kind, e.Time = "call", t0
		out, err := marshal(e, "")
		if err != nil {
			b.Fatal(err)
		}
		return out
	}
	baseJ := line(&core.State{}, st, true)
	branch := func(parity int, ev string) []byte {
		j := append([]byte(nil), baseJ...)
		cur := st
		for id := 1 + parity; id <= 500; id += 2 {
			next := *cur
			next.Tasks = append([]core.Task(nil), cur.Tasks...)
			next.Tasks[id-1].Status, next.Tasks[id-1].Evidence = core.Completed, ev
			next.Revision++
			j = append(j, line(cur, &next, false)...)
			cur = &next
		}
		for i := 0; i < 25; i++ {
			next := *cur
			next.Tasks = append(append([]core.Task(nil), cur.Tasks...), core.Task{ID: cur.NextID, Subject: ev, Status: core.Pending, Version: 1, CreatedAt: t0, UpdatedAt: t0})
			next.NextID++
			next.Revision++
			j = append(j, line(cur, &next, false)...)
			cur = &next
		}
		return j
	}
	ours, theirs := branch(0, "ours"), branch(1, "theirs")
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		out, err := MergeJournalFiles(baseJ, ours, theirs, nil, t0)
		if err != nil || len(out.Result.Renumbered) != 25 {
			b.Fatal(err)
		}
	}
}
