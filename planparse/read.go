package planparse

import (
	"slices"
	"strings"
)

// override is a `<!-- planls: ... -->` comment in a section.
type override uint8

const (
	noOverride    override = iota
	overrideSkip           // <!-- planls: skip -->: the section and its subtree are not work
	overrideTrack          // <!-- planls: track -->: every bullet of the section is an item
)

// mode is how a whole plan tracks its work (docs/PLAN-FORMAT.md "Dialects").
type mode uint8

const (
	modeBullets mode = iota // bullets, task headings and prose sections
	modeBoxes               // the plan tracks its work with checkboxes: they are the items
	modeTodos               // Cursor front-matter todos are the items
)

// Why texts, shown by `planls approve --dry-run` and in the approval
// result (Heading.Why).
const (
	whyContext  = "context section"
	whyNotes    = "notes section"
	whyExclude  = "not work (non-goals, out of scope, do-not or later)"
	whySkip     = "skipped by <!-- planls: skip -->"
	whyUnder    = "inside a skipped section"
	whyBoxes    = "checkbox plan: only checkboxes are items"
	whyTodos    = "front-matter todos are the items"
	whyHeading  = "one item: the heading names the work"
	whyTrack    = "tracked by <!-- planls: track -->"
	whyNoItems  = "nothing to track"
	whyIntro    = "introduces the sections under it"
	whyLabelled = "list labels only"
)

// sec is one heading's section (or the part before the first heading):
// the events up to the next heading.
type sec struct {
	head     int // index into plan.Headings; -1 before any heading
	level    int // 0 before any heading
	parent   int // index into reader.secs; -1 for none
	events   []*event
	kids     int // child sections
	cls      class
	task     bool // the heading names a piece of work (namesTask)
	numbered bool // by a bare number only
	ov       override
	scope    []string
	group    string

	skip    bool // no items: the section or an ancestor is not work
	ctxSkip bool // skip comes from a context label only (not an exclusion or override)
	// stateSkip: that label names a state or log ("Current state",
	// "Progress"), whose checkboxes record what was done, not work.
	stateSkip bool
	track     bool   // the section or an ancestor says <!-- planls: track -->
	notes     bool   // the section or an ancestor is a notes section
	why       string // Heading.Why
}

// reader applies the reading rules to the events of one document.
type reader struct {
	src        []byte
	plan       *Plan
	secs       []*sec
	textRanges []Range // per plan.Headings entry: where its text is
	lineEnds   []int   // per plan.Headings entry: end of its first line
	level1     int     // level-1 headings in the document
	// agent is true for the layout of plan-mode agents: a context section
	// (Summary, Context, Goal, ...) and a checks section (Test plan,
	// Verification, ...). There a heading with bullets under it names one
	// change, and its bullets are that change's details.
	agent bool
	// lifted: the section being read is context that a checkbox plan
	// reads for its boxes only.
	lifted bool
}

func read(src []byte, x *extract, todos []entry) *Plan {
	// Every item comes from a todo, a list entry, a table row, or one per
	// paragraph or heading: sized once, the slice is not grown and copied
	// (half the bytes Parse allocated for items).
	n := len(todos) + len(x.events)
	for i := range x.events {
		n += len(x.events[i].entries) + len(x.events[i].rows)
	}
	r := &reader{src: src, plan: &Plan{Items: make([]Item, 0, n)}}
	r.sections(x)
	r.classes()
	var ctx, check bool
	for _, s := range r.secs {
		ctx = ctx || s.cls == clsContext && s.level > 1
		check = check || s.cls == clsCheck
	}
	r.agent = ctx && check
	for _, s := range r.secs {
		// A bare number ("## 3. Backend") names a task under a work list
		// or in an agent's plan; elsewhere it only numbers the sections.
		if s.numbered && !r.agent && (s.parent < 0 || r.secs[s.parent].cls != clsContainer) {
			s.task = false
		}
	}
	m := r.mode(todos)
	if m == modeTodos {
		r.plan.Items = append(r.plan.Items, entriesToItems(todos, nil, "")...)
	}
	for _, s := range r.secs {
		r.emit(s, m)
		if s.head >= 0 {
			h := &r.plan.Headings[s.head]
			h.Skipped, h.Why = s.skip, s.why
		}
	}
	if len(r.plan.Items) == 0 {
		r.plan.Items = nil
	}
	r.plan.Title, r.plan.TitleRange = pickTitle(r.plan.Headings, x)
	r.plan.Problems = append(r.plan.Problems, duplicateProblems(r.plan.Items)...)
	sortProblems(r.plan.Problems)
	return r.plan
}

