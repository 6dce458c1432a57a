package core

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

// at runs a call that must succeed with the clock at testNow + min minutes,
// so the two branches' changes have distinct, ordered times.
func at(t *testing.T, st *State, min int, params string) *State {
	t.Helper()
	res := call(st, json.RawMessage(params), Options{Now: testNow.Add(time.Duration(min) * time.Minute)})
	if res.Envelope.IsError() {
		t.Fatalf("%s: %s", params, res.Envelope.Text())
	}
	return res.State
}

func taskOf(t *testing.T, st *State, id int) Task {
	t.Helper()
	for _, k := range st.Tasks {
		if k.ID == id {
			return k
		}
	}
	t.Fatalf("no task #%d in %+v", id, st.Tasks)
	return Task{}
}

// mergeBase is PLAN_A approved (#1–#3) plus one agent todo (#4).
func mergeBase(t *testing.T) *State {
	return at(t, planAState(t), 1, `{"action":"create","subject":"agent todo"}`)
}

func TestMergeRules(t *testing.T) {
	planB := handPlan("Add widgets", item(scope("Work"), "Add the Widget", ""), item(scope("Verification"), "make test passes", ""))
	planBMarkdown := []byte("# Add widgets\n\n## Work\n- Add the Widget\n\n## Verification\n- make test passes\n")
	planC := handPlan("Add widgets", item(scope("Work"), "Add the Widget", ""), item(scope("Work"), "Wire gamma", ""))
	planCMarkdown := []byte("# Add widgets\n\n## Work\n- Add the Widget\n- Wire gamma\n")
	approveAt := func(_ *testing.T, st *State, p []byte) *State {
		plan := planB
		if string(p) == string(planCMarkdown) {
			plan = planC
		}
		return Approve(st, plan, p, "PLAN.md", Options{Now: testNow.Add(5 * time.Minute)}).State
	}
	tests := []struct {
		name         string
		ours, theirs func(*testing.T, *State) *State
		opts         MergeOptions
		check        func(t *testing.T, r MergeResult)
		notes        []string
		conflict     bool
	}{
		{
			name: "different items completed",
			ours: func(t *testing.T, s *State) *State {
				return at(t, s, 2, `{"action":"update","id":1,"status":"completed","evidence":"ours: go test"}`)
			},
			theirs: func(t *testing.T, s *State) *State {
				return at(t, s, 3, `{"action":"update","id":2,"status":"completed","evidence":"theirs: ran beta"}`)
			},
			check: func(t *testing.T, r MergeResult) {
				if a, b := taskOf(t, r.State, 1), taskOf(t, r.State, 2); a.Evidence != "ours: go test" || b.Evidence != "theirs: ran beta" || a.Status != Completed || b.Status != Completed {
					t.Errorf("completions: %+v %+v", a, b)
				}
			},
		},
		{
			name: "same item completed with different evidence",
			ours: func(t *testing.T, s *State) *State {
				return at(t, s, 2, `{"action":"update","id":1,"status":"completed","evidence":"b: CI run 7"}`)
			},
			theirs: func(t *testing.T, s *State) *State {
				return at(t, s, 3, `{"action":"update","id":1,"status":"completed","evidence":"a: local run"}`)
			},
			check: func(t *testing.T, r MergeResult) {
				if k := taskOf(t, r.State, 1); k.Evidence != "a: local run; b: CI run 7" || k.Status != Completed {
					t.Errorf("#1: %+v", k)
				}
			},
			notes: []string{`#1 "Add the Widget" was completed on both branches with different evidence; both kept: a: local run; b: CI run 7`},
		},
		{
			name: "completed on one side, deferred on the other",
			ours: func(t *testing.T, s *State) *State {
				return at(t, s, 2, `{"action":"update","id":3,"status":"deferred","reason":"no CI yet"}`)
			},
			theirs: func(t *testing.T, s *State) *State {
				return at(t, s, 3, `{"action":"update","id":3,"status":"completed","evidence":"make test ok"}`)
			},
			check: func(t *testing.T, r MergeResult) {
				if k := taskOf(t, r.State, 3); k.Status != Completed || k.Evidence != "make test ok" || k.Reason != "no CI yet" {
					t.Errorf("#3: %+v", k)
				}
			},
			notes: []string{`#3 "make test passes" was completed on theirs and deferred on ours: kept completed, with every evidence and reason`},
		},
		{
			name: "tasks created on both sides get renumbered with their edges",
			ours: func(t *testing.T, s *State) *State { return at(t, s, 2, `{"action":"create","subject":"ours new"}`) },
			theirs: func(t *testing.T, s *State) *State {
				s = at(t, s, 3, `{"action":"create","subject":"theirs first"}`)
				s = at(t, s, 4, `{"action":"create","subject":"theirs second","blockedBy":[5]}`)
				return at(t, s, 5, `{"action":"update","id":4,"addBlockedBy":[5,6]}`)
			},
			check: func(t *testing.T, r MergeResult) {
				if !reflect.DeepEqual(r.Renumbered, map[int]int{5: 7}) {
					t.Errorf("renumbered %v", r.Renumbered)
				}
				if k := taskOf(t, r.State, 5); k.Subject != "ours new" {
					t.Errorf("#5: %+v", k)
				}
				if k := taskOf(t, r.State, 7); k.Subject != "theirs first" {
					t.Errorf("#7: %+v", k)
				}
				if k := taskOf(t, r.State, 6); k.Subject != "theirs second" || !reflect.DeepEqual(k.BlockedBy, []int{7}) {
					t.Errorf("#6: %+v", k)
				}
				if k := taskOf(t, r.State, 4); !reflect.DeepEqual(k.BlockedBy, []int{7, 6}) {
					t.Errorf("#4 blockedBy %v", k.BlockedBy)
				}
				if r.State.NextID != 8 {
					t.Errorf("nextId %d", r.State.NextID)
				}
			},
			notes: []string{`two different tasks were created as #5, one on each branch: "ours new" keeps #5, the other branch's "theirs first" is now #7 (every blockedBy on it rewritten)`},
		},
		{
			name: "stale branch completes an item a re-approval removed",
			ours: func(t *testing.T, s *State) *State { return approveAt(t, s, planBMarkdown) },
			theirs: func(t *testing.T, s *State) *State {
				return at(t, s, 6, `{"action":"update","id":2,"status":"completed","evidence":"beta wired"}`)
			},
			check: func(t *testing.T, r MergeResult) {
				if k := taskOf(t, r.State, 2); k.Status != Deleted || k.Evidence != "beta wired" || k.DeletedFrom != "" {
					t.Errorf("#2: %+v", k)
				}
				if r.State.Plan.ID != PlanID(planBMarkdown) {
					t.Errorf("plan %+v", r.State.Plan)
				}
			},
			notes: []string{`#2 "Wire beta" was completed on theirs, but the plan approved on ours removed it: it stays removed (not reopened), its evidence kept in the tombstone and the journal`},
		},
		{
			name: "deleted on one side, completed on the other",
			ours: func(t *testing.T, s *State) *State { return at(t, s, 2, `{"action":"delete","id":4}`) },
			theirs: func(t *testing.T, s *State) *State {
				return at(t, s, 3, `{"action":"update","id":4,"status":"completed","evidence":"done"}`)
			},
			check: func(t *testing.T, r MergeResult) {
				if k := taskOf(t, r.State, 4); k.Status != Deleted || k.Evidence != "done" || k.DeletedFrom != Completed {
					t.Errorf("#4: %+v", k)
				}
			},
			notes: []string{`#4 "agent todo" was deleted on ours and set completed on theirs: it stays deleted (restore brings back completed)`},
		},
		{
			name: "one side edits a field, the other closes",
			ours: func(t *testing.T, s *State) *State {
				return at(t, s, 2, `{"action":"update","id":4,"owner":"ann","note":"n1"}`)
			},
			theirs: func(t *testing.T, s *State) *State {
				return at(t, s, 3, `{"action":"update","id":4,"status":"completed","evidence":"done","note":"n2"}`)
			},
			check: func(t *testing.T, r MergeResult) {
				k := taskOf(t, r.State, 4)
				if k.Status != Completed || k.Owner == nil || *k.Owner != "ann" || k.Note != "n1; n2" {
					t.Errorf("#4: %+v", k)
				}
				if k.Version <= taskOf(t, r.State, 1).Version {
					t.Errorf("version %d not raised", k.Version)
				}
			},
			notes: []string{`#4 note: both branches changed it; both kept`},
		},
		{
			name:   "both approved, the merged plan file is theirs's",
			ours:   func(t *testing.T, s *State) *State { return approveAt(t, s, planBMarkdown) },
			theirs: func(t *testing.T, s *State) *State { return approveAt(t, s, planCMarkdown) },
			opts:   MergeOptions{PlanID: PlanID(planCMarkdown)},
			check: func(t *testing.T, r MergeResult) {
				if r.State.Plan.ID != PlanID(planCMarkdown) {
					t.Errorf("plan %+v", r.State.Plan)
				}
				live := map[string]bool{}
				for _, k := range r.State.Tasks {
					if k.Source == "plan" && k.Status != Deleted {
						live[k.Subject] = true
					}
				}
				if !reflect.DeepEqual(live, map[string]bool{"Add the Widget": true, "Wire gamma": true}) {
					t.Errorf("live plan items %v", live)
				}
			},
		},
		{
			name: "both approved the same new plan, theirs completed a new item",
			ours: func(t *testing.T, s *State) *State { return approveAt(t, s, planCMarkdown) },
			theirs: func(t *testing.T, s *State) *State {
				s = Approve(s, planC, planCMarkdown, "PLAN.md", Options{Now: testNow.Add(7 * time.Minute)}).State
				return at(t, s, 8, `{"action":"update","id":5,"status":"completed","evidence":"gamma wired"}`)
			},
			check: func(t *testing.T, r MergeResult) {
				if len(r.Renumbered) != 0 || len(r.State.Tasks) != 5 {
					t.Errorf("renumbered %v, %d tasks", r.Renumbered, len(r.State.Tasks))
				}
				if k := taskOf(t, r.State, 5); k.Status != Completed || k.Evidence != "gamma wired" {
					t.Errorf("#5 %+v", k)
				}
			},
		},
		{
			name:     "both approved, the merged plan file matches neither",
			ours:     func(t *testing.T, s *State) *State { return approveAt(t, s, planBMarkdown) },
			theirs:   func(t *testing.T, s *State) *State { return approveAt(t, s, planCMarkdown) },
			conflict: true,
			check: func(t *testing.T, r MergeResult) {
				if r.State.Plan.ID != PlanID(planBMarkdown) {
					t.Errorf("plan %+v", r.State.Plan)
				}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base := mergeBase(t)
			ours, theirs := tc.ours(t, base), tc.theirs(t, base)
			r := Merge(base, ours, theirs, tc.opts)
			if errs, _ := Validate(r.State); len(errs) > 0 {
				t.Fatalf("invalid merge: %v", errs)
			}
			if want := ours.Revision + theirs.Revision - base.Revision + 1; r.State.Revision != want {
				t.Errorf("revision %d, want %d", r.State.Revision, want)
			}
			if (r.Conflict != "") != tc.conflict {
				t.Errorf("conflict %q", r.Conflict)
			}
			for _, n := range tc.notes {
				if !contains(r.Notes, n) {
					t.Errorf("notes %q\nlack %q", r.Notes, n)
				}
			}
			tc.check(t, r)
			assertNoProofLost(t, r.State, ours, theirs, r.Renumbered)
			if again := Merge(base, ours, theirs, tc.opts); !reflect.DeepEqual(again, r) {
				t.Errorf("merge is not deterministic")
			}
		})
	}
}

