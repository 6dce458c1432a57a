package core

import (
	"fmt"
	"sort"
	"strings"
)

// Validate checks a state read from disk (all-or-nothing, the seed's replay rules):
// errors are fatal shape problems that make the state unusable (duplicate
// ids, ids below 1, unknown statuses, nextId not above every id, plan items
// without a subject, a newer schema version); a store must refuse it.
// Warnings are damage reported but kept: dangling
// blockedBy ("#1: blockedBy #5 not found") and cycles ("cycle: #2 → #3 → #2").
// st is not changed.
func Validate(st *State) (errs []string, warnings []string) {
	if st == nil {
		return []string{"state is missing"}, nil
	}
	if st.Version > SchemaVersion {
		errs = append(errs, fmt.Sprintf("state version %d is newer than this planls understands (%d)", st.Version, SchemaVersion))
	}
	seen := map[int]bool{}
	first := map[int]int{} // id → index of its first entry
	maxID := 0
	for i := range st.Tasks {
		if id := st.Tasks[i].ID; id > maxID {
			maxID = id
		}
	}
	freeID := max(st.NextID, maxID+1) // ids suggested for duplicates, in turn
	uids := map[string]int{}          // uid → id of its first task
	for i := range st.Tasks {
		t := &st.Tasks[i]
		// Merges match tasks by uid: two tasks with one uid would merge into one.
		// (A duplicated id is reported as such: one copied record has both.)
		if other, dup := uids[t.UID]; dup && t.UID != "" && other != t.ID {
			errs = append(errs, fmt.Sprintf("#%d has the uid of #%d (%s), which is each task's own: delete the uid line of the one that is a copy (planls then gives it one)", t.ID, other, t.UID))
		} else if t.UID != "" {
			uids[t.UID] = t.ID
		}
		if t.ID < 1 {
			errs = append(errs, fmt.Sprintf("task id %d is below 1", t.ID))
		}
		if seen[t.ID] {
			errs = append(errs, duplicateError(st, first[t.ID], i, freeID))
			freeID++
		} else {
			first[t.ID] = i
		}
		seen[t.ID] = true
		if !validStatus(t.Status) {
			errs = append(errs, fmt.Sprintf("#%d: unknown status %q", t.ID, t.Status))
		}
		if t.isPlan() && strings.TrimSpace(t.Subject) == "" {
			errs = append(errs, fmt.Sprintf("#%d: plan item without a subject", t.ID))
		}
	}
	if st.NextID <= maxID || st.NextID < 1 {
		errs = append(errs, fmt.Sprintf("nextId %d is not above every task id (highest is #%d)", st.NextID, maxID))
	}
	for i := range st.Tasks {
		t := &st.Tasks[i]
		for _, d := range t.BlockedBy {
			if !seen[d] {
				warnings = append(warnings, fmt.Sprintf("#%d: blockedBy #%d not found", t.ID, d))
			}
		}
	}
	view := st
	if len(errs) == 0 {
		view = sortedView(st)
	} else {
		// Duplicate ids make lookups ambiguous; walk the first of each.
		view = cloneState(st)
		sort.SliceStable(view.Tasks, func(i, j int) bool { return view.Tasks[i].ID < view.Tasks[j].ID })
	}
	for _, c := range findCycles(view, 100) {
		warnings = append(warnings, "cycle: "+idList(c, " → "))
	}
	return errs, warnings
}

// duplicateError names both entries of a duplicated id (a merge of two
// branches that each added a task gives them the same id) by position and
// subject, and says how to keep both: give the later entry the free id
// newID and move nextId past it. Positions are 0-based indexes into "tasks".
func duplicateError(st *State, a, b, newID int) string {
	ta, tb := &st.Tasks[a], &st.Tasks[b]
	return fmt.Sprintf("duplicate task id #%d: tasks[%d] %q and tasks[%d] %q; to keep both, set the \"id\" of tasks[%d] to %d and \"nextId\" to at least %d",
		ta.ID, a, ta.Subject, b, tb.Subject, b, newID, newID+1)
}
