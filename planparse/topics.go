package planparse

import (
	"strings"
	"unicode"
)

// Labels as words of a topic. The seed's context labels match as a prefix
// at a word boundary, so "Summary of the work" and "Notes for reviewers"
// are context, and so, by that rule alone, are "Context management &
// session lifecycle" and "Default template updates", where the label is an
// adjective of the noun after it. Structure decides between the two: such
// a heading is a topic of the plan's work, not context, when the section
// has sub-sections that are no labels (its own topics), or when it stands
// among sibling topics under a section that is work. A heading that is the
// label, or the label and a qualifier, stays a label whatever is under it.

// seedWeak reports whether text matches a seed context label only as a
// prefix followed by a word that is no qualifier: "Context management",
// "Context-size warning", but not "Summary", "Summary: the work", "Notes
// on rollout" or "Risks and mitigations".
func seedWeak(text string) bool {
	l := seedLabel(text)
	if l == "" {
		return false
	}
	rest := stripLabelNumber(removeEmphasis(text))[len(l):]
	if strings.TrimSpace(rest) == "" {
		return false
	}
	lower := strings.ToLower(rest)
	for _, q := range qualifiers {
		if strings.HasPrefix(lower, q) {
			return false
		}
	}
	// "(…)", ":", "—" after the label qualify it too.
	t := strings.TrimLeft(lower, " ")
	return t != "" && isWordByte(t[0]) || strings.HasPrefix(lower, "-") && len(lower) > 1 && isWordByte(lower[1])
}

// topicLabels makes a weak label's section plain when its structure says
// it is a topic of the work (see above). Sections are read parents first,
// so a weak label among the sub-sections of one just made plain is read as
// its sibling topics are.
func (r *reader) topicLabels() {
	for _, s := range r.secs {
		if s.later && s.kind == kExclude && (r.datedHorizon(s) || r.sequelPhases(s)) {
			s.kind, s.later = kPlain, false
			continue
		}
		if !s.weak || s.kind == kPlain {
			continue
		}
		if r.ownTopics(s) || r.amongTopics(s) {
			s.kind, s.field = kPlain, fieldWords[s.label]
		}
	}
}

// ownTopics: s has sub-sections, and none of them is a label but a weak
// one.
func (r *reader) ownTopics(s *sec) bool {
	if len(s.kids) == 0 {
		return false
	}
	for _, k := range s.kids {
		if t := r.secs[k]; t.kind != kPlain && !t.weak {
			return false
		}
	}
	return true
}

// amongTopics: s sits under a section below the title that is no label,
// beside a sibling that is no label either.
func (r *reader) amongTopics(s *sec) bool {
	p := r.parentOf(s)
	if p == nil || r.top(p) || p.kind != kPlain {
		return false
	}
	for _, k := range p.kids {
		if t := r.secs[k]; t != s && t.kind == kPlain && !t.weak {
			return true
		}
	}
	return false
}

// ledTopic: a plain heading without sub-sections whose every list is led
// in by a sentence of its own prose ("… What to add:") names one piece of
// work, and the list is its details.
func (r *reader) ledTopic(s *sec) bool {
	return s.head >= 0 && s.kind == kPlain && s.form == fNone && len(s.kids) == 0 && s.boxes == 0 && s.rows == 0 &&
		s.plain > 0 && s.freeLists == 0 && s.leadIns == 0 && r.proseParagraphs(s) > 0
}

// ledFile: a file heading ("[NEW] api/tokens/") without sub-sections
// whose every list is bulleted and led in by a paragraph of its own ("Create
// the module:") names one change to that file, and the list specifies it;
// bullets written straight under the heading, or numbered steps, are the
// changes themselves.
func (r *reader) ledFile(s *sec) bool {
	return s.head >= 0 && s.form == fFile && s.restK != kExclude && len(s.kids) == 0 && s.boxes == 0 && s.rows == 0 &&
		s.plain > 0 && s.ordered == 0 && s.freeLists == 0
}

// datedHorizon: every top-level entry of the section's lists (two or
// more) names when it is planned, a quarter, a half or a year ("French -
// Q3 2025", "Portuguese (2026)"): what a "Future …" heading holds is then
// a release horizon of the plan, work like its other phases.
func (r *reader) datedHorizon(s *sec) bool {
	if len(s.kids) > 0 {
		return false
	}
	n := 0
	for _, ev := range s.events {
		if ev.kind != evList {
			continue
		}
		for i := range ev.entries {
			e := &ev.entries[i]
			if e.empty {
				continue
			}
			if !namesDate(e.item.Subject) {
				return false
			}
			n++
		}
	}
	return n >= 2
}

// sequelPhases: every sub-section of a "Future …" section is a numbered
// phase, sprint or milestone ("### Sprint 2: …") of a kind the plan also
// has outside it ("### Sprint 1" under "## Completed sprints"): the
// section holds the rest of the plan's own sequence, work like the phases
// before it.
func (r *reader) sequelPhases(s *sec) bool {
	if len(s.kids) == 0 {
		return false
	}
	words := map[string]bool{}
	for _, k := range s.kids {
		w := r.phaseWord(r.secs[k])
		if w == "" {
			return false
		}
		words[w] = true
	}
	for _, t := range r.secs {
		if t != s && !r.under(t, s) && words[r.phaseWord(t)] {
			return true
		}
	}
	return false
}

// phaseWord is the task or group word a heading numbers ("sprint" of
// "Sprint 2: Polish"), or "".
func (r *reader) phaseWord(t *sec) string {
	if t.head < 0 {
		return ""
	}
	id := strings.TrimPrefix(taskID(r.plan.Headings[t.head].Text), "\x00")
	w, _, _ := strings.Cut(id, " ")
	return w
}

// under reports whether t is inside section s.
func (r *reader) under(t, s *sec) bool {
	for p := r.parentOf(t); p != nil; p = r.parentOf(p) {
		if p == s {
			return true
		}
	}
	return false
}

// namesDate reports whether s holds a year from 2000 to 2099 or a quarter
// or half ("Q3", "H2") as a word of its own.
func namesDate(s string) bool {
	for w := range strings.FieldsFuncSeq(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		switch {
		case len(w) == 4 && strings.HasPrefix(w, "20") && digits(w, 0) == 4:
			return true
		case len(w) == 2 && (w[0] == 'Q' || w[0] == 'q') && w[1] >= '1' && w[1] <= '4',
			len(w) == 2 && (w[0] == 'H' || w[0] == 'h') && (w[1] == '1' || w[1] == '2'):
			return true
		}
	}
	return false
}
