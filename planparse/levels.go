package planparse

// cousinSteps marks a numbered heading that is alone among its siblings as
// a step of a sequence when a section beside its parent holds numbered
// steps at the same level: "## Phase 2" with only "### 2.1 Import" is
// written as "## Phase 1" with "### 1.1" and "### 1.2" is, and the phases
// of one plan are read at one level.
func (r *reader) cousinSteps(roots []int) {
	for _, t := range r.secs {
		if t.form != fNumbered || t.numSeq || t.outline || t.parent < 0 {
			continue
		}
		p := r.secs[t.parent]
		sib := roots
		if p.parent >= 0 {
			sib = r.secs[p.parent].kids
		}
		for _, k := range sib {
			if q := r.secs[k]; q != p && r.stepsAt(q, t.level) {
				t.numSeq = true
				break
			}
		}
	}
}

// stepsAt reports whether a sub-section of q at heading level is a step of
// a sequence.
func (r *reader) stepsAt(q *sec, level int) bool {
	for _, k := range q.kids {
		if c := r.secs[k]; c.level == level && c.numSeq {
			return true
		}
	}
	return false
}

// outlineKids marks the numbered sub-sections of a section of the
// document's outline as part of that outline ("## 7. Data model" among
// "## 1. Executive summary", "## 6. Architecture", then "### 7.1
// Entities", "### 7.2 Key schema decisions"): numbering a chapter's
// sub-sections does not make them steps. Parents come before their
// sub-sections in r.secs, so an outline is followed down every level.
func (r *reader) outlineKids() {
	for _, t := range r.secs {
		if t.form != fNumbered || t.parent < 0 || !r.secs[t.parent].outline {
			continue
		}
		t.outline, t.numSeq = true, false
	}
}

// fieldCard reports whether a plain heading without sub-sections or
// checkboxes, whose body is a task card's fields ("**Description:** …",
// "**Implementation:**" and its bullets), is one item because a heading at
// its level beside it, or beside its parent, is a task heading that is one
// item ("#### U-1: Join command" next to "#### Channel pools"): the cards
// of one plan are written, and read, at one level.
func (r *reader) fieldCard(s *sec) bool {
	if s.head < 0 || s.kind != kPlain || s.form != fNone || len(s.kids) > 0 || s.subBoxes > 0 || !r.fields(s) {
		return false
	}
	task := func(t *sec) bool {
		return t != s && t.level == s.level && r.isTask(t) && len(t.kids) == 0 && t.boxes < 2
	}
	if s.parent < 0 {
		return false
	}
	p := r.secs[s.parent]
	for _, k := range p.kids {
		if task(r.secs[k]) {
			return true
		}
	}
	if p.parent < 0 {
		return false
	}
	for _, k := range r.secs[p.parent].kids {
		for _, c := range r.secs[k].kids {
			if task(r.secs[c]) {
				return true
			}
		}
	}
	return false
}

// outlineSpec reports whether a section is a chapter (or a chapter's
// section) of a numbered document outline that comes before the plan's
// first work list ("## 2. Data model", "### 2.1 Shifts", then "## 4.
// Plan"): the outline's chapters before the work are its specification,
// whether written as lists or as prose.
func (r *reader) outlineSpec(s *sec) bool {
	return s.outline && r.firstListed > 0 && s.idx < r.firstListed && s.subBoxes == 0 && !r.underAnchor(s)
}
