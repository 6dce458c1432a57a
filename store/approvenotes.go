package store

import (
	"fmt"
	"slices"
	"strings"

	"github.com/planls/planls/core"
)

// approvalNotes tells what a re-approval took away (field trial issue 2):
// by planls-rules.md an item whose scope, subject or planText changed is a new
// pending item and the old one is tombstoned, which silently drops progress.
// One line per tombstoned plan item that was completed, deferred or in
// progress, naming the new item that most likely took its place (see
// successors), and one per task that lost a blocker:
//
//	note: #4 "Add x" (completed; its evidence stays in the tombstone) left the approved plan (removed or reworded); the new item #6 starts pending
//	note: #8 no longer waits on #1 (removed from the plan)
func approvalNotes(old, next *core.State) []string {
	before := make(map[int]*core.Task, len(old.Tasks))
	for i := range old.Tasks {
		before[old.Tasks[i].ID] = &old.Tasks[i]
	}
	var removed, fresh []*core.Task
	for i := range next.Tasks {
		t := &next.Tasks[i]
		prev, had := before[t.ID]
		switch {
		case !had && t.Source == "plan":
			fresh = append(fresh, t)
		case had && prev.Source == "plan" && prev.Status != core.Deleted && t.Status == core.Deleted:
			removed = append(removed, prev)
		}
	}
	// Only closed or started items get a line (and a successor guess).
	var told []*core.Task
	for _, r := range removed {
		if r.Status == core.Completed || r.Status == core.Deferred || r.Status == core.InProgress {
			told = append(told, r)
		}
	}
	var notes []string
	succ := successors(told, fresh)
	for _, r := range told {
		var kept string
		switch r.Status {
		case core.Completed:
			kept = "completed; its evidence stays in the tombstone"
		case core.Deferred:
			kept = "deferred; its reason stays in the tombstone"
		default:
			kept = "in progress"
		}
		line := fmt.Sprintf("note: #%d %q (%s) left the approved plan (removed or reworded)", r.ID, clean(r.Subject), kept)
		if n := succ[r.ID]; n != nil {
			line += fmt.Sprintf("; the new item #%d starts pending", n.ID)
		}
		notes = append(notes, line)
	}
	gone := make(map[int]bool, len(removed))
	for _, r := range removed {
		gone[r.ID] = true
	}
	for i := range next.Tasks {
		t := &next.Tasks[i]
		prev, had := before[t.ID]
		if !had || t.Status == core.Deleted {
			continue
		}
		for _, d := range prev.BlockedBy {
			if gone[d] && !slices.Contains(t.BlockedBy, d) {
				notes = append(notes, fmt.Sprintf("note: #%d no longer waits on #%d (removed from the plan)", t.ID, d))
			}
		}
	}
	return notes
}

// successors guesses which new plan item is each removed one reworded, in
// falling order of confidence: the same subject, then one subject starting
// with the other (case-insensitive: "Add x" → "Add x and y"), then the same
// place in the plan. Each new item is named at most once; no guess, no entry.
func successors(removed, fresh []*core.Task) map[int]*core.Task {
	out := make(map[int]*core.Task, len(removed))
	if len(removed) == 0 || len(fresh) == 0 {
		return out
	}
	taken := make(map[int]bool, len(removed))
	claim := func(r, f *core.Task) {
		taken[f.ID], out[r.ID] = true, f
	}
	// Every tier works through maps or a sorted list, so a plan of
	// thousands of reworded items costs n log n, not n².
	bySubject := make(map[string][]*core.Task, len(fresh))
	byLower := make(map[string][]*core.Task, len(fresh))
	byOrder := make(map[int][]*core.Task, len(fresh))
	sorted := make([]lowered, 0, len(fresh))
	for _, f := range fresh {
		l := strings.ToLower(f.Subject)
		bySubject[f.Subject] = append(bySubject[f.Subject], f)
		byLower[l] = append(byLower[l], f)
		byOrder[f.PlanOrder] = append(byOrder[f.PlanOrder], f)
		if l != "" {
			sorted = append(sorted, lowered{l, f})
		}
	}
	slices.SortStableFunc(sorted, func(x, y lowered) int { return strings.Compare(x.s, y.s) })
	first := func(cands []*core.Task) *core.Task {
		for _, f := range cands {
			if !taken[f.ID] {
				return f
			}
		}
		return nil
	}
	for _, r := range removed {
		if f := first(bySubject[r.Subject]); f != nil {
			claim(r, f)
		}
	}
	for _, r := range removed {
		a := strings.ToLower(r.Subject)
		if out[r.ID] != nil || a == "" {
			continue
		}
		// A new subject that extends the old one ...
		i, _ := slices.BinarySearchFunc(sorted, a, func(x lowered, t string) int { return strings.Compare(x.s, t) })
		for ; i < len(sorted) && strings.HasPrefix(sorted[i].s, a); i++ {
			if !taken[sorted[i].t.ID] {
				claim(r, sorted[i].t)
				break
			}
		}
		// ... or one the old subject extends (longest first).
		for n := len(a) - 1; out[r.ID] == nil && n > 0; n-- {
			if f := first(byLower[a[:n]]); f != nil {
				claim(r, f)
			}
		}
	}
	for _, r := range removed {
		if out[r.ID] != nil || r.PlanOrder == 0 {
			continue
		}
		if f := first(byOrder[r.PlanOrder]); f != nil {
			claim(r, f)
		}
	}
	return out
}

// lowered is a new plan item under its lowercased subject.
type lowered struct {
	s string
	t *core.Task
}

// clean replaces control characters with spaces so a subject cannot drive
// the terminal or break a line of the result text.
func clean(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || (r >= 0x7F && r <= 0x9F) {
			return ' '
		}
		return r
	}, s)
}
