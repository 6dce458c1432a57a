package core

import (
	"fmt"
	"sort"
	"strings"
)

// validate is Validate: see api.go. It never changes st. Errors make the
// state unusable (a store must refuse it, todo-behaviour.md §8); warnings
// describe damage that is reported but kept (field failure B13).
func validate(st *State) (errs []string, warnings []string) {
	if st == nil {
		return []string{"state is missing"}, nil
	}
	if st.Version > SchemaVersion {
		errs = append(errs, fmt.Sprintf("state version %d is newer than this planls understands (%d)", st.Version, SchemaVersion))
	}
	seen := map[int]bool{}
	maxID := 0
	for i := range st.Tasks {
		t := &st.Tasks[i]
		if t.ID < 1 {
			errs = append(errs, fmt.Sprintf("task id %d is below 1", t.ID))
		}
		if seen[t.ID] {
			errs = append(errs, fmt.Sprintf("duplicate task id #%d", t.ID))
		}
		seen[t.ID] = true
		if t.ID > maxID {
			maxID = t.ID
		}
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
