package core

import (
	"slices"
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
	items := UsableItems(plan)
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
//  1. Live plan items first, by key and order: the k-th new item
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
	keys := itemKeys(plan, items)
	at := slices.Repeat([]int{-1}, len(items))
	live, dead := planTasks(view)
	if pairByKey(view, live, keys, at) < len(items) {
		pairByKey(view, dead, keys, at)
	}
	return at
}

// itemKeys are the keys of plan's items at indexes items.
func itemKeys(plan *planparse.Plan, items []int) []itemKey {
	keys := make([]itemKey, len(items))
	for j, i := range items {
		it := &plan.Items[i]
		keys[j] = keyOf(it.Scope, strings.TrimSpace(it.Subject), it.PlanText)
	}
	return keys
}

// planTasks are the indexes into view.Tasks of its live plan items and of
// its plan tombstones.
func planTasks(view *State) (live, dead []int) {
	for i := range view.Tasks {
		if t := &view.Tasks[i]; t.isPlan() {
			if t.Status == Deleted {
				dead = append(dead, i)
			} else {
				live = append(live, i)
			}
		}
	}
	return live, dead
}

// pairByKey sorts cands (indexes into view.Tasks) into plan order, gives
// each unpaired keys[j] (at[j] < 0) the first candidate with its key not
// yet taken, and returns how many of keys are paired afterwards.
func pairByKey(view *State, cands []int, keys []itemKey, at []int) int {
	sortPlanOrder(view, cands)
	// head[k] is the first candidate (index into cands) with key k not yet
	// taken, next[j] the one after cands[j] with the same key (-1: none):
	// no slice per key, which made matching 1.3× slower at 1,000 items.
	head := make(map[itemKey]int, len(cands))
	next := make([]int, len(cands))
	for j := len(cands) - 1; j >= 0; j-- {
		k := taskKey(&view.Tasks[cands[j]])
		next[j] = -1
		if h, ok := head[k]; ok {
			next[j] = h
		}
		head[k] = j
	}
	paired := 0
	for j, k := range keys {
		if at[j] < 0 {
			h, ok := head[k]
			if !ok {
				continue
			}
			if at[j], head[k] = cands[h], next[h]; next[h] < 0 {
				delete(head, k)
			}
		}
		paired++
	}
	return paired
}

// sortPlanOrder sorts cands (indexes into view.Tasks) into plan order.
func sortPlanOrder(view *State, cands []int) {
	sort.SliceStable(cands, func(a, b int) bool { return planBefore(&view.Tasks[cands[a]], &view.Tasks[cands[b]]) })
}

// restoredStatus is the status a tombstoned plan item comes back with. A
// re-approval's tombstone does not record its status (DeletedFrom stays
// empty, see State), but its proof stays on it and plan items close only
// with proof: evidence means it was completed, a reason that it was
// deferred; anything else was open and comes back pending (as rpiv carries
// an in_progress item, the seed's plan items).
func restoredStatus(t *Task) Status {
	switch {
	case t.Evidence != "":
		return Completed
	case t.Reason != "":
		return Deferred
	}
	return Pending
}

// Dropped returns the live plan items of st that approving plan would
// tombstone: those no usable item of plan keeps (PreviewApproval's
// pairing), in id order. st is not changed; a nil st has none.
func Dropped(st *State, plan *planparse.Plan) []Task {
	view := sortedView(st)
	kept := map[int]bool{}
	for _, c := range PreviewApproval(view, plan) {
		if c.Kind == Kept {
			kept[c.TaskID] = true
		}
	}
	var out []Task
	for _, t := range view.Tasks {
		if t.isPlan() && t.Status != Deleted && !kept[t.ID] {
			out = append(out, t)
		}
	}
	return out
}
