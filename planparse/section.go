package planparse

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

// sec is one heading's section (or the part before the first heading): the
// events up to the next heading, and what its heading and body say, so that
// one decision per section (decide.go) can be made from facts, not from the
// order of branches.
type sec struct {
	idx    int // index into reader.secs
	head   int // index into plan.Headings; -1 before any heading
	level  int // 0 before any heading
	parent int // index into reader.secs; -1 for none
	kids   []int
	events []*event
	scope  []string
	group  string
	ownEnd int // the 0-based line of the next heading (or the line count)
	end    int // the 0-based line after the section's subtree

	// What the heading says: said is what its text says, the section's
	// own when the heading is not the title (facts).
	headFacts
	said    *headFacts
	ov      override
	numSeq  bool // a numbered heading with a numbered sibling: a step of a sequence
	outline bool // a numbered heading among numbered labels: the document's outline

	// What its own body holds (top-level blocks only).
	boxes, plain, ordered int // list entries: with a box, without one; in numbered lists
	rows                  int // task-table rows
	statusRows            int // of them, rows of tables with a status column
	steps                 int // rows of numbered tables that are no task tables
	leadIns               int // field paragraphs ("**Files:**", "Steps:", "**Why:** …")
	// freeLists: lists not led in by a paragraph ending in ':' or by a
	// bold field and its value on the line above (fieldValue).
	freeLists    int
	fieldBullets int // bullets that are fields ("**Files:** a.go")
	// statements: lists whose sentence goes on in the paragraph right after
	// them ("- /api/health", "- /api/songs", then "を実装する。"; "- the
	// parser", then "are ported first."): the list names one piece of work.
	statements int
	content    bool

	// What its subtree holds, sub-sections included.
	subBoxes int

	// The decision.
	act  act
	why  string
	hard bool // skipped, and so is everything under it
}

// sections groups the events by heading (rule 2) and records the headings.
func (r *reader) sections(x *extract) {
	// The sections, their events (each section's are a run of x.events)
	// and the heading tables are made once, at their size: grown section
	// by section they were a twentieth of a keystroke's bytes at 1,000
	// items (BenchmarkInProcessKeystroke/repo1000).
	n := 0
	for i := range x.events {
		if x.events[i].kind == evHeading {
			n++
		}
	}
	pool := make([]sec, n+1)
	pool[0] = sec{head: -1, parent: -1}
	r.secs = append(make([]*sec, 0, n+1), &pool[0])
	if n > 0 {
		r.plan.Headings = make([]Heading, 0, n)
		r.textRanges, r.lineEnds = make([]Range, 0, n), make([]int, 0, n)
	}
	evs := make([]*event, len(x.events))
	from := 0 // where the events of the last section so far start
	own := func(to int) {
		if to > from {
			r.secs[len(r.secs)-1].events = evs[from:to:to]
		}
	}
	var stack []int // open sections, outermost first
	var scope []string
	var levels []int
	for i := range x.events {
		ev := &x.events[i]
		evs[i] = ev
		if ev.kind != evHeading {
			continue
		}
		own(i)
		from = i + 1
		h := ev.head
		for len(stack) > 0 && (h.Level == 1 || r.secs[stack[len(stack)-1]].level >= h.Level) {
			stack = stack[:len(stack)-1]
		}
		if h.Level == 1 {
			r.level1++
			scope, levels = nil, nil
		} else {
			for len(levels) > 0 && levels[len(levels)-1] >= h.Level {
				levels, scope = levels[:len(levels)-1], scope[:len(scope)-1]
			}
			levels = append(levels, h.Level)
			scope = append(scope[:len(scope):len(scope)], h.Text)
		}
		s := &pool[len(r.secs)]
		*s = sec{idx: len(r.secs), head: len(r.plan.Headings), level: h.Level, parent: -1, scope: scope, said: ev.said}
		if len(scope) > 0 {
			s.group = scope[len(scope)-1]
		}
		if len(stack) > 0 {
			s.parent = stack[len(stack)-1]
			p := r.secs[s.parent]
			p.kids = append(p.kids, s.idx)
		}
		r.plan.Headings = append(r.plan.Headings, h)
		r.textRanges = append(r.textRanges, ev.textRange)
		r.lineEnds = append(r.lineEnds, ev.lineEnd)
		stack = append(stack, len(r.secs))
		r.secs = append(r.secs, s)
	}
	own(len(x.events))
}

