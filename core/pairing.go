package core

import (
	"sort"
	"strings"

	"github.com/planls/planls/planparse"
)

// CarryKind says what approving a plan does with one of its items.
type CarryKind int

const (
	// Kept: the item is a live approved plan item, unchanged; it keeps its
	// id and everything on it.
	Kept CarryKind = iota
	// Restored: the item's key is that of a plan item an earlier
	// re-approval tombstoned; the tombstone comes back with its id and its
	// proof (evidence or reason) instead of a new item being minted.
	Restored
	// Added: a new plan item with a fresh id, pending.
	Added
)

// Carry is what approving a plan does with one usable item of it.
type Carry struct {
	Item   int // index into plan.Items
	TaskID int // the kept or restored plan item's id; 0 when Kind is Added
	Kind   CarryKind
	// Status is the status the item has once approved: the kept item's own
	// status, the restored one's (restoredStatus), or pending.
	Status Status
}

// PreviewApproval returns, for every usable item of plan (a non-blank
// subject, in plan order), what Approve would do with it over st: the same
// pairing Approve uses, so `approve --dry-run` says exactly what the
// approval will do. st is not changed; a nil st or plan is empty.
func PreviewApproval(st *State, plan *planparse.Plan) []Carry {
	view := sortedView(st)
	items := usableItems(plan)
	at := pairApproval(view, plan, items)
	out := make([]Carry, len(items))
	for j, i := range items {
		c := Carry{Item: i, Kind: Added, Status: Pending}
		if ti := at[j]; ti >= 0 {
			t := &view.Tasks[ti]
			c.TaskID, c.Kind, c.Status = t.ID, Kept, t.Status
			if t.Status == Deleted {
				c.Kind, c.Status = Restored, restoredStatus(t)
			}
		}
		out[j] = c
	}
	return out
}

// pairApproval pairs the usable items of plan (indexes into plan.Items)
// with view's plan items by key: at[j] is the index into view.Tasks of the
// task items[j] becomes, or -1 for a new item.
//
//  1. Live plan items first, by key and order (issue 10): the k-th new item
//     with a key keeps the k-th approved item with that key, in plan order,
//     so identical bullets each keep their own id and status.
//  2. Then tombstoned plan items, the same way, for the items still
//     unpaired: a bullet put back as it was approved before (an edit
//     reverted) is the same plan item, so it takes its id, status and proof
//     back rather than a new id (docs/PLAN-FORMAT.md "Matching").
//
// Keys compare as a reader sees the text (keyText: NFC, no variation
// selectors or BOM).
func pairApproval(view *State, plan *planparse.Plan, items []int) []int {
	at := make([]int, len(items))
	keys := make([]itemKey, len(items))
	for j, i := range items {
		it := &plan.Items[i]
		keys[j] = keyOf(it.Scope, strings.TrimSpace(it.Subject), it.PlanText)
		at[j] = -1
	}
	var live, dead []int
	for i := range view.Tasks {
		if t := &view.Tasks[i]; t.isPlan() {
			if t.Status == Deleted {
				dead = append(dead, i)
			} else {
				live = append(live, i)
			}
		}
	}
	if paired := pairByKey(view, live, keys, at); len(dead) > 0 && paired < len(items) {
		pairByKey(view, dead, keys, at)
	}
	return at
}

// pairByKey gives each unpaired keys[j] (at[j] < 0) the first task of
// cands (indexes into view.Tasks) with its key not yet taken, in plan order,
// and returns how many of keys are paired afterwards.
func pairByKey(view *State, cands []int, keys []itemKey, at []int) int {
	for i := 1; i < len(cands); i++ {
		if planBefore(&view.Tasks[cands[i]], &view.Tasks[cands[i-1]]) {
			sort.SliceStable(cands, func(a, b int) bool { return planBefore(&view.Tasks[cands[a]], &view.Tasks[cands[b]]) })
			break
		}
	}
	// head[k] is the first candidate (index into cands) with key k not yet
	// taken, next[j] the one after cands[j] with the same key (-1: none).
	head := make(map[itemKey]int32, len(cands))
	next := make([]int32, len(cands))
	for j := len(cands) - 1; j >= 0; j-- {
		k := taskKey(&view.Tasks[cands[j]])
		next[j] = -1
		if h, ok := head[k]; ok {
			next[j] = h
		}
		head[k] = int32(j)
	}
	paired := 0
	for j, k := range keys {
		if at[j] >= 0 {
			paired++
			continue
		}
		h, ok := head[k]
		if !ok {
			continue
		}
		paired++
		if next[h] >= 0 {
			head[k] = next[h]
		} else {
			delete(head, k)
		}
		at[j] = cands[h]
	}
	return paired
}

// restoredStatus is the status a tombstoned plan item comes back with. A
// re-approval's tombstone does not record its status (DeletedFrom stays
// empty, see State), but its proof stays on it and plan items close only
// with proof: evidence means it was completed, a reason that it was
// deferred; anything else was open and comes back pending (as rpiv carries
// an in_progress item, todo-behaviour.md §4).
func restoredStatus(t *Task) Status {
	switch {
	case t.Evidence != "":
		return Completed
	case t.Reason != "":
		return Deferred
	}
	return Pending
}
