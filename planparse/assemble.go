package planparse

// assembler replays events in source order and applies rules 2, 3, 4, 5 and
// 6, which carry state from one heading to the next. Events from several
// extracts are shifted by the offset of the bytes each extract was parsed
// from.
type assembler struct {
	plan        *Plan
	stack       []scopeEntry // open headings of levels 2–6, outermost first
	skipped     bool         // a heading on the stack is a context label
	listSkipped bool         // a lead-in paragraph skips the next list (rule 6)
	sec         section
	textRanges  []Range  // per plan.Headings entry: where its text is
	lineEnds    []int    // per plan.Headings entry: end of its first line
	scopeCache  []string // scope() of the current heading path, shared

	title      string // first paragraph title candidate, if hasTitle
	titleRange Range
	hasTitle   bool
}

type scopeEntry struct {
	level int
	text  string
	label bool
}

// section is the state of the heading section being read (rule 5).
type section struct {
	heading  int // index into plan.Headings, -1 before the first heading
	hasItems bool
	hasProse bool
}

func newAssembler() *assembler {
	return &assembler{plan: &Plan{}, sec: section{heading: -1}}
}

func shift(r Range, off int) Range { return Range{r.Start + off, r.End + off} }

// add replays the events of x, whose offsets are relative to byte off.
func (a *assembler) add(x *extract, off int) {
	for i := range x.events {
		ev := &x.events[i]
		switch ev.kind {
		case evHeading:
			a.heading(ev, off)
		case evList:
			a.list(ev, off)
		case evParagraph:
			// rule 6 line by line, as rpiv does: a lead-in line skips the
			// next list, any other line is prose and ends the skipping.
			if !a.skipped && ev.lines > 0 {
				a.sec.hasProse = a.sec.hasProse || ev.prose
				a.listSkipped = ev.leadIn
			}
		case evFence:
			// rpiv: a fence is prose unless the list after a lead-in is being
			// skipped, and it does not end that skipping.
			if !a.skipped && !a.listSkipped {
				a.sec.hasProse = true
			}
		case evProse:
			// Indented code, tables, quotes and HTML: prose, read by rpiv as
			// paragraph lines that are never lead-ins.
			if !a.skipped {
				a.sec.hasProse = true
				a.listSkipped = false
			}
		}
	}
	if x.hasTitle && !a.hasTitle {
		a.title, a.titleRange, a.hasTitle = x.title, shift(x.titleRange, off), true
	}
}

// finish closes the last section, picks the title and adds duplicate
// problems.
func (a *assembler) finish() *Plan {
	a.closeSection()
	if len(a.plan.Items) == 0 {
		a.plan.Items = nil // as Parse gives it, even when presized
	}
	a.plan.Title, a.plan.TitleRange = a.pickTitle()
	a.plan.Problems = append(a.plan.Problems, duplicateProblems(a.plan.Items)...)
	sortProblems(a.plan.Problems)
	return a.plan
}

// scope returns the heading path. Items of one section share the slice.
func (a *assembler) scope() []string {
	if len(a.stack) == 0 {
		return nil
	}
	if a.scopeCache == nil {
		a.scopeCache = make([]string, len(a.stack))
		for i, e := range a.stack {
			a.scopeCache[i] = e.text
		}
	}
	return a.scopeCache
}

func (a *assembler) group() string {
	if len(a.stack) == 0 {
		return ""
	}
	return a.stack[len(a.stack)-1].text
}

// heading applies rule 2: close the section, then update the heading path.
func (a *assembler) heading(ev *event, off int) {
	a.closeSection()
	h := ev.head
	h.Range = shift(h.Range, off)
	if h.Level == 1 {
		a.stack = a.stack[:0]
	} else {
		for len(a.stack) > 0 && a.stack[len(a.stack)-1].level >= h.Level {
			a.stack = a.stack[:len(a.stack)-1]
		}
		a.stack = append(a.stack, scopeEntry{h.Level, h.Text, ev.label})
	}
	a.scopeCache = nil
	a.skipped = false
	for _, e := range a.stack {
		a.skipped = a.skipped || e.label
	}
	h.Skipped = a.skipped
	a.plan.Headings = append(a.plan.Headings, h)
	a.textRanges = append(a.textRanges, shift(ev.textRange, off))
	a.lineEnds = append(a.lineEnds, ev.lineEnd+off)
	a.sec = section{heading: len(a.plan.Headings) - 1}
	a.listSkipped = false
}

// closeSection applies rule 5 to the section being left.
func (a *assembler) closeSection() {
	s := a.sec
	if s.heading < 0 || a.skipped || s.hasItems || !s.hasProse || a.group() == "" {
		return
	}
	h := a.plan.Headings[s.heading]
	a.plan.Items = append(a.plan.Items, Item{
		Subject:      h.Text,
		Group:        a.group(),
		Scope:        a.scope(),
		Section:      true,
		Block:        h.Range,
		Line:         Range{h.Range.Start, a.lineEnds[s.heading]},
		SubjectRange: a.textRanges[s.heading],
	})
}

// list applies rule 4 to a top-level list, unless its section or a lead-in
// skips it.
func (a *assembler) list(ev *event, off int) {
	if a.skipped || a.listSkipped {
		return
	}
	for i := range ev.entries {
		e := &ev.entries[i]
		if e.empty {
			a.plan.Problems = append(a.plan.Problems, Problem{Code: CodeEmptyItem, Message: emptyItemMessage, Range: shift(e.item.Line, off)})
			continue
		}
		// Completed in place: an Item is large, and a plan has 10k of them.
		a.plan.Items = append(a.plan.Items, e.item)
		it := &a.plan.Items[len(a.plan.Items)-1]
		it.Group, it.Scope = a.group(), a.scope()
		it.Block, it.Line, it.SubjectRange = shift(it.Block, off), shift(it.Line, off), shift(it.SubjectRange, off)
		a.sec.hasItems = true
	}
}

// pickTitle applies rule 3: the first level-1 heading, else the first
// heading, else the first line of the first paragraph, else "plan"; inline
// markup removed. Candidates whose text is empty once stripped are passed
// over.
func (a *assembler) pickTitle() (string, Range) {
	for _, h := range a.plan.Headings {
		if h.Level == 1 {
			if t := plainTitle(h.Text); t != "" {
				return t, h.Range
			}
		}
	}
	for _, h := range a.plan.Headings {
		if t := plainTitle(h.Text); t != "" {
			return t, h.Range
		}
	}
	if a.hasTitle {
		return a.title, a.titleRange
	}
	return "plan", Range{}
}