// assertNoProofLost checks every evidence, reason and note either side
// holds is in the merged task of the same id (theirs's ids renumbered).
func assertNoProofLost(t *testing.T, merged, ours, theirs *State, renum map[int]int) {
	t.Helper()
	check := func(side *State, remap map[int]int) {
		for _, k := range side.Tasks {
			id := k.ID
			if n, ok := remap[id]; ok {
				id = n
			}
			m := taskOf(t, merged, id)
			for _, p := range [][2]string{{k.Evidence, m.Evidence}, {k.Reason, m.Reason}, {k.Note, m.Note}} {
				if !strings.Contains(p[1], p[0]) {
					t.Errorf("#%d lost %q (merged %q)", id, p[0], p[1])
				}
			}
		}
	}
	check(ours, nil)
	check(theirs, renum)
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func TestMergeSymmetricProofs(t *testing.T) {
	base := mergeBase(t)
	a := at(t, base, 2, `{"action":"update","id":1,"status":"completed","evidence":"x"}`)
	b := at(t, base, 3, `{"action":"update","id":1,"status":"completed","evidence":"y"}`)
	ab := taskOf(t, Merge(base, a, b, MergeOptions{}).State, 1)
	ba := taskOf(t, Merge(base, b, a, MergeOptions{}).State, 1)
	if ab.Evidence != ba.Evidence || ab.Status != ba.Status {
		t.Errorf("merge %+v, rebase %+v", ab, ba)
	}
}

func TestMergeNilBaseAndInputsUnchanged(t *testing.T) {
	ours := at(t, Empty(), 1, `{"action":"create","subject":"a"}`)
	theirs := at(t, Empty(), 2, `{"action":"create","subject":"b"}`)
	before, _ := json.Marshal(theirs)
	r := Merge(nil, ours, theirs, MergeOptions{})
	after, _ := json.Marshal(theirs)
	if string(before) != string(after) {
		t.Fatalf("theirs changed")
	}
	if len(r.State.Tasks) != 2 || taskOf(t, r.State, 2).Subject != "b" || r.State.NextID != 3 {
		t.Errorf("merged %+v", r.State)
	}
}
