package core

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/planls/planls/planparse"
)

// randomCall builds one random todo call over ids around the state's, mixing
// valid and invalid params so both paths are exercised.
func randomCall(rng *rand.Rand, st *State) string {
	id := func() int {
		if len(st.Tasks) > 0 && rng.IntN(5) > 0 {
			return st.Tasks[rng.IntN(len(st.Tasks))].ID
		}
		return rng.IntN(st.NextID + 2)
	}
	ids := func() string {
		n := rng.IntN(3)
		parts := make([]string, n)
		for i := range parts {
			parts[i] = fmt.Sprint(id())
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	statuses := []string{"pending", "in_progress", "completed", "deferred", "deleted"}
	subjects := []string{"a", "b", "Add the Widget", "wire BETA", " ", "c\nd"}
	op := func() string {
		switch rng.IntN(12) {
		case 0, 1:
			return fmt.Sprintf(`{"action":"create","subject":%q,"blockedBy":%s}`, subjects[rng.IntN(len(subjects))], ids())
		case 2, 3, 4:
			var f []string
			f = append(f, fmt.Sprintf(`"id":%d`, id()))
			status := ""
			if rng.IntN(3) > 0 {
				status = statuses[rng.IntN(len(statuses))]
				f = append(f, fmt.Sprintf(`"status":%q`, status))
			}
			if (status == "completed" && rng.IntN(5) > 0) || rng.IntN(10) == 0 {
				f = append(f, `"evidence":"ev"`)
			}
			if (status == "deferred" && rng.IntN(5) > 0) || rng.IntN(10) == 0 {
				f = append(f, `"reason":"why"`)
			}
			if rng.IntN(3) == 0 {
				f = append(f, `"addBlockedBy":`+ids())
			}
			if rng.IntN(4) == 0 {
				f = append(f, `"removeBlockedBy":`+ids())
			}
			if rng.IntN(6) == 0 {
				f = append(f, fmt.Sprintf(`"subject":%q`, subjects[rng.IntN(len(subjects))]))
			}
			if rng.IntN(5) == 0 {
				f = append(f, `"metadata":{"k":1,"j":null}`)
			}
			return `{"action":"update",` + strings.Join(f, ",") + `}`
		case 5:
			return fmt.Sprintf(`{"action":"complete","id":%d,"evidence":"ok"}`, id())
		case 6:
			return fmt.Sprintf(`{"action":"delete","id":%d}`, id())
		case 7:
			switch rng.IntN(6) {
			case 0:
				return `{"action":"clear"}`
			case 1:
				return `{"action":"delete_all","confirm_delete_all":true}`
			}
			return fmt.Sprintf(`{"action":"create","subject":"n%d"}`, rng.IntN(100))
		case 8:
			if rng.IntN(2) == 0 {
				return `{"action":"restore"}`
			}
			return `{"action":"restore","ids":` + ids() + `}`
		case 9:
			return fmt.Sprintf(`{"action":"get","id":%d}`, id())
		case 10:
			return `{"action":"list","includeDeleted":true}`
		}
		return fmt.Sprintf(`{"action":"update","id":%d,"owner":"o%d","client_mutation_id":"k%d"}`, id(), rng.IntN(3), rng.IntN(3))
	}
	if rng.IntN(4) == 0 {
		n := 1 + rng.IntN(4)
		ops := make([]string, n)
		for i := range ops {
			ops[i] = op()
		}
		return `{"ops":[` + strings.Join(ops, ",") + `]}`
	}
	return op()
}

// checkInvariants holds after every call, accepted or not.
func checkInvariants(t *testing.T, call string, before *State, beforeJSON string, res Result) {
	t.Helper()
	after := res.State
	if snapshot(t, before) != beforeJSON {
		t.Fatalf("%s: input state mutated", call)
	}
	if res.Envelope.IsError() || !res.Changed {
		if after != before || res.Changed {
			t.Fatalf("%s: rejected or no-op call returned another state", call)
		}
		return
	}
	if snapshot(t, after) == beforeJSON {
		t.Fatalf("%s: Changed but the state is the same", call)
	}
	errs, warnings := Validate(after)
	if len(errs) > 0 || len(warnings) > 0 {
		t.Fatalf("%s: invalid state: %v %v", call, errs, warnings)
	}
	for i := 1; i < len(after.Tasks); i++ {
		if after.Tasks[i-1].ID >= after.Tasks[i].ID {
			t.Fatalf("%s: tasks not sorted by unique id", call)
		}
	}
	restoring := strings.Contains(call, `"restore"`)
	// After a clear that kept nothing ids restart at 1 (vector O11), so an id
	// may name a new task: compare agent todos only when no clear ran.
	reused := strings.Contains(call, `"clear"`)
	for i := range before.Tasks {
		old := &before.Tasks[i]
		now := after.task(old.ID)
		if old.isPlan() {
			if now == nil || (old.Status != Deleted && now.Status == Deleted) {
				t.Fatalf("%s: plan item #%d deleted", call, old.ID)
			}
			if now.Subject != old.Subject || now.PlanText != old.PlanText {
				t.Fatalf("%s: plan item #%d text changed", call, old.ID)
			}
		}
		if reused && !old.isPlan() {
			continue
		}
		if now != nil && old.Status == Deleted && now.Status != Deleted && !restoring {
			t.Fatalf("%s: tombstone #%d came back", call, old.ID)
		}
		if now != nil && now.Version < old.Version {
			t.Fatalf("%s: version of #%d went down", call, old.ID)
		}
		if now != nil && taskChanged(old, now) && now.Version == old.Version {
			t.Fatalf("%s: #%d changed without a new version", call, old.ID)
		}
	}
}

func TestPropertiesRandomCalls(t *testing.T) {
	seeds := 60
	steps := 120
	if testing.Short() {
		seeds = 10
	}
	changed, total := 0, 0
	for seed := 0; seed < seeds; seed++ {
		rng := rand.New(rand.NewPCG(uint64(seed), 7))
		var st *State
		if seed%2 == 0 {
			st = planAState(t)
		} else {
			st = Empty()
		}
		for step := 0; step < steps; step++ {
			params := randomCall(rng, st)
			beforeJSON := snapshot(t, st)
			res := call(st, json.RawMessage(params), testOpts())
			checkInvariants(t, fmt.Sprintf("seed %d step %d %s", seed, step, params), st, beforeJSON, res)
			st = res.State
			total++
			if res.Changed {
				changed++
			}
		}
	}
	// The generator must reach accepted mutations often, or the invariants
	// above are only checked on rejections.
	if changed*5 < total {
		t.Fatalf("only %d of %d random calls changed the state", changed, total)
	}
	t.Logf("%d of %d random calls changed the state", changed, total)
}

// Re-approving random variants of a plan keeps ids unique and never loses
// a kept item's status.
func TestPropertiesRandomApprovals(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	st := Empty()
	subjects := []string{"a", "b", "c", "d", "e"}
	for round := 0; round < 200; round++ {
		n := rng.IntN(5)
		plan := handPlan("P")
		for i := 0; i < n; i++ {
			plan.Items = append(plan.Items, item(scope([]string{"G", "H"}[rng.IntN(2)]), subjects[rng.IntN(len(subjects))], ""))
		}
		before := snapshot(t, st)
		res := Approve(st, plan, []byte(fmt.Sprint(round)), "PLAN.md", testOpts())
		if snapshot(t, st) != before {
			t.Fatal("Approve mutated its input")
		}
		if errs, warnings := Validate(res.State); errs != nil || warnings != nil {
			t.Fatalf("round %d: %v %v", round, errs, warnings)
		}
		live := 0
		for _, task := range res.State.Tasks {
			if task.isPlan() && task.Status != Deleted {
				live++
			}
		}
		if live != n {
			t.Fatalf("round %d: %d live plan items for %d bullets", round, live, n)
		}
		matches, missing := MatchPlan(res.State, plan)
		for _, m := range matches {
			if m.Kind != Same {
				t.Fatalf("round %d: an approved plan does not match itself: %+v", round, matches)
			}
		}
		if len(missing) != 0 {
			t.Fatalf("round %d: missing %v", round, missing)
		}
		st = res.State
		// Work on some items between approvals.
		for i := 0; i < 3; i++ {
			params := randomCall(rng, st)
			st = call(st, json.RawMessage(params), testOpts()).State
		}
	}
}

// MatchPlan on random edits of an approved plan: every approved item is
// matched once or reported missing, never both; Same only on identical text.
func TestPropertiesMatchPlan(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	words := []string{"a", "b", "c", "d"}
	randomItem := func() planparse.Item {
		return item(scope([]string{"G", "H"}[rng.IntN(2)]), words[rng.IntN(len(words))], []string{"", "x"}[rng.IntN(2)])
	}
	for round := 0; round < 300; round++ {
		plan := handPlan("P")
		for i := rng.IntN(6); i > 0; i-- {
			plan.Items = append(plan.Items, randomItem())
		}
		st := Approve(Empty(), plan, []byte(fmt.Sprint(round)), "PLAN.md", testOpts()).State
		edited := handPlan("P")
		for _, it := range plan.Items {
			switch rng.IntN(4) {
			case 0: // dropped
			case 1:
				edited.Items = append(edited.Items, randomItem())
			default:
				edited.Items = append(edited.Items, it)
			}
		}
		if rng.IntN(2) == 0 {
			edited.Items = append(edited.Items, randomItem())
		}
		matches, missing := MatchPlan(st, edited)
		seen := map[int]bool{}
		for _, m := range matches {
			if m.Kind == New {
				if m.TaskID != 0 {
					t.Fatalf("round %d: New with a task: %+v", round, m)
				}
				continue
			}
			if seen[m.TaskID] {
				t.Fatalf("round %d: #%d matched twice: %+v", round, m.TaskID, matches)
			}
			seen[m.TaskID] = true
			task, it := st.task(m.TaskID), edited.Items[m.Item]
			same := taskKey(task) == keyOf(it.Scope, it.Subject, it.PlanText)
			if (m.Kind == Same) != same {
				t.Fatalf("round %d: kind %v for %q vs %q", round, m.Kind, task.Subject, it.Subject)
			}
		}
		for _, id := range missing {
			if seen[id] {
				t.Fatalf("round %d: #%d both matched and missing", round, id)
			}
			seen[id] = true
		}
		for _, task := range st.Tasks {
			if task.isPlan() && task.Status != Deleted && !seen[task.ID] {
				t.Fatalf("round %d: #%d neither matched nor missing", round, task.ID)
			}
		}
	}
}