// sections groups the events by heading (rule 2) and records the headings.
func (r *reader) sections(x *extract) {
	r.secs = []*sec{{head: -1, parent: -1}}
	var stack []int // open sections by level, outermost first
	var scope []string
	var levels []int
	for i := range x.events {
		ev := &x.events[i]
		if ev.kind != evHeading {
			cur := r.secs[len(r.secs)-1]
			cur.events = append(cur.events, ev)
			continue
		}
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
		s := &sec{head: len(r.plan.Headings), level: h.Level, parent: -1, scope: scope}
		if len(scope) > 0 {
			s.group = scope[len(scope)-1]
		}
		if len(stack) > 0 {
			s.parent = stack[len(stack)-1]
			r.secs[s.parent].kids++
		}
		r.plan.Headings = append(r.plan.Headings, h)
		r.textRanges = append(r.textRanges, ev.textRange)
		r.lineEnds = append(r.lineEnds, ev.lineEnd)
		stack = append(stack, len(r.secs))
		r.secs = append(r.secs, s)
	}
}

// classes classifies every section and works out which are skipped.
func (r *reader) classes() {
	for _, s := range r.secs {
		for _, ev := range s.events {
			if ev.override != noOverride {
				s.ov = ev.override
			}
		}
		if s.head < 0 {
			continue
		}
		text := r.plan.Headings[s.head].Text
		// A level-1 heading is the title, unless the plan uses several as
		// its sections; the title names the plan, never a kind of section.
		if s.level > 1 || r.level1 > 1 {
			s.cls = classify(text)
		}
		var keyword bool
		s.task, keyword = namesTask(text)
		s.task = s.task && s.level > 1
		if s.task && !keyword {
			s.numbered = true // decided in read, once the layout is known
		}
		if keyword && (s.cls == clsContext || s.kids == 0 && (s.cls == clsCheck || s.cls == clsContainer)) {
			// "Phase 5: Preserve the context" names a task, not a context;
			// "Phase 2: Set up the work area" one task, not a work list.
			s.cls = clsPlain
		}
		var p *sec
		if s.parent >= 0 {
			p = r.secs[s.parent]
			s.skip, s.track, s.notes = p.skip, p.track, p.notes
			if p.skip {
				s.why, s.ctxSkip, s.stateSkip = whyUnder, p.ctxSkip, p.stateSkip
			}
		}
		if keyword && s.skip && p != nil && p.ctxSkip {
			// "## File structure" then "### Task 1: …": the task is not
			// part of the file list, whatever its heading level says.
			s.skip, s.why = false, ""
		}
		switch {
		case s.ov == overrideSkip:
			s.skip, s.track, s.why = true, false, whySkip
		case s.ov == overrideTrack:
			s.skip, s.track, s.notes, s.why = false, true, false, whyTrack
		case s.skip || s.track:
		case s.cls == clsExclude:
			s.skip, s.why = true, whyExclude
		case s.cls == clsContext && !(s.task && p != nil && p.cls == clsContainer):
			// A numbered task under a work list stays a task even when its
			// name ends like a spec ("3. Runtime contracts").
			s.skip, s.why, s.ctxSkip = true, whyContext, true
			s.stateSkip = isStateLabel(text)
		case s.cls == clsNotes:
			s.notes = true
		}
	}
}

