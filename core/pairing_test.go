package core

import (
	"fmt"
	"slices"
	"testing"

	"github.com/planls/planls/planparse"
)

// TestApproveRestoresTombstones: a re-approval whose bullet has the key of a
// plan item an earlier re-approval tombstoned brings that item back (id,
// status, proof) instead of minting a new one; live items are paired first.
func TestApproveRestoresTombstones(t *testing.T) {
	a, b := item(scope("W"), "a", ""), item(scope("W"), "b", "")
	tests := []struct {
		name string
		// setup runs on the state after approving v1 (ids 1.. in order).
		setup  []string
		v1, v2 []planparse.Item // approved in turn; then v3 is approved
		v3     []planparse.Item
		want   map[int]Status // id → status after v3 (absent ids: not live)
		text   string         // v3's result text
		live   int            // live plan items after v3
	}{
		{
			name:  "completed item reworded then reverted",
			setup: []string{`{"action":"update","id":2,"status":"completed","evidence":"go test: ok"}`},
			v1:    []planparse.Item{a, b}, v2: []planparse.Item{a, item(scope("W"), "b, reworded", "")}, v3: []planparse.Item{a, b},
			want: map[int]Status{1: Pending, 2: Completed},
			text: `Approved plan "T": 2 plan items (1 kept, 0 new, 1 removed, 1 restored)`, live: 2,
		},
		{
			name:  "deferred item comes back deferred",
			setup: []string{`{"action":"update","id":1,"status":"deferred","reason":"later"}`},
			v1:    []planparse.Item{a, b}, v2: []planparse.Item{b}, v3: []planparse.Item{a, b},
			want: map[int]Status{1: Deferred, 2: Pending},
			text: `Approved plan "T": 2 plan items (1 kept, 0 new, 0 removed, 1 restored)`, live: 2,
		},
		{
			name:  "started item comes back pending",
			setup: []string{`{"action":"update","id":1,"status":"in_progress"}`},
			v1:    []planparse.Item{a}, v2: []planparse.Item{b}, v3: []planparse.Item{a},
			want: map[int]Status{1: Pending},
			text: `Approved plan "T": 1 plan item (0 kept, 0 new, 1 removed, 1 restored)`, live: 1,
		},
		{
			name: "a live item with the key is kept, not the tombstone",
			v1:   []planparse.Item{a, a}, v2: []planparse.Item{a}, v3: []planparse.Item{a},
			want: map[int]Status{1: Pending},
			text: `Plan "T" is already approved: 1 plan item`, live: 1,
		},
		{
			name:  "a second identical bullet takes the tombstone",
			setup: []string{`{"action":"update","id":2,"status":"completed","evidence":"TestB"}`},
			v1:    []planparse.Item{a, a}, v2: []planparse.Item{a}, v3: []planparse.Item{a, a, b},
			want: map[int]Status{1: Pending, 2: Completed, 3: Pending},
			text: `Approved plan "T": 3 plan items (1 kept, 1 new, 0 removed, 1 restored)`, live: 3,
		},
		{
			name:  "another heading is another item",
			setup: []string{`{"action":"update","id":1,"status":"completed","evidence":"TestA"}`},
			v1:    []planparse.Item{a}, v2: []planparse.Item{b}, v3: []planparse.Item{item(scope("X"), "a", "")},
			want: map[int]Status{3: Pending},
			text: `Approved plan "T": 1 plan item (0 kept, 1 new, 1 removed)`, live: 1,
		},
		{
			name:  "what a reader cannot see does not stop a restore",
			setup: []string{`{"action":"update","id":1,"status":"completed","evidence":"TestA"}`},
			v1:    []planparse.Item{item(nil, "résumé", "")}, v2: []planparse.Item{b}, v3: []planparse.Item{item(nil, "re\u0301sume\u0301", "")},
			want: map[int]Status{1: Completed},
			text: `Approved plan "T": 1 plan item (0 kept, 0 new, 1 removed, 1 restored)`, live: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := Approve(Empty(), handPlan("T", tt.v1...), []byte("v1"), "PLAN.md", testOpts()).State
			for _, c := range tt.setup {
				st, _ = mustCall(t, st, c)
			}
			st = Approve(st, handPlan("T", tt.v2...), []byte("v2"), "PLAN.md", testOpts()).State
			before := st
			v3 := handPlan("T", tt.v3...)
			preview := PreviewApproval(before, v3)
			src := "v3"
			if len(tt.v3) == len(tt.v2) && fmt.Sprint(tt.v3) == fmt.Sprint(tt.v2) {
				src = "v2"
			}
			res := Approve(before, v3, []byte(src), "PLAN.md", testOpts())
			if got := res.Envelope.Text(); got != tt.text {
				t.Fatalf("text %q, want %q", got, tt.text)
			}
			live := 0
			for _, task := range res.State.Tasks {
				if task.isPlan() && task.Status != Deleted {
					live++
					if w, ok := tt.want[task.ID]; !ok || w != task.Status {
						t.Errorf("#%d %q is %s, want %v (present %v)", task.ID, task.Subject, task.Status, w, ok)
					}
				}
			}
			if live != tt.live {
				t.Fatalf("%d live plan items, want %d: %+v", live, tt.live, res.State.Tasks)
			}
			// The preview is what the approval did.
			if src == "v3" {
				for _, c := range preview {
					task := res.State.task(c.TaskID)
					if c.Kind == Added {
						continue
					}
					if task == nil || task.Status != c.Status || task.PlanOrder != c.Item+1 {
						t.Errorf("preview %+v, approval gave %+v", c, task)
					}
					if c.Kind == Restored && before.task(c.TaskID).Status != Deleted {
						t.Errorf("preview says #%d restored but it was live", c.TaskID)
					}
				}
			}
		})
	}
}

