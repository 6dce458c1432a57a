package planparse

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// override is a `<!-- planls: ... -->` comment in a section.
type override uint8

const (
	noOverride    override = iota
	overrideSkip           // <!-- planls: skip -->: the section and its subtree are not work
	overrideTrack          // <!-- planls: track -->: every bullet of the section is an item
)

// reader applies the reading rules to the events of one document: it
// groups them into sections (section.go), picks the plan's dialect and
// decides each section from its table (decide.go), then emits the items of
// each section as its decision says.
type reader struct {
	src        []byte
	ln         *lines
	plan       *Plan
	secs       []*sec
	textRanges []Range // per plan.Headings entry: where its text is
	lineEnds   []int   // per plan.Headings entry: end of its first line
	level1     int     // level-1 headings in the document
	todos      []entry // Cursor front-matter todos
	dialect    string  // the name of the plan's dialect
	// agent is true for the layout of plan-mode agents: a context section
	// (Summary, Context, Goal, ...) and a checks section (Test plan,
	// Verification, ...).
	agent bool
	// changes is true for the layout in which a plan-mode agent writes one
	// section per change: a context section, a checks section, and the
	// assumptions it made (Summary, the changes, Test plan, Assumptions).
	changes bool
	ctx     bool // a section below the title is a context section
	// plainText: the plan has no headings but a title and no list at
	// column 0, as a TODO.txt; its one-line paragraphs are its tasks.
	plainText bool
	// anchored is the index of the first section that names the plan's
	// work (a work-list label, a task or phase heading), 0 when none;
	// anchorLabel is true when a work-list label names it.
	anchored    int
	anchorLabel bool
	// statusTasks: a section holds a task table with a status column.
	statusTasks bool
	firstNamed  int // the first section that names work by its form, 0 when none
	firstListed int // the first section whose work-list label lists the work ("Milestones"), 0 when none
	// tickOff is the plan's one checkbox list when its boxes name the work
	// its headings name (namesHeadings), nil otherwise.
	tickOff *event
	// summary is the list of the plan's one work summary when its entries
	// name the work its headings name (findSummary), nil otherwise.
	summary *event
	// essay is the index of the paragraph where a plan without headings
	// turns from the list it opens with to prose (essayAt), -1 when none.
	essay int
	// plainFile: the plan is written as plain text (textFile).
	plainFile bool
	// workAt is the first top-level section whose heading is a work-list
	// label ("## Implementation Plan", "## Tasks"), 0 when none.
	workAt int
	// lifted: the section being read is context that a checkbox plan
	// reads for its boxes only.
	lifted bool
	// memBank: whether the plan is a memory bank's progress file
	// (memorybank.go): 0 not yet known, 1 it is, 2 it is not.
	memBank int8
	// lenient: sections under context and reference sections are read as
	// if those hid nothing; hid: a decision made on this pass did hide one.
	lenient, hid bool
	ids          map[string]int // headingIDs, computed when first needed
	uids         map[string]int // upperIDs, computed when first needed
	groups       map[string]int // groupTitles, computed when first needed
	// criteria counts the items that bullets made of criterion paragraphs
	// ("Acceptance: …") in the section it read last.
	criteria int
}

func read(src []byte, ln *lines, x *extract, todos []entry) *Plan {
	// Every item comes from a todo, a list entry, a table row, or one per
	// paragraph or heading: sized once, the slice is not grown and copied
	// (half the bytes Parse allocated for items).
	n := len(todos) + len(x.events)
	for i := range x.events {
		n += len(x.events[i].entries) + len(x.events[i].rows)
	}
	// The last version's count, with room for a few more, is closer: the
	// Plan keeps this array (at 1,000 items the bound was 90 KB too many).
	if x.items > 0 {
		n = min(n, x.items)
	}
	r := &reader{src: src, ln: ln, todos: todos, plan: &Plan{Items: make([]Item, 0, n)}}
	r.sections(x)
	r.facts()
	r.layout()
	d := &dialects[len(dialects)-1]
	for i := range dialects {
		if dialects[i].detect(r) {
			d = &dialects[i]
			break
		}
	}
	r.dialect = d.name
	// A plan read as having nothing to track, because sections above its
	// work or around it read as context, is read again with those sections
	// hiding nothing: refusing a plan with work in it loses the user.
	for _, lenient := range []bool{false, true} {
		r.lenient, r.hid = lenient, false
		r.plan.Items, r.plan.Problems = r.plan.Items[:0], r.plan.Problems[:0]
		r.decide(d)
		if len(todos) > 0 {
			r.plan.Items = append(r.plan.Items, entriesToItems(&event{}, todos, nil, "")...)
		}
		for _, s := range r.secs {
			r.emit(s)
			if s.head >= 0 {
				h := &r.plan.Headings[s.head]
				h.Skipped, h.Why = s.act == aSkip, s.why
			}
		}
		if len(r.plan.Items) > 0 || !r.hid {
			break
		}
	}
	r.dedupe()
	r.dropRestatedLists()
	r.hints()
	if len(r.plan.Items) == 0 {
		r.plan.Items = nil
	}
	r.plan.Title, r.plan.TitleRange = pickTitle(r.plan.Headings, x)
	r.plan.Problems = append(r.plan.Problems, duplicateProblems(r.plan.Items)...)
	sortProblems(r.plan.Problems)
	return r.plan
}

