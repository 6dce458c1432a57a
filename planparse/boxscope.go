package planparse

import (
	"slices"
	"strings"
	"unicode"
)

// Checkbox scope: checkboxes say how a part of the plan tracks its work,
// not the whole plan. In a plan whose work is mostly checkboxes, a section
// that holds none, whose sibling sections hold none either, and whose body
// is a numbered list (or that is a group heading over a plain list) is a
// list of work written in the other dialect ("### Stage 2" over numbered
// bold items, beside a Definition of Done written as boxes). It is tracked
// as a bullet plan tracks it, unless its entries restate what the plan's
// checkboxes or headings already say (a two-week schedule of the boxes of
// a phase, a priority summary of the plan's own task headings): the same
// work counts once, where it is ticked off.

// plainWorkInBoxPlan reports whether s is such a section of plain work in
// a checkbox plan.
func (r *reader) plainWorkInBoxPlan(s *sec) bool {
	if s.head < 0 || s.boxes > 0 || s.subBoxes > 0 || len(s.kids) > 0 || s.plain < 2 || s.kind != kPlain {
		return false
	}
	if s.ordered < 2 && !r.grouping(s) || s.freeLists == 0 || r.hasKind(s, func(ev *event) bool { return ev.kind == evList && labelledList(ev) }) {
		return false // a list led in as details ("Key steps:"), or rules written as fields
	}
	// The sibling group: the sections beside s under one heading, or at
	// the top level the group headings beside a group heading ("## Phase
	// 2" beside "## Phase 1"); a plain list at the top that is no group's
	// says how to go on after the boxes.
	var group []*sec
	p := r.parentOf(s)
	atTop := p == nil || r.top(p)
	if atTop && !r.grouping(s) {
		return false
	}
	for _, t := range r.secs {
		if t.head < 0 || r.parentOf(t) != p || atTop && (t.level != s.level || !r.grouping(t)) {
			continue
		}
		if t.boxes > 0 || t.subBoxes > 0 {
			return false // the group tracks its work with checkboxes
		}
		group = append(group, t)
	}
	return !r.restatesWork(group)
}

// restatesWork reports whether half or more of the top-level plain
// entries of a sibling group of sections say again what a checkbox or a
// heading outside the group says: two of their words or more in common,
// or all of them when an entry has only one word that counts. The group is
// judged as one: the strategies of one plan restate its phases, though
// one of them may not name them.
func (r *reader) restatesWork(group []*sec) bool {
	var others [][]string
	for _, t := range r.secs {
		if slices.Contains(group, t) || r.inChecks(t) {
			continue // criteria restate the work by design: both count
		}
		if t.head >= 0 && !r.top(t) {
			others = append(others, contentWords(r.plan.Headings[t.head].Text))
		}
		for _, ev := range t.events {
			if ev.kind != evList {
				continue
			}
			for i := range ev.entries {
				if e := &ev.entries[i]; e.box {
					others = append(others, contentWords(e.item.Subject))
				}
			}
		}
	}
	n, same := 0, 0
	for _, s := range group {
		for _, ev := range s.events {
			if ev.kind != evList {
				continue
			}
			for i := range ev.entries {
				e := &ev.entries[i]
				if e.empty || e.box {
					continue
				}
				n++
				ws := contentWords(e.item.Subject)
				for _, o := range others {
					if c := shared(ws, o); c >= 2 || c == 1 && len(ws) == 1 {
						same++
						break
					}
				}
			}
		}
	}
	return n > 0 && same*2 >= n
}

// shared counts the words of a that b holds too.
func shared(a, b []string) int {
	c := 0
	for _, w := range a {
		if slices.Contains(b, w) {
			c++
		}
	}
	return c
}

// contentWords returns the words of s that name something, lower case and
// singular: words of three letters or more (two for CJK and hangul), not
// a common function word nor a verb that every task starts with.
func contentWords(s string) []string { return appendWords(nil, plainTitle(s)) }

// appendWords appends the content words (contentWords) of a subject's
// plain text (plainTitle) to dst.
func appendWords(dst []string, plain string) []string {
	for w := range strings.FieldsFuncSeq(strings.ToLower(plain), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if len([]rune(w)) < 2 || !hasCJK(w) && len(w) < 3 || commonWords[w] {
			continue
		}
		if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
			w = w[:len(w)-1]
		}
		dst = append(dst, w)
	}
	return dst
}

// commonWords are English function words and the verbs tasks start with:
// sharing them says nothing about sharing the work.
var commonWords = map[string]bool{
	"the": true, "and": true, "for": true, "with": true, "from": true, "into": true, "all": true,
	"add": true, "implement": true, "create": true, "build": true, "make": true, "set": true,
	"update": true, "write": true, "use": true, "support": true, "new": true, "via": true, "per": true,
}

// labelledList reports whether most entries of a list (two thirds) start
// with a bold label ending in a colon ("**Faders:** always send both"), or
// are code or a path: rules or reference written as fields, not steps.
func labelledList(ev *event) bool { return mostlyReference(ev, false) }