// mode picks the plan's dialect: front-matter todos, else checkboxes when
// at least two top-level checkboxes sit in sections that are work and they
// either have lists of their own (no plain bullet after a box in one list)
// or are at least a third of the top-level bullets there.
func (r *reader) mode(todos []entry) mode {
	if len(todos) > 0 {
		return modeTodos
	}
	boxes, plain, mixed := 0, 0, 0
	for _, s := range r.secs {
		if s.skip && !(s.ctxSkip && !s.stateSkip) {
			continue
		}
		for _, ev := range s.events {
			if ev.kind != evList {
				continue
			}
			seenBox := false
			for i := range ev.entries {
				switch e := &ev.entries[i]; {
				case e.empty:
				case e.box:
					boxes++
					seenBox = true
				default:
					plain++
					if seenBox {
						mixed++
					}
				}
			}
		}
	}
	// Plain bullets with a box here and there in the same lists is a
	// bullet plan; a checkbox plan's boxes make lists of their own.
	if boxes >= 2 && (mixed == 0 || boxes*2 >= plain) {
		return modeBoxes
	}
	return modeBullets
}

// emit adds the items of one section's own events.
func (r *reader) emit(s *sec, m mode) {
	boxPlan := m == modeBoxes
	if m == modeBoxes && !r.hasBox(s) && s.cls == clsCheck {
		// A checks section of a checkbox plan with plain bullets: each
		// is a check to run ("## Verification" after the task boxes).
		m = modeBullets
	}
	lifted := false
	if s.skip && m == modeBoxes && s.ctxSkip && !s.stateSkip && r.hasBox(s) {
		// In a checkbox plan a checkbox is work wherever it sits, but in a
		// non-goal, do-not or state section ("Dependencies & setup" holds
		// tasks too); the section's tables stay context.
		s.skip, s.why, lifted = false, "", true
	}
	if s.skip {
		return
	}
	if s.notes && !s.track && m != modeBoxes {
		s.skip, s.why = true, whyNotes
		return
	}
	before := len(r.plan.Items)
	prose := false
	switch {
	case s.track:
		prose = r.bullets(s, false)
	case m == modeTodos:
		if r.inCheck(s) {
			r.bullets(s, false)
		}
		if len(r.plan.Items) == before && s.head >= 0 && s.why == "" {
			s.why = whyTodos
		}
		return
	case m == modeBoxes:
		r.lifted = lifted
		r.bullets(s, true)
		r.lifted = false
		if len(r.plan.Items) == before && s.head >= 0 && r.hasList(s) {
			s.why = whyBoxes
		}
		return
	case r.bulletsMode(s):
		prose = r.bullets(s, false)
	default:
		if r.hasTable(s) {
			r.bullets(s, false)
		}
		if len(r.plan.Items) == before && s.kids == 0 && (r.hasContent(s) || s.task) {
			// A task heading names work even with nothing under it yet.
			r.headingItem(s)
			s.why = whyHeading
			return
		}
		if s.kids > 0 {
			// Bullets over sub-sections are not one task's details.
			r.bullets(s, false)
			if len(r.plan.Items) == before && s.why == "" {
				s.why = whyIntro
			}
		}
	}
	// A checkbox plan tracks its boxes: its prose sections are not items.
	if len(r.plan.Items) == before && s.head >= 0 && s.level > 1 && prose && !boxPlan && (s.kids == 0 || s.cls == clsCheck || s.cls == clsContainer) {
		r.headingItem(s) // rule 5: a prose-only work section is one item
	}
	if len(r.plan.Items) == before && s.head >= 0 && s.why == "" && r.hasList(s) {
		s.why = whyNoItems
	}
}

// bulletsMode reports whether a section's bullets are items (a work list,
// a checks section, the part before any heading, a level-1 section, or a
// section under a work list that does not name a task itself) rather than
// details of the work its heading names.
func (r *reader) bulletsMode(s *sec) bool {
	if s.level <= 1 || s.cls == clsCheck || s.cls == clsContainer {
		return true
	}
	if s.task {
		return false
	}
	if !r.agent {
		return true
	}
	for p := s.parent; p >= 0; p = r.secs[p].parent {
		ps := r.secs[p]
		if ps.level <= 1 {
			return false
		}
		switch ps.cls {
		case clsCheck, clsContainer:
			return true
		}
		if ps.task {
			return false
		}
	}
	return false
}

