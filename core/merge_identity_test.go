package core

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// withUID gives the task of that id in st the identity uid (a copy of st).
func withUID(st *State, id int, uid string) *State {
	c := cloneState(st)
	for i := range c.Tasks {
		if c.Tasks[i].ID == id {
			c.Tasks[i].UID = uid
		}
	}
	return c
}

// Tasks merge by identity, whatever ids the three states give them.
func TestMergeMatchesByUID(t *testing.T) {
	start := planAState(t) // #1–#3
	bob := withUID(at(t, start, 1, `{"action":"create","subject":"bob task"}`), 4, "b0b0b0b0b0b0b0b0")
	bobDone := at(t, bob, 2, `{"action":"update","id":4,"status":"completed","evidence":"CHANGELOG.md:1"}`)
	mainOnly := withUID(at(t, start, 3, `{"action":"create","subject":"main task"}`), 4, "aaaaaaaaaaaaaaaa")
	// The upstream after a rebase's first step: main's #4, Bob's as #5.
	step1 := Merge(start, mainOnly, bob, MergeOptions{}).State
	if k := taskOf(t, step1, 5); k.UID != "b0b0b0b0b0b0b0b0" || k.Subject != "bob task" {
		t.Fatalf("step 1: #5 is %+v", k)
	}
	tests := []struct {
		name               string
		base, ours, theirs *State
		bobID              int
		renumbered         map[int]int
	}{
		// The rebase's second step: Bob's completion of his #4 goes to #5.
		{"rebase step", bob, step1, bobDone, 5, map[int]int{4: 5}},
		// A cherry-pick of the completion alone: Bob's task comes along.
		{"cherry-pick alone", bob, mainOnly, bobDone, 5, map[int]int{4: 5}},
		// The merge of the whole branch.
		{"merge", start, mainOnly, bobDone, 5, map[int]int{4: 5}},
		// The same completion picked again onto a branch that has it.
		{"picked twice", bob, Merge(bob, step1, bobDone, MergeOptions{}).State, bobDone, 5, map[int]int{4: 5}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := Merge(tc.base, tc.ours, tc.theirs, MergeOptions{})
			if errs, _ := Validate(r.State); len(errs) > 0 {
				t.Fatalf("invalid: %v", errs)
			}
			b, m := taskOf(t, r.State, tc.bobID), taskOf(t, r.State, 4)
			if b.UID != "b0b0b0b0b0b0b0b0" || b.Status != Completed || b.Evidence != "CHANGELOG.md:1" {
				t.Errorf("bob's task: %+v", b)
			}
			if m.UID != "aaaaaaaaaaaaaaaa" || m.Status != Pending || m.Subject != "main task" {
				t.Errorf("main's task: %+v", m)
			}
			if len(r.State.Tasks) != 5 {
				t.Errorf("%d tasks: %+v", len(r.State.Tasks), r.State.Tasks)
			}
			if !jsonEqual(t, r.Renumbered, tc.renumbered) {
				t.Errorf("renumbered %v, want %v", r.Renumbered, tc.renumbered)
			}
		})
	}
}

// Theirs's blockedBy on a task ours renumbered follows the task.
func TestMergeRewritesEdgesByUID(t *testing.T) {
	start := planAState(t)
	bob := withUID(at(t, start, 1, `{"action":"create","subject":"bob task"}`), 4, "b0b0b0b0b0b0b0b0")
	mainOnly := withUID(at(t, start, 2, `{"action":"create","subject":"main task"}`), 4, "aaaaaaaaaaaaaaaa")
	step1 := Merge(start, mainOnly, bob, MergeOptions{}).State
	blocked := at(t, bob, 3, `{"action":"update","id":1,"addBlockedBy":[4]}`)
	r := Merge(bob, step1, blocked, MergeOptions{})
	if k := taskOf(t, r.State, 1); len(k.BlockedBy) != 1 || k.BlockedBy[0] != 5 {
		t.Errorf("#1 blockedBy %v, want [5] (bob's task)", k.BlockedBy)
	}
}

