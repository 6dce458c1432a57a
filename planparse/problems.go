package planparse

import (
	"sort"
	"strings"
)

// Problem codes (docs/PROTOCOL.md diagnostics).
const (
	// CodeEmptyItem: a top-level list item without subject text is not a plan
	// item (docs/PLAN-FORMAT.md).
	CodeEmptyItem = "empty-item"
	// CodeDuplicateItem: two or more items share heading path, subject and
	// planText, so no state can tell them apart. Each is
	// still an item, and each gets the problem.
	CodeDuplicateItem = "duplicate-item"
)

const (
	emptyItemMessage     = "empty list item: it has no text, so it is not a plan item"
	duplicateItemMessage = "duplicate plan item: another item under the same headings has the same text"
)

// duplicateProblems returns one duplicate-item problem, on the item's Line,
// for every item whose scope, subject and planText equal another item's.
func duplicateProblems(items []Item) []Problem {
	type key struct {
		scope             int
		subject, planText string
	}
	// Scope slices are shared per section, so joining once per slice keeps
	// this linear in the input.
	bySlice := map[*string]int{}
	byPath := map[string]int{}
	scopeID := func(sc []string) int {
		if len(sc) == 0 {
			return 0
		}
		if id, ok := bySlice[&sc[0]]; ok {
			return id
		}
		path := strings.Join(sc, "\x00")
		id, ok := byPath[path]
		if !ok {
			id = len(byPath) + 1
			byPath[path] = id
		}
		bySlice[&sc[0]] = id
		return id
	}
	// Most subjects are unique, and a short key is cheap to hash: only items
	// whose subject occurs more than once need the full key.
	bySubject := make(map[string]int32, len(items))
	for i := range items {
		bySubject[items[i].Subject]++
	}
	if len(bySubject) == len(items) {
		// The usual plan, re-checked on every keystroke: no subject twice.
		return nil
	}
	keys := make([]key, len(items))
	var count map[key]int
	for i := range items {
		if bySubject[items[i].Subject] < 2 {
			continue
		}
		if count == nil {
			count = map[key]int{}
		}
		keys[i] = key{scopeID(items[i].Scope), items[i].Subject, items[i].PlanText}
		count[keys[i]]++
	}
	var out []Problem
	for i := range items {
		if count != nil && bySubject[items[i].Subject] > 1 && count[keys[i]] > 1 {
			out = append(out, Problem{Code: CodeDuplicateItem, Message: duplicateItemMessage, Range: items[i].Line})
		}
	}
	return out
}

// sortProblems orders problems by position, keeping the order of equal ones.
func sortProblems(p []Problem) {
	sort.SliceStable(p, func(i, j int) bool { return p[i].Range.Start < p[j].Range.Start })
}
