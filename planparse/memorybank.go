package planparse

import "strings"

// Cline's memory bank keeps a progress.md written to one template: "What
// works", "What's left to build", "Current status", "Known issues" (and
// "Evolution of project decisions"). Read as an ordinary plan, its first
// section is a list of things that already work: a log of landed work, not
// work to do, while the second is the plan's open work. A plan is
// in that layout when it has both of the template's first two headings;
// then "What works" and "Evolution of project decisions" are records of
// what was done and decided, and "What's left to build" is read as the
// work it is.

// memoryWorks and memoryLeft are the normalised labels of the template's
// first two headings; memoryRecords are the template's sections that
// record the past.
const memoryWorks = "what works"

var memoryRecords = map[string]bool{memoryWorks: true, "evolution of project decisions": true}

var memoryLeft = map[string]bool{"what's left to build": true, "what is left to build": true, "what's left": true}

// memoryLabel is a section label with a typographic apostrophe written as
// an ASCII one.
func memoryLabel(s *sec) string { return strings.ReplaceAll(s.label, "’", "'") }

// memoryBank reports whether the plan is a memory bank's progress file: a
// "What works" heading and a "What's left to build" heading.
func (r *reader) memoryBank() bool {
	if r.memBank == 0 {
		works, left := false, false
		for _, s := range r.secs {
			if s.head < 0 {
				continue
			}
			l := memoryLabel(s)
			works = works || l == memoryWorks
			left = left || memoryLeft[l]
		}
		r.memBank = 2
		if works && left {
			r.memBank = 1
		}
	}
	return r.memBank == 1
}

// memoryDone reports whether s is a memory bank's record of the past: what
// already works, how its decisions evolved.
func (r *reader) memoryDone(s *sec) bool {
	return s.head >= 0 && memoryRecords[memoryLabel(s)] && r.memoryBank()
}
