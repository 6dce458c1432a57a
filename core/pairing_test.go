package core

import (
	"fmt"
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