// facts fills in what each section's heading and body say.
func (r *reader) facts() {
	// Where each section's own body and its subtree end: at the next
	// heading, and at the next heading of the same or a higher level.
	var open []*sec
	for i, s := range r.secs {
		s.ownEnd, s.end = r.ln.count(), r.ln.count()
		if i+1 < len(r.secs) {
			s.ownEnd = r.headLine(r.secs[i+1])
		}
		if s.level == 0 {
			s.end = s.ownEnd
			continue
		}
		for len(open) > 0 && open[len(open)-1].level >= s.level {
			open[len(open)-1].end = r.headLine(s)
			open = open[:len(open)-1]
		}
		open = append(open, s)
	}
	for _, s := range r.secs {
		var prev *event
		for _, ev := range s.events {
			if ev.override != noOverride {
				s.ov = ev.override
			}
			r.bodyFacts(s, ev, prev)
			if ev.kind != evComment {
				prev = ev
			}
		}
		if s.head < 0 {
			continue
		}
		// A level-1 heading is the title, unless the plan uses several as
		// its sections; the title names the plan, never a kind of section.
		if s.level > 1 || r.level1 > 1 {
			s.headFacts = *s.said
		}
	}
	// A numbered heading with a numbered sibling is a step of a sequence.
	var roots []int
	for _, t := range r.secs {
		if t.parent < 0 && t.head >= 0 {
			roots = append(roots, t.idx)
		}
	}
	r.sequences(roots)
	for _, t := range r.secs {
		r.sequences(t.kids)
	}
	r.outlineKids()
	r.cousinSteps(roots)
	for i := len(r.secs) - 1; i >= 0; i-- {
		s := r.secs[i]
		s.subBoxes += s.boxes
		if s.parent >= 0 {
			r.secs[s.parent].subBoxes += s.subBoxes
		}
	}
}

// sequences marks the numbered headings among siblings sib as steps of a
// sequence when there are two or more at one level, or as the document's
// outline when its numbers also number labels ("1. Overview", "2. Goals",
// "3. Data model"): the run starts with a label, or its headings hold
// sub-sections (chapters). A plan that numbers each
// piece of work and then its closing sections ("5. Files summary", "6. Do
// not") keeps its numbered work as steps.
func (r *reader) sequences(sib []int) {
	if len(sib) < 2 {
		return
	}
	var count, labels [7]int // by heading level
	var first [7]bool        // the level's first numbered heading is a label
	var chapters [7]bool     // a numbered heading of the level has sub-sections
	for _, k := range sib {
		t := r.secs[k]
		// Only a label or a heading over sub-sections asks (numberedText
		// parses the heading's markup).
		numbered := t.head >= 0 && (t.kind.skips() || len(t.kids) > 0) && numberedText(r.plan.Headings[t.head].Text)
		chapters[t.level] = chapters[t.level] || numbered && len(t.kids) > 0
		label := t.kind.skips() && numbered
		if t.form != fNumbered && !label {
			continue
		}
		if count[t.level]+labels[t.level] == 0 {
			first[t.level] = label
		}
		if label {
			labels[t.level]++
		} else if t.form == fNumbered {
			count[t.level]++
		}
	}
	for _, k := range sib {
		if t := r.secs[k]; t.form == fNumbered {
			outline := labels[t.level] > 0 && (first[t.level] || chapters[t.level])
			t.numSeq = count[t.level] >= 2 && !outline
			t.outline = outline
		}
	}
}

// headFacts is what a heading's text says.
type headFacts struct {
	label string // its normalised text (normLabel)
	kind  kind   // the label its text is, if any
	form  form   // the shape that names work ("Task 3", "Phase 2", "3.")
	restK kind   // the label of the text after a form prefix ("Phase 4: Later")
	aside string // the parenthetical, lower case
	field bool   // a card's field heading: a label, or Why / What / How / Files
	// weak: only the seed's prefix rule makes the text a label, and a word
	// that is no qualifier follows the label ("Context management",
	// "Default template updates"): the label may be an adjective (topics.go).
	weak bool
	// later: only its first word makes the text a non-goal ("Future
	// expansion"): dated entries under it make it a planned horizon.
	later bool
	// question: the heading asks a question ("Why two modes?").
	question bool
}