// inCheck reports whether s or an ancestor is a checks section.
func (r *reader) inCheck(s *sec) bool {
	for p := s; ; p = r.secs[p.parent] {
		if p.cls == clsCheck {
			return true
		}
		if p.parent < 0 {
			return false
		}
	}
}

// bullets adds the items of a section's lists and task tables, following
// the lead-ins (rule 6): a paragraph ending in ':' that names context, notes
// or non-work skips the list after it; one that names checks
// ("Acceptance criteria:") makes the list after it, or the one-line
// paragraphs after it, items. Only boxed entries count when boxesOnly.
// It reports whether the section has prose as rule 5 counts it: paragraph
// lines that are not lead-ins, code (but a fence while a lead-in skips),
// tables, quotes and HTML other than comments.
func (r *reader) bullets(s *sec, boxesOnly bool) (prose bool) {
	listSkipped, checkRun := false, false
	for i, ev := range s.events {
		switch ev.kind {
		case evParagraph:
			if ev.lines == 0 {
				continue
			}
			prose = prose || ev.prose
			c := leadInClass(ev.last)
			switch {
			case ev.leadIn || c == clsContext || c == clsExclude || c == clsNotes:
				listSkipped, checkRun = true, false
			case c == clsCheck:
				listSkipped, checkRun = false, true
			case checkRun && ev.lines == 1 && !boxesOnly:
				r.plan.Items = append(r.plan.Items, Item{Subject: string(r.src[ev.first.Start:ev.first.End]),
					Group: s.group, Scope: s.scope, Block: ev.first, Line: ev.first, SubjectRange: ev.first})
			default:
				listSkipped, checkRun = false, false
			}
		case evList:
			checkRun = false
			var next *event
			if i+1 < len(s.events) {
				next = s.events[i+1]
			}
			// "1) Backend" alone, then on the next line the bullets of that
			// step: a label.
			if ev.ordered && len(ev.entries) == 1 && r.isLabelEntry(&ev.entries[0].item) && next != nil &&
				next.kind == evList && !next.ordered && len(next.entries) > 0 && !next.entries[0].empty &&
				nextLine(r.src, ev.entries[0].item.Block.End, next.entries[0].item.Line.Start) {
				continue
			}
			// A plain list right after a box list (only blank lines
			// between) continues the task list in another marker.
			only := boxesOnly && !(i > 0 && s.events[i-1].kind == evList && hasBoxes(s.events[i-1]))
			listSkipped = r.list(s, ev, only, listSkipped)
		case evTable:
			listSkipped, checkRun, prose = false, false, true
			if !r.lifted {
				r.plan.Items = append(r.plan.Items, entriesToItems(ev.rows, s.scope, s.group)...)
			}
		case evProse:
			listSkipped, checkRun, prose = false, false, true
		case evFence:
			checkRun = false
			prose = prose || !listSkipped
		}
	}
	return prose
}

// list adds a list's entries: empty ones are problems, plain bullets that
// forbid ("Do not …") are not work. A list led in by a lead-in is skipped up to
// the first entry whose box differs from the first entry's: "**Files:**",
// its file bullets, then the step checkboxes make one CommonMark list when
// only blank lines separate them, but the checkboxes are not led in.
// It reports whether the list ended still led in.
func (r *reader) list(s *sec, ev *event, boxesOnly, ledIn bool) bool {
	for i := range ev.entries {
		e := &ev.entries[i]
		if ledIn && e.box != ev.entries[0].box {
			ledIn = false
		}
		if e.empty {
			if !ledIn {
				r.plan.Problems = append(r.plan.Problems, Problem{Code: CodeEmptyItem, Message: emptyItemMessage, Range: e.item.Line})
			}
			continue
		}
		// A box is work to tick even when it says "Don't …" (a behaviour
		// to build); a plain "Do not …" bullet is a rule.
		if ledIn || (boxesOnly && !e.box) || (!e.box && isDoNot(e.item.Subject)) {
			continue
		}
		r.plan.Items = append(r.plan.Items, e.item)
		it := &r.plan.Items[len(r.plan.Items)-1]
		it.Group, it.Scope = s.group, s.scope
	}
	return ledIn
}