// layout works out what the plan's sections say as a whole: whether it is
// a plan-mode agent's layout, and where it names its work.
func (r *reader) layout() {
	r.topicLabels()
	var ctx, check, assumed bool
	for _, s := range r.secs {
		ctx = ctx || s.kind == kContext && s.level > 1
		check = check || s.kind.checks()
		assumed = assumed || s.level > 1 && s.label == "assumptions"
	}
	r.agent, r.ctx = ctx && check, ctx
	r.changes = r.agent && assumed
	r.plainText = r.isPlainText()
	r.orderWork()
	for _, s := range r.secs {
		r.statusTasks = r.statusTasks || s.statusRows > 0
		if !r.isAnchor(s) || r.inLabelledSkip(s) {
			continue
		}
		if r.anchored == 0 {
			r.anchored = s.idx
		}
		if r.workAt == 0 && r.listsWork(s) && r.topLevel(s) {
			r.workAt = s.idx
		}
		if r.listsWork(s) {
			r.anchorLabel = true
			if r.firstListed == 0 && s.kind == kWork {
				r.firstListed = s.idx
			}
		} else if r.firstNamed == 0 {
			r.firstNamed = s.idx
		}
	}
	r.findSummary()
	r.essay = r.essayAt()
	r.plainFile = r.textFile()
}

// isPlainText reports whether the plan is plain text, as a TODO.txt is:
// no headings but a title, no list at column 0 (lists, if any, are
// indented under a line), and two one-line paragraphs or more.
func (r *reader) isPlainText() bool {
	lines := 0
	for _, s := range r.secs {
		if s.level > 1 || s.level == 1 && r.level1 > 1 {
			return false
		}
		for _, ev := range s.events {
			switch ev.kind {
			case evList:
				for i := range ev.entries {
					if l := ev.at(ev.entries[i].item.Line).Start; l == r.ln.start[r.ln.lineOf(l)] {
						return false
					}
				}
			case evParagraph:
				if ev.lines == 1 {
					lines++
				}
			}
		}
	}
	return lines >= 2
}

// inLabelledSkip reports whether a section above s says it is not work
// (a non-goal, or a context label above a heading that is not a task).
func (r *reader) inLabelledSkip(s *sec) bool {
	for p := r.parentOf(s); p != nil; p = r.parentOf(p) {
		if p.kind == kExclude || p.ov == overrideSkip || p.kind.skips() && !r.named(s) {
			return true
		}
	}
	return false
}

// boxPlan reports whether the plan tracks its work with checkboxes: at least
// two top-level checkboxes in sections that are work, either in lists of
// their own (no plain bullet after a box in one list) or at least a third of
// the top-level bullets there.
func (r *reader) boxPlan() bool {
	boxes, plain, mixed := 0, 0, 0
	boxLists, plainLists, open := 0, 0, 0
	namedBoxes, namedPlain := false, false // lists under headings that name a task or phase
	var ticked *event                      // the last list with a box in it
	for _, s := range r.secs {
		if r.neverWork(s) {
			continue
		}
		for _, ev := range s.events {
			if ev.kind != evList {
				continue
			}
			seenBox, seenPlain := false, false
			for i := range ev.entries {
				switch e := &ev.entries[i]; {
				case e.empty:
				case e.box:
					boxes++
					seenBox = true
					if e.item.Checkbox != Checked {
						open++
					}
				default:
					plain++
					seenPlain = true
					if seenBox {
						mixed++
					}
				}
			}
			if seenBox {
				ticked = ev
			}
			named := r.named(s)
			namedBoxes = namedBoxes || seenBox && named
			namedPlain = namedPlain || seenPlain && !seenBox && named
			switch {
			case seenBox && (s.kind == kLog || s.kind == kTasks):
				boxLists, open = boxLists+1, open+1 // a progress or done list: done work
			case seenBox:
				boxLists++
			case seenPlain:
				plainLists++
			}
		}
	}
	// One list of ticked boxes beside plain lists records checks that were
	// run ("## Verified"); it is not how the plan tracks its work. Ticked
	// boxes in a progress or done list are done work, and they count; so
	// are those of a heading that names a task or a phase, unless other
	// such headings list their work in plain bullets ("## Phase 1" ticked
	// off, "## Phase 2" not boxed yet): then the boxes are a bullet plan's
	// done phase.
	if namedBoxes && !namedPlain {
		open++
	}
	if boxLists == 1 && r.namesHeadings(ticked, true) {
		r.tickOff = ticked
	} else if boxLists == 1 && open == 0 && plainLists >= 2 {
		return false
	}
	// Plain bullets with a box here and there in the same lists is a
	// bullet plan; a checkbox plan's boxes make lists of their own.
	return boxes >= 2 && (mixed == 0 || boxes >= plain)
}

// neverWork reports whether s is a current-state record, or s or a section
// above it is a non-goal or skipped by an override: checkboxes there are no
// sign of how the plan tracks its work.
func (r *reader) neverWork(s *sec) bool {
	if s.kind == kStatus {
		return true
	}
	for p := s; p != nil; p = r.parentOf(p) {
		if p.kind == kExclude || p.ov == overrideSkip || r.excluded(p) {
			return true
		}
	}
	return false
}

