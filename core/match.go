package core

import (
	"slices"
	"strings"

	"github.com/planls/planls/planparse"
)

// DriftKind says how a bullet of the current PLAN.md relates to the approved plan.
type DriftKind int

const (
	// Same: the item matches an approved plan item exactly (scope, subject, planText).
	Same DriftKind = iota
	// Changed: the item is at the place of an approved item whose text differs.
	Changed
	// New: the item is not in the approved plan.
	New
)

// ItemMatch links one parsed item (index into Plan.Items) to a task.
type ItemMatch struct {
	Item   int // index into plan.Items
	TaskID int // the matched plan item's id; 0 when Kind is New
	Kind   DriftKind
}

// liveKeys are the live plan items of a state in plan order, with their
// keys as small numbers: what matchLive pairs a plan file's items with.
type liveKeys struct {
	st   *State // the state they are of
	view *State // st sorted by id (sortedView)
	live []int  // indexes into view.Tasks, in plan order
	kid  []int  // the key of each of live, numbered
	ids  map[itemKey]int
	// texts numbers the keys of item texts seen before (-1: no live
	// item's key), so an unchanged item costs one lookup.
	texts map[itemText]int
	// last is the plan itemIDs read last, its usable items and their ids.
	last struct {
		plan       *planparse.Plan
		items, ids []int
	}
}

func liveKeysOf(st *State) *liveKeys {
	view := sortedView(st)
	live, _ := planTasks(view)
	sortPlanOrder(view, live)
	lk := &liveKeys{st: st, view: view, live: live, kid: make([]int, len(live)),
		ids: make(map[itemKey]int, len(live)), texts: map[itemText]int{}}
	for j, c := range live {
		k := taskKey(&view.Tasks[c])
		id, ok := lk.ids[k]
		if !ok {
			id = len(lk.ids)
			lk.ids[k] = id
		}
		lk.kid[j] = id
	}
	return lk
}

// size is how many item texts lk holds (0 for nil).
func (lk *liveKeys) size() int {
	if lk == nil {
		return 0
	}
	return len(lk.texts)
}

// matchLive links the items of the current plan file to the approved plan
// items of lk (adding the item texts it has not seen to lk), so editors can place diagnostics on them and report drift;
// missing is the ids of approved, non-deleted plan items that no parsed
// item matched. Matching is in two passes:
//  1. exact key (itemKey: scope, subject, planText): the k-th parsed item
//     with a key takes the k-th approved item with that key (in plan order),
//     so duplicate bullets each keep their own task; this is Approve's
//     pairing of live plan items (pairByKey);
//  2. the i-th still-unmatched parsed item takes the i-th still-unmatched
//     approved item (plan order) as Changed; the rest are New.
//
// Items with a blank subject are not plan items and get no entry. A map of
// keys is enough at real sizes: with one bullet edited it takes about
// 0.1 ms at 200 items and 0.6–0.9 ms at 1,000 (BenchmarkMatchPlanEdited),
// where parsing the plan takes 0.8 and 6 ms; the hashed, position-aligned
// matcher it replaced saved 0.03 and 0.2 ms of that for 250 more lines.
func matchLive(lk *liveKeys, plan *planparse.Plan) (matches []ItemMatch, missing []int) {
	view, live := lk.view, lk.live
	items := UsableItems(plan)
	at := slices.Repeat([]int{-1}, len(items))
	// The k-th item with a key takes the k-th live item with it (pairByKey):
	// head[id] is the first live item with key id not taken yet, next[j]
	// the one after live[j] with the same key.
	head := slices.Repeat([]int{-1}, len(lk.ids))
	next := make([]int, len(live))
	for j := len(live) - 1; j >= 0; j-- {
		next[j], head[lk.kid[j]] = head[lk.kid[j]], j
	}
	for m, id := range lk.itemIDs(plan, items) {
		if id >= 0 && head[id] >= 0 {
			at[m], head[id] = live[head[id]], next[head[id]]
		}
	}
	used := make([]bool, len(view.Tasks)) // by index into view.Tasks
	matches = make([]ItemMatch, len(items))
	for m, i := range items {
		matches[m] = ItemMatch{Item: i, Kind: New}
		if at[m] >= 0 {
			matches[m].TaskID, matches[m].Kind = view.Tasks[at[m]].ID, Same
			used[at[m]] = true
		}
	}
	free := 0 // index into live of the first item not taken yet
	for m := range matches {
		if matches[m].Kind != New {
			continue
		}
		for free < len(live) && used[live[free]] {
			free++
		}
		if free == len(live) {
			break
		}
		matches[m].TaskID, matches[m].Kind = view.Tasks[live[free]].ID, Changed
		used[live[free]] = true
	}
	for _, ti := range live {
		if !used[ti] {
			missing = append(missing, view.Tasks[ti].ID)
		}
	}
	return matches, missing
}

// itemText is what an item's key is made of (keyOf): its scope's depth and
// headings (joined with NUL bytes, as keyOf joins them), subject and plan
// text as parsed.
type itemText struct {
	depth                    int
	scope, subject, planText string
}

// itemIDs are the numbered keys of plan's items at indexes items (-1: the
// key of no live item).
func (lk *liveKeys) itemIDs(plan *planparse.Plan, items []int) []int {
	out := make([]int, len(items))
	// The items before and after an edit have the texts they had in the
	// plan read last, and so its ids: comparing strings a kept part shares
	// is cheaper than hashing them (the lookups were a tenth of a
	// keystroke's analysis at 1,000 items, BenchmarkInProcessKeystroke/repo1000).
	last := lk.last
	lk.last.plan, lk.last.items, lk.last.ids = plan, items, out
	n, m := len(items), len(last.items)
	same := func(a, b int) bool {
		x, y := &plan.Items[items[a]], &last.plan.Items[last.items[b]]
		if x.Subject != y.Subject || x.PlanText != y.PlanText || !sameScope(x.Scope, y.Scope) {
			return false
		}
		out[a] = last.ids[b]
		return true
	}
	p, q := sameEnds(n, m, same)
	var scope []string
	joined := ""
	for j := p; j < n-q; j++ {
		it := &plan.Items[items[j]]
		if !sameScope(scope, it.Scope) {
			scope, joined = it.Scope, strings.Join(it.Scope, "\x00")
		}
		t := itemText{len(scope), joined, it.Subject, it.PlanText}
		id, ok := lk.texts[t]
		if !ok {
			if id, ok = lk.ids[keyOf(it.Scope, strings.TrimSpace(it.Subject), it.PlanText)]; !ok {
				id = -1
			}
			lk.texts[t] = id
		}
		out[j] = id
	}
	return out
}

// sameScope reports whether a and b are the same slice (the items of one
// section share theirs) or hold the same headings.
func sameScope(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) > 0 && &a[0] == &b[0] {
		return true
	}
	return slices.Equal(a, b)
}

// sameEnds is how many leading (p) and trailing (q) positions of two
// sequences of lengths n and m are the same by same(i, j), i indexing the
// first and j the second; p+q never exceeds min(n, m), so an edit's
// unchanged head and tail are never counted twice. same is called in
// order, head first, and may record the pairs it accepts.
func sameEnds(n, m int, same func(i, j int) bool) (p, q int) {
	for p < min(n, m) && same(p, p) {
		p++
	}
	for q < min(n, m)-p && same(n-1-q, m-1-q) {
		q++
	}
	return p, q
}