// headFactsOf reads what a heading's text says. It depends on the text
// alone, so it is read once with the heading's part (build.go) and kept
// with it across keystrokes: read per section on every keystroke, it was
// a tenth of planparse's reading rules at 1,000 items
// (BenchmarkInProcessKeystroke/repo1000).
func headFactsOf(text string) headFacts {
	var h headFacts
	plain := plainTitle(text)
	h.label, h.aside = normPlain(plain)
	h.kind, h.later = labelKindBy(h.label)
	t := strings.TrimSpace(plain)
	h.question = strings.HasSuffix(t, "?") || strings.HasSuffix(t, "？")
	if h.kind == kPlain {
		h.kind = seedKind(text)
		h.weak = h.kind != kPlain && seedWeak(text)
	}
	var rest string
	h.form, rest = formOfPlain(plain, text)
	if h.form == fNumbered {
		if h.kind != kPlain && labelledClause(h.label) {
			// "5. Check: does install set up the database?": a step that
			// names its kind before what it does, not a numbered label.
			h.kind = kPlain
		} else if h.kind != kPlain {
			h.form = fNone // "3. Tests", "1. Summary": a numbered label
		}
	} else if h.form != fNone {
		if h.form == fGroup && h.kind.skips() && h.kind != kExclude && namedAfter(plain, rest) {
			// "Phase 2: 画面設計" is the screen-design phase, as "Phase 2:
			// Design" is: what follows the separator names the phase, and
			// a phase is part of the work. A label about the phase
			// ("フェーズ1の概要", its overview) keeps its kind.
			h.kind = kPlain
		}
		rest, _ = normLabel(rest)
		h.restK = labelKind(rest)
	}
	h.field = h.kind != kPlain || fieldWords[h.label]
	return h
}

// namedAfter reports whether rest, the text after a form prefix in plain,
// follows a separator (':', '：', a dash): then it names the group.
func namedAfter(plain, rest string) bool {
	i := strings.LastIndex(strings.ToLower(plain), rest)
	if i <= 0 {
		return false
	}
	head := strings.TrimRight(strings.ToLower(plain)[:i], " \t")
	for _, sep := range []string{":", "：", "–", "—", "-"} {
		if strings.HasSuffix(head, sep) {
			return true
		}
	}
	return false
}

// fieldWords head the sub-sections of a task card besides labels: "### Why",
// "### Files", "### Problem".
var fieldWords = map[string]bool{
	"what": true, "how": true, "problem": true, "solution": true, "description": true, "details": true,
	"code": true, "commands": true, "outcome": true, "result": true, "files": true, "changes": true,
	"why": true, "where": true, "expected result": true, "output": true, "inputs": true,
}

// fullColon is the fullwidth colon (U+FF1A) that CJK text writes.
var fullColon = []byte("：")

// hasColon reports whether s holds ':' or '：'. ContainsAny with a
// non-ASCII set decodes every rune of s; on every bullet of a plan it was
// a twentieth of a keystroke's analysis at 1,000 items (BenchmarkAnalyzeEdit).
func hasColon(s string) bool {
	return strings.IndexByte(s, ':') >= 0 || strings.Contains(s, "：")
}

