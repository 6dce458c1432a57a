package planparse

import "strings"

// areaOutline reports whether a list is an outline of areas written without
// colons ("- Backend" over its tasks, "- **Frontend**" over its tasks, "1.
// Form state" over its tasks): it holds no box, two entries or more have
// nested bullets, and each of those is a short name (four words at most, no
// sentence punctuation, no code) whose bullets say more than it does (on
// average two words more, and three words at least). Then each such entry
// only names where its bullets belong, and the bullets are the work (rule
// 10); an entry without bullets of its own beside them is a task of its
// own ("- Make the help window resizable"). A parent whose bullets are as
// short as it is ("- Add animation" over the weapons it covers) names a
// feature they specify, and then the list is a task list. In a numbered
// list the names are written plain: a numbered entry in bold ("1. **Cache
// the counts**") is the title of a step that its bullets detail.
func areaOutline(ev *event) bool {
	parents := 0
	for i := range ev.entries {
		e := &ev.entries[i]
		if e.empty {
			continue
		}
		if e.box {
			return false
		}
		if !e.hasKids() {
			continue
		}
		words, ok := areaName(e.item.Subject)
		if !ok || ev.ordered && strings.ContainsAny(e.item.Subject, "*_") || !longerKids(e, words) {
			return false
		}
		parents++
	}
	return parents >= 2
}

// areaName returns the number of words of a subject that can be the name
// of an area: at most four words once emphasis and a closing colon are
// removed, with no code, link, path or sentence punctuation.
func areaName(subject string) (int, bool) {
	t := strings.TrimRight(removeEmphasis(subject), ":： \t")
	if t == "" || strings.ContainsAny(subject, "`[]()/.,;!?") {
		return 0, false
	}
	n := len(strings.Fields(t))
	return n, n <= 4
}

// longerKids reports whether the bullets nested in e average at least two
// words more than e's own subject, and three words or more: they state
// the work that e names the place of.
func longerKids(e *entry, words int) bool {
	n, sum := 0, 0
	for i := range e.kids {
		k := &e.kids[i]
		if k.empty || k.box {
			continue
		}
		n++
		sum += len(strings.Fields(removeEmphasis(k.item.Subject)))
	}
	return n > 0 && sum >= n*3 && sum >= n*(words+2)
}

// boxGroup reports whether e is a plain entry whose nested entries are all
// checkboxes ("- Backend" over "- [ ] Add the rate limiter"): the boxes are
// what the plan ticks off, so they are the items and e only groups them,
// as a heading over checkboxes does. A box is an item unless it is nested
// under another item, and a plain entry over boxes is not one.
func boxGroup(e *entry) bool {
	if e.box || !e.hasKids() {
		return false
	}
	n := 0
	for i := range e.kids {
		k := &e.kids[i]
		if k.empty {
			continue
		}
		if !k.box {
			return false
		}
		n++
	}
	return n > 0
}

// addKids adds the entries nested in e, but not the ones that forbid ("Do
// not …" is a rule, not work).
func (r *reader) addKids(s *sec, ev *event, e *entry) {
	for i := range e.kids {
		if k := &e.kids[i]; !k.empty && !isDoNot(k.item.Subject) {
			r.add(s, ev.item(k))
		}
	}
}