// TestRestoredItemKeepsItsProof: the evidence and the id survive the round
// trip, the version rises, and no new id is spent.
func TestRestoredItemKeepsItsProof(t *testing.T) {
	a, b := item(scope("W"), "a", ""), item(scope("W"), "a, reworded", "")
	st := Approve(Empty(), handPlan("T", a), []byte("v1"), "PLAN.md", testOpts()).State
	st, _ = mustCall(t, st, `{"action":"update","id":1,"status":"completed","evidence":"go test ./...: ok"}`)
	st = Approve(st, handPlan("T", b), []byte("v2"), "PLAN.md", testOpts()).State
	gone := *st.task(1)
	res := Approve(st, handPlan("T", a), []byte("v1"), "PLAN.md", testOpts())
	got := res.State.task(1)
	if got.Status != Completed || got.Evidence != "go test ./...: ok" || got.Version != gone.Version+1 || got.DeletedFrom != "" {
		t.Fatalf("restored %+v", got)
	}
	if res.State.task(2).Status != Deleted || res.State.NextID != 3 {
		t.Fatalf("reworded item not tombstoned or an id spent: %+v next %d", res.State.task(2), res.State.NextID)
	}
}

// TestRestorePlanTombstoneInPlaceOfTwin: a state from before approvals
// restored tombstones holds the reverted text as a new pending item (#3)
// beside the tombstone (#2); `restore` brings #2 back in #3's place and
// edges; a twin with progress of its own is kept.
func TestRestorePlanTombstoneInPlaceOfTwin(t *testing.T) {
	legacy := func() *State {
		return &State{NextID: 5, Plan: &PlanRef{ID: "p", Title: "T"}, Tasks: []Task{
			{ID: 1, Subject: "a", Status: Pending, Source: "plan", PlanGroup: "W", PlanScope: scope("W"), PlanOrder: 1, Version: 1},
			{ID: 2, Subject: "b", Status: Deleted, Source: "plan", PlanGroup: "W", PlanScope: scope("W"), PlanOrder: 2, Evidence: "TestB", Version: 3},
			{ID: 3, Subject: "b", Status: Pending, Source: "plan", PlanGroup: "W", PlanScope: scope("W"), PlanOrder: 2, Version: 1},
			{ID: 4, Subject: "agent", Status: Pending, BlockedBy: []int{3, 1}, Version: 1},
		}}
	}
	tests := []struct {
		name, call, want string
		setup            string
	}{
		{name: "untouched twin", call: `{"action":"restore","ids":[2]}`,
			want: "Restored 1 task: #2 (completed); #2 takes back the place of #3, its text approved again"},
		{name: "twin with progress", setup: `{"action":"update","id":3,"status":"in_progress"}`, call: `{"action":"restore","ids":[2]}`,
			want: "Error: restore: #2 is a plan item whose text the approved plan has again as #3, which has progress of its own (in_progress); keep #3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := legacy()
			if tt.setup != "" {
				st, _ = mustCall(t, st, tt.setup)
			}
			orig := cloneState(st)
			res := call(st, []byte(tt.call), testOpts())
			if got := res.Envelope.Text(); got != tt.want {
				t.Fatalf("text %q, want %q", got, tt.want)
			}
			if res.Envelope.IsError() {
				return
			}
			b, twin, agent := res.State.task(2), res.State.task(3), res.State.task(4)
			if b.Status != Completed || b.Evidence != "TestB" || b.PlanOrder != 2 || twin.Status != Deleted || twin.DeletedFrom != "" {
				t.Fatalf("restored %+v, twin %+v", b, twin)
			}
			if !slices.Equal(agent.BlockedBy, []int{2, 1}) || !slices.Equal(orig.task(4).BlockedBy, []int{3, 1}) {
				t.Fatalf("edge not moved, or the old state changed: %v / %v", agent.BlockedBy, orig.task(4).BlockedBy)
			}
			// Approving the plan again now keeps #2.
			again := Approve(res.State, handPlan("T", item(scope("W"), "a", ""), item(scope("W"), "b", "")), []byte("v"), "PLAN.md", testOpts())
			if again.Envelope.Text() != `Approved plan "T": 2 plan items (2 kept, 0 new, 0 removed)` || again.State.task(2).Status != Completed {
				t.Fatalf("%s", again.Envelope.Text())
			}
		})
	}
	// A plan tombstone with no twin still says how it comes back.
	st := legacy()
	st.Tasks[2].Subject = "b, reworded"
	mustFail(t, st, `{"action":"restore","ids":[2]}`,
		"restore: #2 is a plan item the approved plan no longer has; approve a plan with it to bring it back")
}