// nextLine reports whether src[a:b] is one line ending and indentation:
// b is on the line after the one that ends at a.
func nextLine(src []byte, a, b int) bool {
	if a < 0 || b > len(src) || a >= b {
		return false
	}
	gap := src[a:b]
	switch {
	case len(gap) >= 2 && gap[0] == '\r' && gap[1] == '\n':
		gap = gap[2:]
	case gap[0] == '\n' || gap[0] == '\r':
		gap = gap[1:]
	default:
		return false
	}
	return isBlank(gap)
}

// isLabelEntry reports whether a numbered entry reads as a label for the
// bullets after it: no details, and written "1) Backend" or "1. Backend:".
func (r *reader) isLabelEntry(it *Item) bool {
	if it.PlanText != "" {
		return false
	}
	line := r.src[it.Line.Start:it.Line.End]
	i := digits(string(line), 0)
	return i < len(line) && line[i] == ')' || strings.HasSuffix(it.Subject, ":")
}

// leadInClass is the class of a paragraph line that ends with ':', or
// clsPlain.
func leadInClass(line string) class {
	t := trimSpace(removeEmphasis(line))
	if !strings.HasSuffix(t, ":") && !strings.HasSuffix(t, "：") {
		return clsPlain
	}
	if len(t) > 80 {
		return clsPlain // a sentence that ends in a colon, not a label
	}
	return classifyLeadIn(t)
}

func entriesToItems(es []entry, scope []string, group string) []Item {
	out := make([]Item, 0, len(es))
	for _, e := range es {
		it := e.item
		it.Scope, it.Group = scope, group
		out = append(out, it)
	}
	return out
}

// headingItem adds the item named by a section's heading (rules 3 and 5).
func (r *reader) headingItem(s *sec) {
	if s.head < 0 || s.level < 2 {
		return
	}
	h := r.plan.Headings[s.head]
	if trimSpace(h.Text) == "" {
		return // an empty heading names nothing (rule 5 needs a group)
	}
	r.plan.Items = append(r.plan.Items, Item{
		Subject:      h.Text,
		Group:        s.group,
		Scope:        s.scope,
		Section:      true,
		Block:        h.Range,
		Line:         Range{h.Range.Start, r.lineEnds[s.head]},
		SubjectRange: r.textRanges[s.head],
	})
}

func (r *reader) hasKind(s *sec, f func(*event) bool) bool { return slices.ContainsFunc(s.events, f) }

func (r *reader) hasList(s *sec) bool {
	return r.hasKind(s, func(ev *event) bool { return ev.kind == evList && len(ev.entries) > 0 })
}

func (r *reader) hasTable(s *sec) bool {
	return r.hasKind(s, func(ev *event) bool { return ev.kind == evTable && len(ev.rows) > 0 })
}

func (r *reader) hasBox(s *sec) bool { return r.hasKind(s, hasBoxes) }

func hasBoxes(ev *event) bool {
	for i := range ev.entries {
		if ev.entries[i].box && !ev.entries[i].empty {
			return true
		}
	}
	return false
}

// hasContent: anything under the heading but comments.
func (r *reader) hasContent(s *sec) bool {
	return r.hasKind(s, func(ev *event) bool {
		switch ev.kind {
		case evComment:
			return false
		case evParagraph:
			return ev.lines > 0
		}
		return true
	})
}

// pickTitle applies rule 3: the first level-1 heading, else the first
// heading, else the first line of the first paragraph, else "plan"; inline
// markup removed. Candidates whose text is empty once stripped are passed
// over.
func pickTitle(heads []Heading, x *extract) (string, Range) {
	for _, h := range heads {
		if h.Level == 1 {
			if t := plainTitle(h.Text); t != "" {
				return t, h.Range
			}
		}
	}
	for _, h := range heads {
		if t := plainTitle(h.Text); t != "" {
			return t, h.Range
		}
	}
	if x.hasTitle {
		return x.title, x.titleRange
	}
	return "plan", Range{}
}
