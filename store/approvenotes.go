package store

import (
	"fmt"
	"slices"
	"strings"

	"github.com/planls/planls/core"
)

// approvalNotes tells what a re-approval took away:
// an item whose scope, subject or planText changed is a new
// pending item and the old one is tombstoned, which silently drops progress.
// One line per plan item restored from its tombstone (its approved text is
// back; core.PreviewApproval); one per tombstoned plan item that was
// completed, deferred or in progress; when another plan file replaced the
// approved one (replaced), one naming the pending plan items that left with
// it (up to maxNamed, then how many more), which keep nothing but were
// still owed, so an agent's new plan cannot drop them unseen (a reworded
// pending item of the same file is the author's own edit, and goes without
// a note); one listing the open plan items an emptied plan removed
// (only approve --force can approve one over live items); and one per task
// that lost a blocker:
//
//	note: #4 "Add x" is back in the approved plan (completed; its evidence restored): the plan has its approved text again
//	note: #4 "Add x" (completed; its evidence stays in the tombstone) left the approved plan (removed, reworded or moved to another heading)
//	note: 2 pending plan items left the approved plan (PLAN.md was replaced by NEW.md): #5 "Add y", #6 "Add z"
//	note: 2 open plan items were removed by --force: #1, #2
//	note: #8 no longer waits on #1 (removed from the plan)
//
// It names no replacing item: a guess by subject or place named the wrong
// one, and a wrong name is worse than none.
func approvalNotes(old, next *core.State, why string, replaced bool) []string {
	before := make(map[int]*core.Task, len(old.Tasks))
	for i := range old.Tasks {
		before[old.Tasks[i].ID] = &old.Tasks[i]
	}
	var removed []*core.Task
	var notes []string
	for i := range next.Tasks {
		t := &next.Tasks[i]
		prev, had := before[t.ID]
		if !had || prev.Source != "plan" {
			continue
		}
		switch {
		case prev.Status != core.Deleted && t.Status == core.Deleted:
			removed = append(removed, prev)
		case prev.Status == core.Deleted && t.Status != core.Deleted:
			notes = append(notes, restoredNote(t))
		}
	}
	var open, pending []string
	for _, r := range removed {
		kept := LeftState(r.Status)
		if r.Status.Open() {
			open = append(open, fmt.Sprintf("#%d", r.ID))
		}
		if r.Status == core.Pending {
			pending = append(pending, fmt.Sprintf("#%d %q", r.ID, core.NoControls(r.Subject)))
		} else {
			notes = append(notes, fmt.Sprintf("note: #%d %q (%s) left the approved plan (%s)", r.ID, core.NoControls(r.Subject), kept, why))
		}
	}
	_, live := core.PlanCounts(next)
	if replaced && len(pending) > 0 && live > 0 {
		named := pending[:min(len(pending), maxNamed)]
		more := ""
		if n := len(pending) - len(named); n > 0 {
			more = fmt.Sprintf(" and %d more", n)
		}
		notes = append(notes, fmt.Sprintf("note: %s left the approved plan (%s): %s%s", core.CountNoun(len(pending), "pending plan item"), why, strings.Join(named, ", "), more))
	}
	if len(open) > 0 && live == 0 {
		verb := "were"
		if len(open) == 1 {
			verb = "was"
		}
		notes = append(notes, fmt.Sprintf("note: %s %s removed by --force: %s", core.CountNoun(len(open), "open plan item"), verb, strings.Join(open, ", ")))
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

// maxNamed is how many pending plan items that left a plan one note names.
const maxNamed = 5

// LeftState says what a plan item of status s keeps when an approval
// removes it from the plan ("completed; its evidence stays in the
// tombstone"); a pending item's is "pending", as it keeps nothing.
func LeftState(s core.Status) string {
	switch s {
	case core.Completed:
		return "completed; its evidence stays in the tombstone"
	case core.Deferred:
		return "deferred; its reason stays in the tombstone"
	}
	return strings.ReplaceAll(string(s), "_", " ")
}

// restoredNote is approvalNotes' line for a plan item t that a
// re-approval brought back from its tombstone.
func restoredNote(t *core.Task) string {
	return fmt.Sprintf("note: #%d %q is back in the approved plan (%s): the plan has its approved text again", t.ID, core.NoControls(t.Subject), restoredState(t.Status))
}

// restoredState says what a restored plan item came back with.
func restoredState(s core.Status) string {
	switch s {
	case core.Completed:
		return "completed; its evidence restored"
	case core.Deferred:
		return "deferred; its reason restored"
	}
	return string(s)
}
