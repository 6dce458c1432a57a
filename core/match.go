package core

import (
	"strings"

	"github.com/planls/planls/planparse"
)

// matchPlan is MatchPlan: see api.go. Matching is in two passes:
//  1. exact key (scope, subject, planText): the k-th parsed item with a key
//     takes the k-th approved item with that key (in plan order), so
//     duplicate bullets each keep their own task;
//  2. the i-th still-unmatched parsed item takes the i-th still-unmatched
//     approved item (plan order) as Changed; the rest are New.
//
// Items with a blank subject are not plan items and get no entry.
func matchPlan(in *State, plan *planparse.Plan) ([]ItemMatch, []int) {
	st := sortedView(in)
	var approved []*Task // live plan items in plan order
	for _, t := range displayOrder(st) {
		if !t.isPlan() || t.Status == Deleted {
			break
		}
		approved = append(approved, t)
	}
	byKey := make(map[itemKey][]int, len(approved)) // key → indexes into approved, in order
	for i, t := range approved {
		k := taskKey(t)
		byKey[k] = append(byKey[k], i)
	}
	used := make([]bool, len(approved))
	items := usableItems(plan)
	matches := make([]ItemMatch, len(items))
	var unmatched []int // indexes into matches
	for m, i := range items {
		it := &plan.Items[i]
		matches[m] = ItemMatch{Item: i, Kind: New}
		k := keyOf(it.Scope, strings.TrimSpace(it.Subject), it.PlanText)
		if q := byKey[k]; len(q) > 0 {
			matches[m].TaskID, matches[m].Kind = approved[q[0]].ID, Same
			used[q[0]] = true
			byKey[k] = q[1:]
			continue
		}
		unmatched = append(unmatched, m)
	}
	var free []int
	for i := range approved {
		if !used[i] {
			free = append(free, i)
		}
	}
	for n, m := range unmatched {
		if n >= len(free) {
			break
		}
		matches[m].TaskID, matches[m].Kind = approved[free[n]].ID, Changed
		used[free[n]] = true
	}
	var missing []int
	for i, t := range approved {
		if !used[i] {
			missing = append(missing, t.ID)
		}
	}
	return matches, missing
}