// emit adds the items of one section's own body, as its decision says.
func (r *reader) emit(s *sec) {
	before := len(r.plan.Items)
	switch s.act {
	case aSkip:
		return
	case aDetail:
		if s.kind == kCriteria {
			r.bullets(s, false)
		} else {
			r.inlineChecks(s, true)
		}
		return
	case aItem:
		r.headingItem(s, true)
		r.inlineChecks(s, true)
		return
	case aSteps:
		for _, ev := range s.events {
			if ev.kind == evTable {
				r.plan.Items = append(r.plan.Items, entriesToItems(ev, ev.steps, s.scope, s.group)...)
			}
		}
		return
	case aBoxes:
		r.lifted = s.kind.skips()
		r.bullets(s, true)
		r.lifted = false
		if len(r.plan.Items) == before && s.head >= 0 && s.why == "" && r.hasList(s) {
			s.why = whyBoxes
		}
		return
	}
	prose := r.bullets(s, false)
	if len(r.plan.Items) == before && s.head >= 0 && (s.level > 1 || r.level1 > 1) && prose && (r.dialect == "bullets" || s.kind.checks()) &&
		(len(s.kids) == 0 || s.kind.lists() && !r.kidTask(s)) {
		// Rule 5: a prose-only work section is one item; in a checkbox plan
		// only a checks section written as prose is. Over sub-sections,
		// prose introduces them, but a work list's prose over plain
		// sub-sections is an item of its own, as rpiv reads it. Under a
		// heading that names work by its form ("#### [NEW] lib/main.dart",
		// "## Phase 2"), the prose is that work's description: its plan
		// text, so that `todo get` shows it; a plain heading's prose-only
		// item has none, as the seed's vectors say.
		r.headingItem(s, len(s.kids) == 0 && r.named(s))
	} else if n := len(r.plan.Items) - before; n > 0 && n == r.criteria && s.head >= 0 && r.dialect == "bullets" && len(s.kids) == 0 &&
		s.plain+s.boxes == 0 && s.rows == 0 && r.proseParagraphs(s) > n {
		// A work section of prose with a criterion of its own
		// ("Acceptance: …") is one item named by the heading, as a task
		// heading is, and the criterion an item beside it.
		r.headingItem(s, false)
		last := r.plan.Items[len(r.plan.Items)-1]
		copy(r.plan.Items[before+1:], r.plan.Items[before:len(r.plan.Items)-1])
		r.plan.Items[before] = last
	}
	if len(r.plan.Items) == before && s.head >= 0 && s.why == "" {
		switch {
		case len(s.kids) > 0:
			s.why = whyIntro
		case r.hasKind(s, func(ev *event) bool { return ev.kind == evList && datedLog(ev) }):
			s.why = whyLog // its lists are dated lines: the dry run says so
		case r.hasList(s):
			s.why = whyNoItems
		}
	}
}

// proseParagraphs counts a section's paragraphs that are prose.
func (r *reader) proseParagraphs(s *sec) int {
	n := 0
	for _, ev := range s.events {
		if ev.kind == evParagraph && ev.lines > 0 && ev.prose {
			n++
		}
	}
	return n
}

// kidTask reports whether a sub-section of s names a task or a list of
// work, or holds checkboxes to tick, or every sub-section is one piece of
// work written as prose: then s's prose introduces them and is not an item
// of its own.
func (r *reader) kidTask(s *sec) bool {
	if slices.ContainsFunc(s.kids, func(k int) bool {
		t := r.secs[k]
		return r.isTask(t) || t.kind == kWork || t.kind == kTasks || r.groupsWork(t) || t.boxes > 0
	}) {
		return true
	}
	// Sub-sections that are each one piece of work written as prose
	// ("### Split the admin routes" and a paragraph) are the work; the
	// prose above them introduces them.
	return !slices.ContainsFunc(s.kids, func(k int) bool {
		t := r.secs[k]
		return t.kind != kPlain || len(t.kids) > 0 || t.plain+t.boxes > 0 || t.rows > 0 || !r.hasKind(t, isParagraph)
	})
}