// Without identities (a state built by hand, or written before them)
// tasks are matched by the identity derived from id and creation time:
// two tasks created as #4 at different times still collide and are
// renumbered, and one task on both sides is one task.
func TestMergeWithoutUIDs(t *testing.T) {
	start := planAState(t)
	ours := at(t, start, 1, `{"action":"create","subject":"ours"}`)
	theirs := at(t, start, 2, `{"action":"create","subject":"theirs"}`)
	r := Merge(start, ours, theirs, MergeOptions{})
	if r.Renumbered[4] != 5 || taskOf(t, r.State, 5).Subject != "theirs" || taskOf(t, r.State, 4).Subject != "ours" {
		t.Errorf("renumbered %v, tasks %+v", r.Renumbered, r.State.Tasks)
	}
	for _, k := range r.State.Tasks {
		if k.UID == "" {
			t.Errorf("#%d merged without an identity", k.ID)
		}
	}
	done := at(t, ours, 3, `{"action":"update","id":4,"status":"completed","evidence":"x_test.go:1"}`)
	if r := Merge(ours, ours, done, MergeOptions{}); taskOf(t, r.State, 4).Status != Completed || len(r.Renumbered) != 0 {
		t.Errorf("one task on both sides: %+v %v", r.State.Tasks, r.Renumbered)
	}
}

// The same plan approved on both branches gives the same items under two
// different identities: they are one item each (ours's identity kept),
// not a collision.
func TestMergeSamePlanItemsDifferentUIDs(t *testing.T) {
	base := Empty()
	mk := func(uidPrefix string, min int) *State {
		st := Approve(base, planA(), []byte(planAMarkdown), "PLAN.md", Options{Now: testNow.Add(time.Duration(min) * time.Minute)}).State
		for i := range st.Tasks {
			st.Tasks[i].UID = uidPrefix + strings.Repeat("0", 15)
		}
		for i := range st.Tasks {
			st.Tasks[i].UID = st.Tasks[i].UID[:15] + string(rune('1'+i))
		}
		return st
	}
	ours, theirs := mk("a", 1), mk("b", 2)
	r := Merge(base, ours, theirs, MergeOptions{})
	if len(r.State.Tasks) != 3 || len(r.Renumbered) != 0 {
		t.Fatalf("tasks %+v renumbered %v", r.State.Tasks, r.Renumbered)
	}
	for i, k := range r.State.Tasks {
		if k.UID != ours.Tasks[i].UID {
			t.Errorf("#%d uid %q, want ours's %q", k.ID, k.UID, ours.Tasks[i].UID)
		}
	}
}

// details.tasks is the seed's task shape: no uid, while the state keeps it.
func TestDetailsLeaveOutUID(t *testing.T) {
	st := withUID(planAState(t), 1, "0123456789abcdef")
	res := call(st, json.RawMessage(`{"action":"get","id":1}`), testOpts())
	b, err := json.Marshal(res.Envelope)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "uid") || strings.Contains(string(b), "0123456789abcdef") {
		t.Errorf("envelope carries the identity: %s", b)
	}
	if !strings.Contains(string(b), `"tasks":[{"id":1,"subject":"Add the Widget"`) {
		t.Errorf("envelope: %s", b)
	}
	if res.Envelope.Details.Tasks[0].UID != "0123456789abcdef" {
		t.Errorf("the in-memory snapshot lost the identity")
	}
	var none DetailTasks
	if b, _ := json.Marshal(struct{ T DetailTasks }{none}); string(b) != `{"T":null}` {
		t.Errorf("nil tasks: %s", b)
	}
	if b, _ := json.Marshal(DetailTasks{{ID: 1, Subject: "a <b> & c"}}); !strings.Contains(string(b), `a \u003cb\u003e \u0026 c`) {
		t.Errorf("json.Marshal escapes HTML as it always did: %s", b)
	}
}

// A duplicated identity (a task block copied by hand) is refused: merges
// would fold the two tasks into one.
func TestValidateDuplicateUID(t *testing.T) {
	st := withUID(withUID(planAState(t), 1, "0123456789abcdef"), 2, "0123456789abcdef")
	errs, _ := Validate(st)
	if len(errs) != 1 || errs[0] != "#2 has the uid of #1 (0123456789abcdef), which is each task's own: delete the uid line of the one that is a copy (planls then gives it one)" {
		t.Errorf("errors %q", errs)
	}
}
