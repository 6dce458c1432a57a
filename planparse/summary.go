package planparse

import "strings"

// workSummary reports whether s is the plan's work list written as a
// summary: its heading is a context label only through a modifier that is
// a work or check label itself ("Implementation summary", "Task
// overview"), its body is one numbered list of work with nothing under it,
// and no section of the plan is labelled as its work list. A numbered
// summary of the implementation is the work in short, the list a reader
// ticks off; an exact context label over a numbered list ("## Goal" and
// its objectives) stays context, and where a section is labelled as the
// work list ("## Changes") a numbered summary or order only restates it.
func (r *reader) workSummary(s *sec) bool {
	if r.anchorLabel || s.head < 0 || s.kind != kContext || len(s.kids) > 0 || s.boxes > 0 || s.rows > 0 ||
		s.ordered < 2 || s.ordered != s.plain || !workModified(s.label) {
		return false
	}
	var list *event
	for _, ev := range s.events {
		switch ev.kind {
		case evList:
			if list != nil {
				return false
			}
			list = ev
		case evFence, evTable:
			return false
		}
	}
	return list != nil && !referenceList(list)
}

// workModified reports whether a normalised label is a context label after
// modifiers of which one is a work or check label itself: "implementation
// summary", "test overview", not "key findings" or "summary".
func workModified(label string) bool {
	rest, work := label, false
	for {
		w, tail, ok := strings.Cut(rest, " ")
		if !ok || !modifierSet()[w] {
			break
		}
		work = work || labelKind(w).lists()
		rest = tail
	}
	return work && labelKind(rest) == kContext
}

// findSummary sets r.summary to the list of the plan's one work summary
// (workSummary) when that list names the work the plan's headings name
// (namesHeadings): the numbered step headings that say the same work again
// are then its details.
func (r *reader) findSummary() {
	r.summary = nil
	var list *event
	for _, s := range r.secs {
		if !r.workSummary(s) {
			continue
		}
		if list != nil {
			return // two summaries: neither is the one list
		}
		for _, ev := range s.events {
			if ev.kind == evList {
				list = ev
			}
		}
	}
	if r.namesHeadings(list, false) {
		r.summary = list
	}
}

// summed reports whether s, a numbered step without checkboxes, names work
// that an entry of the plan's work summary names too (restates): the same
// work stated twice counts once, in the summary that lists it.
func (r *reader) summed(s *sec) bool {
	return r.summary != nil && r.restates(s, r.summary, false)
}