func isParagraph(ev *event) bool { return ev.kind == evParagraph && ev.lines > 0 }

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
	r.criteria = 0
	logged := false // the lead-in names a log ("Progress so far:"): its boxes are done work
	skip := -1      // a list that is the details of the task line above it
	checks := s.kind.checks()
	lines := !boxesOnly && r.lineTasks(s)
	for i, ev := range s.events {
		switch ev.kind {
		case evParagraph:
			if ev.lines == 0 {
				continue
			}
			prose = prose || ev.prose
			c := leadInClass(ev.last)
			switch {
			case c.skips() || ev.leadIn && !c.checks():
				listSkipped, checkRun, logged = true, false, c == kLog
			case c.checks():
				listSkipped, checkRun = false, true
			case boxesOnly && !r.lifted && r.statesCheck(ev) && inlineCheck(r.lineText(ev.l0), true):
				// A checkbox plan's gate that says how to check the work
				// is a check of its own; one that names an outcome restates
				// the boxes above it.
				r.paragraphItem(s, ev)
				listSkipped, checkRun = false, false
			case boxesOnly:
				listSkipped, checkRun = false, false
			case checkRun && ev.lines == 1:
				r.paragraphItem(s, ev)
			case lines:
				r.lineItem(s, ev, nil)
			case (checks || checkRun) && r.markedLines(s, ev):
			case r.dialect == "bullets" && boldStep(r.lineText(ev.l0)):
				r.paragraphItem(s, ev)
				listSkipped, checkRun = false, false
			case r.dialect == "bullets" && inlineCheck(r.lineText(ev.l0), false):
				r.paragraphItem(s, ev)
				r.criteria++
				listSkipped, checkRun = false, false
			case !listSkipped && !boxesOnly && r.listTail(s, i):
				// A plain-text TODO's bare lines after its list are more
				// of its tasks.
				r.paragraphItem(s, ev)
			case r.plainText && s.level <= 1 && !listSkipped && r.taskLine(ev, i, s.events):
				// A plain-text TODO: each line is a task, an indented list
				// under it its details.
				var details *event
				if i+1 < len(s.events) && s.events[i+1].kind == evList {
					details = s.events[i+1]
				}
				r.lineItem(s, ev, details)
				if details != nil {
					skip = i + 1
				}
			default:
				listSkipped, checkRun = false, false
			}
		case evList:
			checkRun = false
			if i == skip || r.inEssay(s, i) {
				continue
			}
			var next *event
			if i+1 < len(s.events) {
				next = s.events[i+1]
			}
			// "1) Backend" alone, then on the next line the bullets of that
			// step: a label.
			if ev.ordered && len(ev.entries) == 1 && r.isLabelEntry(ev.item(&ev.entries[0])) && next != nil &&
				next.kind == evList && !next.ordered && len(next.entries) > 0 && !next.entries[0].empty &&
				nextLine(r.src, ev.at(ev.entries[0].item.Block).End, next.at(next.entries[0].item.Line).Start) {
				continue
			}
			// A plain list right after a box list (only blank lines
			// between) continues the task list in another marker.
			only := boxesOnly && !(i > 0 && s.events[i-1].kind == evList && hasBoxes(s.events[i-1]))
			if listSkipped && logged && len(ev.entries) > 0 && ev.entries[0].box {
				listSkipped = false // done work still counts
			}
			listSkipped = r.list(s, ev, only, listSkipped)
		case evTable:
			listSkipped, checkRun, prose = false, false, true
			if !r.lifted {
				r.plan.Items = append(r.plan.Items, entriesToItems(ev, ev.rows, s.scope, s.group)...)
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
// Entries that only name an area ("Multiplayer:") over bullets give those
// bullets instead (areaLabels), and a list of paths is a file list, not
// work (fileList). It reports whether the list ended still led in.
func (r *reader) list(s *sec, ev *event, boxesOnly, ledIn bool) bool {
	if ev.files {
		return ledIn
	}
	for i := range ev.entries {
		e := &ev.entries[i]
		if ledIn && e.box != ev.entries[0].box {
			ledIn = false
		}
		if e.empty {
			if !ledIn {
				r.plan.Problems = append(r.plan.Problems, Problem{Code: CodeEmptyItem, Message: emptyItemMessage, Range: ev.at(e.item.Line)})
			}
			continue
		}
		if ledIn || e.notWork || r.pointer(s, e) {
			continue
		}
		if boxGroup(e) {
			r.addKids(s, ev, e)
			continue
		}
		if openOverTicked(e) {
			r.addLeaves(s, ev, e)
			continue
		}
		if boxesOnly && !e.box {
			continue
		}
		if ev.areas && e.hasKids() && !e.box {
			r.addKids(s, ev, e)
			continue
		}
		r.add(s, ev.item(e))
	}
	return ledIn
}

// classify reads what a list's entries say of themselves, for list and
// bodyFacts: from each entry's text alone, so it is read once with the
// list's part (build.go) and kept with it across keystrokes. Read per
// entry on every keystroke, these tests were a third of planparse's
// reading rules at 1,000 items (BenchmarkInProcessKeystroke/repo1000).
func (ev *event) classify() {
	for i := range ev.entries {
		e := &ev.entries[i]
		if e.empty {
			continue
		}
		s := e.item.Subject
		// A box is work to tick even when it says "Don't …" (a behaviour
		// to build); a plain "Do not …" bullet is a rule.
		e.notWork = (!e.box && isDoNot(s)) || notNowBullet(s) || placeholder(s) || legendLine(s) || ev.ordered && laterLabel(e)
		// A numbered "**Scroll:** …" is a step, not a field.
		e.field = !ev.ordered && hasColon(s) && isFieldText(s)
	}
	ev.files, ev.areas = fileList(ev) || datedLog(ev), areaLabels(ev) || areaOutline(ev)
}

// datedLog reports whether a list is a log: two entries or more, none a
// box, each starting with a date ("- 2026-03-14: MFA report reviewed",
// "- (2026-02-07) Milestone 1 outcome: …"). Dated lines record what
// happened when; a dated box is done work and counts ("- [x] (2026-02-07)
// Milestone 1"), and a date inside an entry ("- Ship the beta by
// 2026-03-01") is a deadline, not a log.
func datedLog(ev *event) bool {
	n := 0
	for i := range ev.entries {
		e := &ev.entries[i]
		if e.empty {
			continue
		}
		if e.box || !startsWithDate(e.item.Subject) {
			return false
		}
		n++
	}
	return n >= 2
}

// startsWithDate reports whether a subject starts with an ISO date
// (YYYY-MM-DD), after an opening parenthesis, bracket or emphasis.
func startsWithDate(s string) bool {
	s = strings.TrimLeft(s, "*_([ ")
	if len(s) < 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	return digits(s, 0) == 4 && digits(s, 5) == 7 && digits(s, 8) == 10 && (len(s) == 10 || !isWordByte(s[10]))
}

// laterLabel reports whether a plain entry is only the label of work that
// is not planned now: in a numbered outline ("8) Optional future
// enhancements", "4) Later ideas") it names a part of the document, not a
// piece of work. (A bullet "- later" may well be a task's short name.)
func laterLabel(e *entry) bool {
	if e.box || strings.Count(e.item.Subject, " ") > 3 {
		return false // a label is a short phrase; most entries are sentences
	}
	l, _ := normPlain(removeEmphasis(e.item.Subject))
	return labelKind(l) == kExclude
}

// placeholder reports whether a subject only holds a place: all of it in
// parentheses ("- [ ] (initially empty)", "- [ ] _(none yet)_"), or a word
// that says the list is empty ("- None.", "- N/A", "- TBD").
func placeholder(subject string) bool {
	t := strings.Trim(trimSpace(subject), "*_ ")
	if len(t) >= 2 && t[0] == '(' && t[len(t)-1] == ')' && strings.IndexByte(t[1:len(t)-1], ')') < 0 {
		return true
	}
	t = strings.TrimRight(t, ".!")
	return slices.ContainsFunc([]string{"none", "n/a", "tbd", "nothing", "none yet"}, func(w string) bool { return strings.EqualFold(t, w) })
}

// legendLine reports whether a subject explains a box marker rather than
// naming work: it starts with the marker in a code span ("`[ ]` not
// started", "`[>] in-progress` - being worked on"), or it is a status
// mark and what it means ("✅ = shipped").
func legendLine(subject string) bool {
	t, ok := strings.CutPrefix(trimSpace(subject), "`[")
	if !ok {
		return markLegend(trimSpace(subject))
	}
	_, size := utf8.DecodeRuneInString(t)
	return size > 0 && strings.HasPrefix(t[size:], "]")
}

// notNowBullet reports whether a bullet says in a parenthetical that it is
// not planned now ("(might-do-someday)", "(later)", "(nice to have)"). Such
// a remark is short: a longer parenthetical describes the work, and may
// name an idea or the future as what the work is about ("(create the
// ideas table, its indexes and enums)").
func notNowBullet(subject string) bool {
	for s := subject; ; {
		i := strings.IndexByte(s, '(')
		if i < 0 {
			return false
		}
		j := strings.IndexByte(s[i:], ')')
		if j < 0 {
			return false
		}
		if a := strings.ToLower(s[i+1 : i+j]); len(strings.Fields(a)) <= notNowMaxWords && notNowAside(a) {
			return true
		}
		s = s[i+j+1:]
	}
}

// notNowMaxWords is the most words a parenthetical has that only remarks
// that its bullet is not planned now.
const notNowMaxWords = 5

func (r *reader) add(s *sec, it Item) {
	it.Group, it.Scope = s.group, s.scope
	r.plan.Items = append(r.plan.Items, it)
}

// areaLabels reports whether a list's parent entries only name areas, so
// that their nested bullets are the work (rule 10): most of the entries
// with nested bullets are a short label and a colon ("Multiplayer:",
// "Portability improvements:"), no entry is a box, and the list is not
// numbered.
func areaLabels(ev *event) bool {
	if ev.ordered {
		return false // numbered entries are steps, whatever they are written as
	}
	parents, labels := 0, 0
	for i := range ev.entries {
		e := &ev.entries[i]
		if e.box {
			return false
		}
		if !e.hasKids() {
			continue
		}
		parents++
		t := strings.TrimSpace(removeEmphasis(e.item.Subject))
		if (strings.HasSuffix(t, ":") || strings.HasSuffix(t, "：")) && len(strings.Fields(t)) <= 3 {
			labels++
		}
	}
	return labels >= 2 && labels*2 >= parents
}

// fileList reports whether a list names files rather than work: two or
// more entries without a box, at least two thirds of them only paths
// ("`src/app.ts`", "docs/a.md, docs/b.md", "lib/util.go (new)").
func fileList(ev *event) bool {
	n, paths := 0, 0
	for i := range ev.entries {
		e := &ev.entries[i]
		if e.empty {
			continue
		}
		if e.box {
			return false
		}
		n++
		if isPathOnly(e.item.Subject) && e.item.PlanText == "" {
			paths++
		}
	}
	return n >= 2 && paths*3 >= n*2
}

// isPathOnly reports whether a subject is one or more paths and nothing
// else but a parenthetical: every comma-separated part is one word with a
// '/' or a file extension.
func isPathOnly(subject string) bool {
	t := trimSpace(subject)
	if i := strings.LastIndexByte(t, '('); i > 0 && strings.HasSuffix(t, ")") {
		t = trimSpace(t[:i])
	}
	if t == "" {
		return false
	}
	for _, part := range strings.Split(t, ",") {
		p := strings.Trim(trimSpace(part), "`*_[]")
		if p == "" || strings.ContainsAny(p, " \t") {
			return false
		}
		dot := strings.LastIndexByte(p, '.')
		if !strings.Contains(p, "/") && (dot < 0 || dot == len(p)-1 || !isWordByte(p[dot+1])) {
			return false
		}
	}
	return true
}

// inlineChecks adds, in a task's own body, the criteria written as a label
// and their text ("**Acceptance:** the export opens in Excel", "Gate: …"):
// each is an item of its own (rule 13).
func (r *reader) inlineChecks(s *sec, criteriaOnly bool) {
	for _, ev := range s.events {
		switch ev.kind {
		case evParagraph:
			if ev.lines > 0 && inlineCheck(r.lineText(ev.l0), criteriaOnly) {
				r.paragraphItem(s, ev)
			}
		case evList:
			for i := range ev.entries {
				if e := &ev.entries[i]; !e.empty && inlineCheck(e.item.Subject, criteriaOnly) {
					r.add(s, ev.item(e))
				}
			}
		}
	}
}

// inlineCheck reports whether a line is a check label and its text on one
// line: "Gate: no path can leak a token", "**Acceptance:** …", "**Phase 1
// checkpoint**: …". With criteriaOnly, only acceptance, exit and done
// criteria count, not verification steps.
func inlineCheck(line string, criteriaOnly bool) bool {
	t := trimSpace(removeEmphasis(line))
	i := strings.IndexAny(t, ":：")
	if i <= 0 || i > 60 || trimSpace(t[i:]) == ":" || trimSpace(t[i:]) == "：" {
		return false
	}
	label := t[:i]
	if len(strings.Fields(label)) > 4 {
		return false
	}
	s, _ := normLabel(label)
	k := labelKind(s)
	if k == kPlain {
		if f, rest := formOf(label); f != fNone {
			rest, _ = normLabel(rest)
			k = labelKind(rest)
		}
	}
	return k == kCriteria || !criteriaOnly && k == kVerify
}

// boldStep reports whether a paragraph starts with a bold step number:
// "**1. Add the cache.** …", "**Step 2:** …".
func boldStep(line string) bool {
	t := strings.TrimLeft(line, " \t")
	if !strings.HasPrefix(t, "**") && !strings.HasPrefix(t, "__") {
		return false
	}
	t = t[2:]
	if i := digits(t, 0); i > 0 {
		return i < len(t) && strings.IndexByte(".):", t[i]) >= 0
	}
	f, _ := formOf(t)
	return f == fUnit
}

// statesCheck reports whether a gate or checkpoint paragraph says how to
// check the work, and a check not already listed as an item: it walks
// through a flow ("add a connection → browse the tables → run a query"), or
// names a command or a value in a code span that no item above names
// ("`docker compose up` 后 …"). A checkpoint that names an outcome only
// ("Foundation ready", "User Story 1 complete"), or only the commands of
// the boxes above it, restates them.
func (r *reader) statesCheck(ev *event) bool {
	if !bytes.ContainsAny(r.ln.text(ev.l0), ":：") {
		return false // no criterion label ("Checkpoint:") to read
	}
	for l := ev.l0; l <= ev.l1; l++ {
		t := r.ln.text(l)
		if bytes.Contains(t, arrow) {
			return true
		}
		for {
			i := bytes.IndexByte(t, '`')
			if i < 0 {
				break
			}
			j := bytes.IndexByte(t[i+1:], '`')
			if j < 0 {
				break
			}
			if code := bytes.TrimSpace(t[i+1 : i+1+j]); len(code) > 0 && !r.namesCode(code) {
				return true
			}
			t = t[i+2+j:]
		}
	}
	return false
}

// namesCode reports whether an item found so far names code in its subject.
func (r *reader) namesCode(code []byte) bool {
	for i := range r.plan.Items {
		if strings.Contains(r.plan.Items[i].Subject, string(code)) {
			return true
		}
	}
	return false
}

var arrow = []byte("→")

// markedLines adds each line of a paragraph in a checks section that starts
// with a check mark ("✅ all tests pass", "☐ docs updated"): criteria
// written without list markers. It reports whether it did.
func (r *reader) markedLines(s *sec, ev *event) bool {
	for l := ev.l0; l <= ev.l1; l++ {
		if !checkMarked(r.lineText(l)) {
			return false
		}
	}
	for l := ev.l0; l <= ev.l1; l++ {
		st, en := trimRange(r.src, r.ln.start[l], r.ln.end[l])
		rg := Range{st, en}
		r.add(s, Item{Subject: string(r.src[st:en]), Block: rg, Line: rg, SubjectRange: rg})
	}
	return true
}

// checkMarked reports whether a line starts with a check mark.
func checkMarked(line string) bool {
	t := strings.TrimLeft(line, " \t")
	for _, m := range []string{"✅", "✔", "✓", "☐", "□", "☑", "⬜", "🔲", "❌", "[ ]", "[x]"} {
		if strings.HasPrefix(t, m) {
			return true
		}
	}
	return false
}

// taskLine reports whether paragraph ev (events[i]) of a plain-text plan
// is a task line: one short line, not the document's first paragraph (its
// title) unless a list of details follows it right under it, and not the
// label of a list that follows after a blank line.
func (r *reader) taskLine(ev *event, i int, events []*event) bool {
	if ev.lines != 1 || ev.first.End-ev.first.Start > 120 {
		return false
	}
	if i+1 < len(events) && events[i+1].kind == evList {
		// A list right under the line is its details; after a blank
		// line, the line is the list's label ("TODO", "Done").
		next := events[i+1]
		if len(next.entries) == 0 {
			return false
		}
		at := next.at(next.entries[0].item.Line).Start
		return nextLine(r.src, ev.first.End, at-indentBefore(r.src, at))
	}
	return !r.firstPara(ev)
}

// lineTasks reports whether a task-list or checks section ("## Tasks",
// "## TODO", "## Acceptance criteria") is written as one short line per
// task or check without list markers: two paragraphs or more, each one
// line, none a lead-in, and nothing else but comments. Each line is then an
// item, as in a plain-text TODO.
func (r *reader) lineTasks(s *sec) bool {
	if s.kind != kTasks && !s.kind.checks() || s.head < 0 || s.plain+s.boxes > 0 || s.rows > 0 {
		return false
	}
	n := 0
	for _, ev := range s.events {
		switch {
		case ev.kind == evComment:
		case ev.kind == evParagraph && ev.lines == 1 && !ev.leadIn && ev.first.End-ev.first.Start <= 120:
			if t := bytes.TrimRight(r.ln.text(ev.l0), " \t"); bytes.HasSuffix(t, []byte(":")) || bytes.HasSuffix(t, []byte("：")) {
				return false
			}
			n++
		default:
			return false
		}
	}
	return n >= 2
}

// indentBefore counts the spaces and tabs before offset off on its line.
func indentBefore(src []byte, off int) int {
	n := 0
	for off-n > 0 && (src[off-n-1] == ' ' || src[off-n-1] == '\t') {
		n++
	}
	return n
}

// firstPara reports whether ev is the document's first paragraph.
func (r *reader) firstPara(ev *event) bool {
	for _, s := range r.secs {
		for _, e := range s.events {
			if e.kind == evParagraph && e.lines > 0 {
				return e == ev
			}
		}
	}
	return false
}

// lineItem adds a one-line paragraph as an item, with the list after it
// (if any) as its plan text.
func (r *reader) lineItem(s *sec, ev, details *event) {
	if ev.first.End <= ev.first.Start {
		return // a line of white space only ("\v"): it names nothing
	}
	it := Item{Subject: string(r.src[ev.first.Start:ev.first.End]), Block: ev.first, Line: ev.first, SubjectRange: ev.first}
	if details != nil && len(details.entries) > 0 {
		last := details.item(&details.entries[len(details.entries)-1])
		end := r.ln.lineOf(max(last.Block.End-1, last.Line.Start))
		it.PlanText = planText(r.ln, ev.l1+1, end)
		it.Block.End = r.ln.end[end]
	}
	r.add(s, it)
}

// paragraphItem adds a paragraph as one item: its first line the subject,
// its other lines the plan text.
func (r *reader) paragraphItem(s *sec, ev *event) {
	if ev.first.End <= ev.first.Start {
		return
	}
	it := Item{Subject: string(r.src[ev.first.Start:ev.first.End]), Block: ev.first, Line: ev.first, SubjectRange: ev.first}
	if ev.l1 > ev.l0 {
		it.PlanText = planText(r.ln, ev.l0+1, ev.l1)
		it.Block.End = r.ln.end[ev.l1]
	}
	r.add(s, it)
}

func (r *reader) lineText(l int) string { return string(r.ln.text(l)) }

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
func (r *reader) isLabelEntry(it Item) bool {
	if it.PlanText != "" {
		return false
	}
	line := r.src[it.Line.Start:it.Line.End]
	i := digits(string(line), 0)
	return i < len(line) && line[i] == ')' || strings.HasSuffix(it.Subject, ":")
}

// leadInClass is the kind of a paragraph line that ends with ':' (a label
// alone, not a sentence), or kPlain.
func leadInClass(line string) kind {
	t := trimSpace(removeEmphasis(line))
	if !strings.HasSuffix(t, ":") && !strings.HasSuffix(t, "：") {
		return kPlain
	}
	if len(t) > 80 {
		return kPlain // a sentence that ends in a colon, not a label
	}
	s, _ := normLabel(t)
	k := labelKind(s)
	if k == kPlain {
		k = seedKind(t)
	}
	if k == kPlain {
		// Lead-ins are phrases: a label they start with at a word
		// boundary counts ("Files touched:", "Not adopted, for now:").
		k = labelAtStart(s)
	}
	return k
}

// labelAtStart returns the kind of a skip label that s starts with at a word
// boundary, for lead-ins only.
func labelAtStart(s string) kind {
	idx := labelIndex()
	words := strings.Fields(s)
	for n := min(len(words), 3); n >= 1; n-- {
		if k, ok := lookupLabel(idx, strings.Join(words[:n], " ")); ok && k.skips() {
			return k
		}
	}
	return kPlain
}

func entriesToItems(ev *event, es []entry, scope []string, group string) []Item {
	out := make([]Item, 0, len(es))
	for i := range es {
		it := ev.item(&es[i])
		it.Scope, it.Group = scope, group
		out = append(out, it)
	}
	return out
}

// headingItem adds the item named by a section's heading (rules 3 and 5).
// With body, the item's plan text is what is under the heading: the
// section's own body, and for a task card its sub-sections too.
func (r *reader) headingItem(s *sec, body bool) {
	if s.head < 0 || s.level < 2 && r.level1 < 2 {
		return
	}
	h := r.plan.Headings[s.head]
	if trimSpace(h.Text) == "" {
		return // an empty heading names nothing (rule 5 needs a group)
	}
	it := Item{
		Subject:      h.Text,
		Group:        s.group,
		Scope:        s.scope,
		Section:      true,
		Block:        h.Range,
		Line:         Range{h.Range.Start, r.lineEnds[s.head]},
		SubjectRange: r.textRanges[s.head],
	}
	if body {
		end := s.ownEnd
		if len(s.kids) > 0 {
			end = s.end
		}
		// A heading is a block of its own: like a loose list item's text
		// after a blank line, the body starts with "\n", so that what
		// people read of the subject (Display) is the heading alone.
		if body := planText(r.ln, r.ln.lineOf(h.Range.End)+1, end-1); body != "" {
			it.PlanText = "\n" + body
		}
	}
	r.plan.Items = append(r.plan.Items, it)
}

// dedupe drops an item made from a heading when the plan states the same
// work again as a checkbox, by its words or by its task word and number,
// or names it by number in a task table with a status column (rule 7: a
// checklist or a status table that restates the step headings is where the
// work is ticked off).
func (r *reader) dedupe() {
	if !slices.ContainsFunc(r.plan.Items, func(it Item) bool { return it.Section }) {
		return
	}
	rows := map[string]bool{}
	r.tableIDs(rows)
	body := slices.ContainsFunc(r.plan.Items, func(it Item) bool { return it.Section && it.PlanText != "" })
	if !body && len(rows) == 0 {
		return
	}
	// Only heading items with a body can go, and they are few: their keys are
	// made first, and a list item is keyed only when its key prefix meets one
	// of theirs (keying all of a 1,000-item list was a quarter of a parse).
	var heads keySet
	ids := false
	for i := 0; body && i < len(r.plan.Items); i++ {
		if it := &r.plan.Items[i]; it.Section && it.PlanText != "" {
			heads.add(dedupeKey(it.Subject))
			ids = ids || taskID(it.Subject) != ""
		}
	}
	listed := map[string]bool{}
	for i := 0; body && i < len(r.plan.Items); i++ {
		// The list that restates the headings is a checklist: its boxes.
		if it := &r.plan.Items[i]; !it.Section && it.Checkbox != NoCheckbox {
			if heads.mayHold(it.Subject, false) {
				listed[dedupeKey(it.Subject)] = true
			}
			if !ids {
				continue
			}
			if id := taskID(it.Subject); id != "" {
				listed[id] = true
			}
		}
	}
	steps := restatedSteps(r.plan.Items)
	if len(listed)+len(rows)+len(steps) == 0 {
		return
	}
	r.plan.Items = slices.DeleteFunc(r.plan.Items, func(it Item) bool {
		if !it.Section {
			return false
		}
		id := taskID(it.Subject)
		if id != "" && rows[id] {
			return true // a task table's rows name it: they are ticked off, it details them
		}
		return it.PlanText != "" && (listed[dedupeKey(it.Subject)] || id != "" && listed[id] || steps[stepKey(it.Subject)])
	})
}

var taskWords = sync.OnceValue(func() []string { return slices.Concat(unitWords, groupWords) })

// taskID returns the task or group word and number a subject starts with
// ("step 1.2", "task 3", "milestone 2"), or "".
func taskID(subject string) string {
	s := strings.ToLower(removeEmphasis(subject))
	if strings.HasPrefix(s, "(") {
		// "(2025-03-02 11:40Z) Milestone 1: …": an ExecPlan's time stamp.
		if i := strings.IndexByte(s, ')'); i > 0 {
			s = trimSpace(s[i+1:])
		}
	}
	for _, w := range taskWords() {
		if w != "" && (s == "" || s[0] != w[0]) {
			continue // numberedAfter needs s to start with w
		}
		if rest, ok := numberedAfter(s, w); ok {
			id := strings.TrimSpace(s[:len(s)-len(rest)])
			return "\x00" + strings.TrimRight(id, ":：.)—–- ")
		}
	}
	return ""
}

// dedupeKey is s in lower case with only its letters and digits, written
// in one pass (emphasis and spaces are neither): lowering, removing the
// emphasis and filtering one after the other made three copies of every
// ticked item's subject on every keystroke.
func dedupeKey(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if r = keyRune(r); r >= 0 {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// keyRune is what dedupeKey keeps of r: its lower case when it is a letter
// or a digit, else -1.
func keyRune(r rune) rune {
	if r < utf8.RuneSelf {
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		if 'a' <= r && r <= 'z' || '0' <= r && r <= '9' {
			return r
		}
		return -1
	}
	if r = unicode.ToLower(r); unicode.IsLetter(r) || unicode.IsDigit(r) {
		return r
	}
	return -1
}

// keyPrefix is the first 8 bytes of dedupeKey(s) (stepKey(s) when step is
// set) packed in a uint64, read without building the key: equal keys have
// equal prefixes. Hashing whole subjects was 0.18 ms a keystroke at 1,000 items.
func keyPrefix(s string, step bool) uint64 {
	p, n, lead := uint64(0), 0, step
	var buf [utf8.UTFMax]byte
	for _, r := range s {
		if r = keyRune(r); r < 0 || lead && '0' <= r && r <= '9' {
			continue
		}
		lead = false
		for _, c := range buf[:utf8.EncodeRune(buf[:], r)] {
			if p, n = p<<8|uint64(c), n+1; n == 8 {
				return p
			}
		}
	}
	return p
}

// keySet is a set of keys (dedupeKey or stepKey) and their prefixes.
type keySet struct {
	keys     map[string]bool
	prefixes map[uint64]bool // keyPrefix
}

// add puts key, a key of the set's kind, in the set; "" is never added.
func (k *keySet) add(key string) {
	if key == "" {
		return
	}
	if k.keys == nil {
		k.keys, k.prefixes = map[string]bool{}, map[uint64]bool{}
	}
	k.keys[key] = true
	k.prefixes[keyPrefix(key, false)] = true
}

// mayHold reports whether the key of subject (its stepKey when step is
// set) may be in the set: false means it is not; true means it may be, and
// the caller compares the key.
func (k *keySet) mayHold(subject string, step bool) bool {
	return len(k.prefixes) > 0 && k.prefixes[keyPrefix(subject, step)]
}

// hints tells, on each outermost skipped heading whose subtree holds what
// looks like work (numbered steps, checkboxes, rows of a task table, a
// work-list or task sub-heading), what it holds and how to track it.
func (r *reader) hints() {
	for _, s := range r.secs {
		if s.head < 0 || !r.unread(s) || s.why == whyUnder || s.why == whySkip || r.boxesOnlyUnder(s) {
			continue
		}
		var steps, boxes, rows int
		var sub string
		for _, t := range r.secs[s.idx:] {
			if t != s && !r.within(t, s) {
				break
			}
			if !r.unread(t) {
				continue // read as work already ("### Task 1" under "## Context")
			}
			steps += t.ordered
			boxes += t.boxes
			rows += t.rows
			if t != s && sub == "" && (t.kind == kWork || t.kind == kTasks || r.isTask(t) || t.form == fUnit) {
				h := r.plan.Headings[t.head]
				sub = fmt.Sprintf("%s %q", strings.Repeat("#", h.Level), plainTitle(h.Text))
			}
		}
		var parts []string
		if steps >= 2 {
			parts = append(parts, fmt.Sprintf("%d numbered steps", steps))
		}
		if boxes > 0 && !s.kind.skips() || boxes > 0 && s.why == whyBoxes {
			parts = append(parts, fmt.Sprintf("%d checkboxes", boxes))
		}
		if rows >= 2 && !s.kind.skips() {
			parts = append(parts, fmt.Sprintf("%d task-table rows", rows))
		}
		if sub != "" {
			parts = append(parts, "the sub-heading "+sub)
		}
		if len(parts) == 0 {
			continue
		}
		r.plan.Headings[s.head].Hint = "it has what looks like work (" + strings.Join(parts, ", ") + "); to track it, add <!-- planls: track --> under the heading"
	}
}

// within reports whether t is in s's subtree.
func (r *reader) within(t, s *sec) bool {
	for p := r.parentOf(t); p != nil; p = r.parentOf(p) {
		if p == s {
			return true
		}
	}
	return false
}

func (r *reader) hasKind(s *sec, f func(*event) bool) bool { return slices.ContainsFunc(s.events, f) }

func (r *reader) hasList(s *sec) bool {
	return r.hasKind(s, func(ev *event) bool { return ev.kind == evList && len(ev.entries) > 0 })
}

func hasBoxes(ev *event) bool {
	for i := range ev.entries {
		if ev.entries[i].box && !ev.entries[i].empty {
			return true
		}
	}
	return false
}

// hasWordPrefix reports whether s starts with one of words at a word boundary.
func hasWordPrefix(s string, words []string) bool {
	return slices.ContainsFunc(words, func(w string) bool {
		return strings.HasPrefix(s, w) && (len(s) == len(w) || !isWordByte(s[len(w)]))
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

// namesHeadings reports whether half the entries of a list or more (of
// its boxes, with boxes set), and three at least, name the work that the
// plan's headings name, by a word of five letters or more they share
// ("- [x] MessageDisplay.tsx updated" under "### 1. MessageDisplay.tsx
// Changes"): the list ticks off that work, stated once more, and is how
// the plan tracks it. A list of checks that were run ("- [x] go test
// passes") names none of the headings.
func (r *reader) namesHeadings(ev *event, boxes bool) bool {
	if ev == nil {
		return false
	}
	words := map[string]bool{}
	for _, h := range r.secs {
		if h.head < 0 || h.level <= 1 || slices.Contains(h.events, ev) {
			continue
		}
		for _, w := range longWords(h.label) {
			words[w] = true
		}
	}
	named, counted := 0, 0
	for i := range ev.entries {
		e := &ev.entries[i]
		if boxes && !e.box || !boxes && e.empty {
			continue
		}
		counted++
		if slices.ContainsFunc(longWords(strings.ToLower(e.item.Subject)), func(w string) bool { return words[w] }) {
			named++
		}
	}
	return counted >= 3 && 2*named >= counted
}

// longWords are the words of s of five letters or more, split at anything
// that is no letter, digit or dot.
func longWords(s string) []string {
	return slices.DeleteFunc(strings.FieldsFunc(s, func(c rune) bool {
		return !unicode.IsLetter(c) && !unicode.IsDigit(c) && c != '.'
	}), func(w string) bool { return utf8.RuneCountInString(strings.Trim(w, ".")) < 5 })
}