// bodyFacts counts what one event of a section's own body holds.
func (r *reader) bodyFacts(s *sec, ev *event, prev *event) {
	switch ev.kind {
	case evList:
		if prev == nil || prev.kind != evParagraph || !strings.HasSuffix(strings.TrimRight(removeEmphasis(prev.last), " \t"), ":") && !r.fieldValue(ev, prev) {
			s.freeLists++
		}
		for i := range ev.entries {
			e := &ev.entries[i]
			switch {
			case e.empty:
			case e.box:
				s.boxes++
			default:
				s.plain++
				if e.field {
					s.fieldBullets++
				}
			}
			if ev.ordered && !e.empty {
				s.ordered++
			}
		}
		s.content = s.content || len(ev.entries) > 0
	case evParagraph:
		if ev.lines > 0 {
			s.content = true
			// After a blank line: a bullet's wrapped line at column 0 is
			// no sentence of its own.
			if prev != nil && prev.kind == evList && ev.l0 > 0 && len(bytes.TrimSpace(r.ln.text(ev.l0-1))) == 0 && goesOn(r.ln.text(ev.l0)) && !pathLabel(ev) {
				s.statements++
			}
			if first := r.ln.text(ev.l0); (bytes.IndexByte(first, ':') >= 0 || bytes.Contains(first, fullColon)) && isFieldText(string(first)) ||
				leadInClass(ev.last) != kPlain || isFieldLeadIn(ev.last) {
				s.leadIns++
			}
		}
	case evTable:
		s.rows += len(ev.rows)
		s.steps += len(ev.steps)
		if ev.statusCol {
			s.statusRows += len(ev.rows)
		}
		s.content = true
	case evComment:
	default:
		s.content = true
	}
}

// fieldValue reports whether list ev is the value of the bold field that
// paragraph prev ends with: "**Approach**: small steps" and, on the next
// line, the bullets that say what the steps were.
func (r *reader) fieldValue(ev, prev *event) bool {
	if len(ev.entries) == 0 || !boldLabel(prev.last) {
		return false
	}
	return r.ln.lineOf(ev.at(ev.entries[0].item.Line).Start) == prev.l1+1
}

// goesOn reports whether a paragraph's first line continues a sentence
// rather than starting one: it starts with a lower-case letter, with the
// Japanese object particle を, or with a Korean particle written apart
// ("를 구현한다"). A sentence never starts so; after a list, the list is
// the part of the sentence before it.
func goesOn(line []byte) bool {
	t := bytes.TrimLeft(line, " \t*_")
	c, n := utf8.DecodeRune(t)
	switch {
	case c == 'を':
		return true
	case unicode.IsLower(c):
		return true
	case c >= 0xAC00 && c <= 0xD7A3:
		// A Hangul particle of one syllable and a space.
		return strings.ContainsRune("을를은는이가에와과도로", c) && len(t) > n && t[n] == ' '
	}
	return false
}

// isFieldText reports whether a bullet's subject is a field: a short label
// and a colon, then its value ("**Files:** a.go", "Why: the cache is cold").
func isFieldText(subject string) bool {
	t := removeEmphasis(subject)
	i := strings.IndexAny(t, ":：")
	if i <= 0 || i > 40 {
		return false
	}
	return len(strings.Fields(t[:i])) <= 3 && !strings.ContainsAny(t[:i], "`/.0123456789")
}

// isFieldLeadIn reports whether a paragraph line is a field label alone:
// "**Files:**", "Steps:", "**Key implementation:**"; a file's name
// ("**src/app.ts:**") labels the work on that file, no field.
func isFieldLeadIn(line string) bool {
	t := trimSpace(removeEmphasis(line))
	if !strings.HasSuffix(t, ":") && !strings.HasSuffix(t, "：") {
		return false
	}
	t = strings.TrimRight(t, ":：")
	return t != "" && len(strings.Fields(t)) <= 4 && len(t) <= 40 && !isPathOnly(t)
}

// headLine is the 0-based line of a section's heading.
func (r *reader) headLine(s *sec) int { return r.ln.lineOf(r.plan.Headings[s.head].Range.Start) }

// numberedText reports whether a heading's text starts with a section number.
func numberedText(text string) bool {
	f, _ := formOf(text)
	return f == fNumbered || digits(strings.TrimLeftFunc(plainTitle(text), func(r rune) bool { return r > 0x7f || r == ' ' }), 0) > 0
}

// labelledClause reports whether a heading's normalised text is a label, a
// colon and a clause of three words or more ("check: does install set up
// the database"), where the clause says what the section does.
func labelledClause(label string) bool {
	_, rest, ok := strings.Cut(label, ":")
	if !ok {
		_, rest, ok = strings.Cut(label, "：")
	}
	return ok && len(strings.Fields(rest)) >= 3
}
