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
// progress, naming the new item that took its place when one did (same
// subject, else same position), and one per task that lost a blocker:
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
	var notes []string
	taken := map[int]bool{}
	for _, r := range removed {
		var kept string
		switch r.Status {
		case core.Completed:
			kept = "completed; its evidence stays in the tombstone"
		case core.Deferred:
			kept = "deferred; its reason stays in the tombstone"
		case core.InProgress:
			kept = "in progress"
		default:
			continue
		}
		line := fmt.Sprintf("note: #%d %q (%s) left the approved plan (removed or reworded)", r.ID, clean(r.Subject), kept)
		if n := successor(r, fresh, taken); n != nil {
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

// successor is the new plan item most likely to be r reworded: one with the
// same subject, else one at r's place in the plan; each is named once.
func successor(r *core.Task, fresh []*core.Task, taken map[int]bool) *core.Task {
	for _, f := range fresh {
		if !taken[f.ID] && f.Subject == r.Subject {
			taken[f.ID] = true
			return f
		}
	}
	for _, f := range fresh {
		if !taken[f.ID] && r.PlanOrder > 0 && f.PlanOrder == r.PlanOrder {
			taken[f.ID] = true
			return f
		}
	}
	return nil
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
