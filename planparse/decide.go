package planparse

import (
	"slices"
	"strings"
)

// act is what one section's own body gives (docs/PLAN-FORMAT.md
// "Sections"): each section gets exactly one, from its dialect's table.
type act uint8

const (
	// aTrack: each top-level bullet and task-table row is an item; a body
	// of prose alone is one item named by the heading (rule 5).
	aTrack act = iota
	// aBoxes: only checkboxes (and task-table rows) are items.
	aBoxes
	// aItem: one item named by the heading, its body the item's plan text;
	// a criterion written in it ("Acceptance: …") is an item of its own.
	aItem
	// aSkip: no items.
	aSkip
	// aDetail: part of the item a heading above names (a card's sub-section).
	aDetail
	// aSteps: each row of its numbered tables is an item (the heading
	// groups them).
	aSteps
)

// Why texts, shown by `planls approve --dry-run`, in the approval result and
// in the editor's preview lenses (Heading.Why).
const (
	whyContext  = "context section"
	whyStatus   = "a record of the current state"
	whyLog      = "a log of what was done"
	whyNotes    = "notes section"
	whyExclude  = "not work (non-goals, out of scope, do-not or later)"
	whySkip     = "skipped by <!-- planls: skip -->"
	whyUnder    = "inside a skipped section"
	whyBoxes    = "checkbox plan: only checkboxes are items"
	whyTodos    = "front-matter todos are the items"
	whyHeading  = "one item: the heading names the work"
	whyDetail   = "details of the item above"
	whyTrack    = "tracked by <!-- planls: track -->"
	whyNoItems  = "nothing to track"
	whyIntro    = "introduces the sections under it"
	whySpec     = "reference: the plan's work is in its task and work-list sections"
	whyGroupBox = "groups the checkboxes under it"
	whySteps    = "groups the numbered rows of its table"
	whyBoard    = "a board that repeats the checkboxes above it"
	whyAPI      = "reference: an endpoint of the API, in a plan that names its work elsewhere"
	whyRestate  = "a table that repeats the plan's phases or steps"
	whyProgress = "describes the work that the Progress checkboxes tick off"
	whyTicked   = "describes work that the plan's checkboxes tick off"
	whySummed   = "describes work that the plan's numbered summary lists"
	whyRestated = "restates the work of the plan's checkbox list, where it is ticked off"
	whyByID     = "points at work that the plan's task headings state"
)

// row is one line of a dialect's table: when its condition holds for a
// section, the section gets its act and why. The first row that holds
// decides, and each section is decided after its parent.
type row struct {
	name string
	when func(r *reader, s *sec) bool
	act  act
	why  string
	// hides: the row skips a section for what surrounds it, not for what
	// it says; a plan that gives no items is read again without such rows.
	hides bool
}

// dialect is how a whole plan tracks its work (docs/PLAN-FORMAT.md
// "Dialects"): a detector and a table. A new dialect is a new entry here, a
// new table, and a fixture in testdata/planparse/dialects.
type dialect struct {
	name   string
	detect func(r *reader) bool
	rows   []row
}

// dialects in the order they are tried; the last one always applies.
var dialects = []dialect{
	{"front-matter todos", func(r *reader) bool { return len(r.todos) > 0 }, todoRows},
	{"checkboxes", (*reader).boxPlan, boxRows},
	{"bullets", func(*reader) bool { return true }, bulletRows},
}

// commonRows come first in every table: overrides, what a section above
// decided, and labels that say a section is never work.
var commonRows = []row{
	{"<!-- planls: skip -->", func(_ *reader, s *sec) bool { return s.ov == overrideSkip }, aSkip, whySkip, false},
	{"<!-- planls: track -->", (*reader).forced, aTrack, whyTrack, false},
	{"under a section that is never work", (*reader).underHardSkip, aSkip, whyUnder, false},
	{"part of the item above", (*reader).underItem, aDetail, whyDetail, false},
	{"under a context section, not a task", (*reader).underSoftSkip, aSkip, whyUnder, true},
	{"non-goal, out of scope, later", (*reader).excluded, aSkip, whyExclude, false},
	{"a memory bank's record of what works and was decided", (*reader).memoryDone, aSkip, whyLog, false},
	{"a board that repeats the checkboxes above it", (*reader).board, aSkip, whyBoard, false},
}

var bulletRows = append(commonRows[:len(commonRows):len(commonRows)],
	row{"the title, or before any heading", (*reader).top, aTrack, "", false},
	row{"current state with checkboxes", statusBoxes, aBoxes, "", false},
	row{"current state", isKind(kStatus), aSkip, whyStatus, false},
	row{"log of done work", isKind(kLog), aSkip, whyLog, false},
	row{"a task table with a status column under a context or notes label", statusTableUnderLabel, aTrack, "", false},
	row{"a numbered work summary where no section is labelled the work list", (*reader).workSummary, aTrack, "", false},
	row{"context label", isKind(kContext), aSkip, whyContext, false},
	row{"notes label", isKind(kNotes), aSkip, whyNotes, false},
	row{"a table that repeats the plan's phases or steps", (*reader).restatesTable, aSkip, whyRestate, false},
	row{"a list that points at the plan's task headings by id", (*reader).restatesByID, aSkip, whyByID, false},
	row{"a step that the plan's work summary lists", (*reader).summed, aSkip, whySummed, false},
	row{"a phase of a sequence whose lists are statements", (*reader).statedPhase, aItem, whyHeading, false},
	row{"checks label", func(_ *reader, s *sec) bool { return s.kind.checks() }, aTrack, "", false},
	row{"a spec's topic before the plan's work list", (*reader).specTopic, aSkip, whySpec, true},
	row{"a work heading over a numbered table", (*reader).stepTable, aSteps, whySteps, false},
	row{"work-list label", func(_ *reader, s *sec) bool { return s.kind == kTasks || s.kind == kWork }, aTrack, "", false},
	row{"a line of prose over the list that specifies it", (*reader).describedFeature, aItem, whyHeading, false},
	row{"task heading over checkboxes", func(r *reader, s *sec) bool { return r.isTask(s) && s.boxes >= 2 }, aBoxes, whyGroupBox, false},
	row{"task heading", func(r *reader, s *sec) bool { return r.isTask(s) && len(s.kids) == 0 }, aItem, whyHeading, false},
	row{"task card with field sections", (*reader).card, aItem, whyHeading, false},
	row{"over sub-sections", func(_ *reader, s *sec) bool { return len(s.kids) > 0 }, aTrack, "", false},
	row{"group heading holding fields", func(r *reader, s *sec) bool { return r.grouping(s) && r.fields(s) }, aItem, whyHeading, false},
	row{"a card of fields among task cards", (*reader).fieldCard, aItem, whyHeading, false},
	row{"a file heading whose lists its prose leads in", (*reader).ledFile, aItem, whyHeading, false},
	row{"group heading", (*reader).grouping, aTrack, "", false},
	row{"reference in a plan that names its work", (*reader).spec, aSkip, whySpec, true},
	row{"an endpoint of an API reference", (*reader).endpoint, aSkip, whyAPI, true},
	row{"code or a table alone in a plan that lists its work", (*reader).exhibit, aSkip, whySpec, false},
	row{"one change in a plan-mode layout", (*reader).agentChange, aItem, whyHeading, false},
	row{"a topic whose prose leads in its list", (*reader).ledTopic, aItem, whyHeading, false},
	row{"a question answered in prose", (*reader).answered, aSkip, whyContext, false},
	row{"work", func(*reader, *sec) bool { return true }, aTrack, "", false},
)

var boxRows = append(commonRows[:len(commonRows):len(commonRows)],
	row{"the title, or before any heading", (*reader).top, aBoxes, "", false},
	row{"current state with checkboxes", statusBoxes, aBoxes, "", false},
	row{"current state", isKind(kStatus), aSkip, whyStatus, false},
	row{"context with checkboxes", func(_ *reader, s *sec) bool { return s.kind.skips() && s.boxes > 0 }, aBoxes, "", false},
	row{"log of done work", isKind(kLog), aSkip, whyLog, false},
	row{"context label", isKind(kContext), aSkip, whyContext, false},
	row{"notes label", isKind(kNotes), aSkip, whyNotes, false},
	row{"a table that repeats the plan's phases or steps", (*reader).restatesTable, aSkip, whyRestate, false},
	row{"an ExecPlan's plan of work beside its Progress checkboxes", (*reader).workBesideProgress, aSkip, whyProgress, false},
	row{"work that the plan's checkbox list ticks off", (*reader).tickedOff, aSkip, whyTicked, false},
	row{"checkboxes", func(_ *reader, s *sec) bool { return s.boxes > 0 }, aBoxes, "", false},
	row{"checks label without checkboxes", func(r *reader, s *sec) bool { return s.kind.checks() && s.boxes == 0 && !r.boxedChecks(s) }, aTrack, "", false},
	row{"task list, or numbered or top-level work list, without checkboxes", func(r *reader, s *sec) bool {
		p := r.parentOf(s)
		return (s.kind == kWork && (s.ordered > 0 || p == nil || r.top(p)) || s.kind == kTasks) && s.boxes == 0 && s.subBoxes == 0
	}, aTrack, "", false},
	row{"task heading without checkboxes", func(r *reader, s *sec) bool {
		return r.isTask(s) && len(s.kids) == 0 && s.subBoxes == 0
	}, aItem, whyHeading, false},
	row{"task card with field sections", (*reader).card, aItem, whyHeading, false},
	row{"group heading holding fields", func(r *reader, s *sec) bool {
		return r.grouping(s) && len(s.kids) == 0 && s.subBoxes == 0 && r.fields(s)
	}, aItem, whyHeading, false},
	row{"over sub-sections", func(_ *reader, s *sec) bool { return len(s.kids) > 0 }, aBoxes, "", false},
	row{"a list of plain work where no checkboxes are", (*reader).plainWorkInBoxPlan, aTrack, "", false},
	row{"no checkboxes", func(*reader, *sec) bool { return true }, aBoxes, whyBoxes, false},
)

var todoRows = append(commonRows[:len(commonRows):len(commonRows)],
	row{"checks section", func(r *reader, s *sec) bool { return r.inChecks(s) }, aTrack, "", false},
	row{"the body restates the todos", func(*reader, *sec) bool { return true }, aSkip, whyTodos, false},
)

// statusTableUnderLabel reports whether a section a context or notes label
// names ("Scope", "Notes") holds a task table with a status column: rows
// that say how far each task is are the plan's work, whatever the heading
// calls it.
func statusTableUnderLabel(_ *reader, s *sec) bool {
	return (s.kind == kContext || s.kind == kNotes) && s.statusRows > 0
}

// statusBoxes reports whether a current-state section holds checkboxes:
// each box is a piece of work to tick off, ticked or not, wherever it sits
// ("## Current status" over "- [x] Draft the architecture"); its other
// lines record the state.
func statusBoxes(_ *reader, s *sec) bool { return s.kind == kStatus && s.boxes > 0 }

func isKind(k kind) func(*reader, *sec) bool {
	return func(_ *reader, s *sec) bool { return s.kind == k }
}

// decide gives every section its act and why, parents first.
func (r *reader) decide(d *dialect) {
	for _, s := range r.secs {
		for _, rw := range d.rows {
			if rw.hides && r.lenient || !rw.when(r, s) {
				continue
			}
			s.act, s.why = rw.act, rw.why
			r.hid = r.hid || rw.hides
			break
		}
		// A skipped section is never work, whatever is under it, when it
		// says so itself (an override, a non-goal) or sits in such a one.
		p := r.parentOf(s)
		s.hard = s.act == aSkip && (s.why == whySkip || s.why == whyExclude || s.why == whyUnder && p != nil && p.hard)
	}
}

func (r *reader) parentOf(s *sec) *sec {
	if s.parent < 0 {
		return nil
	}
	return r.secs[s.parent]
}

// forced: the section or one above it says <!-- planls: track -->, and no
// skip override sits between.
func (r *reader) forced(s *sec) bool {
	if s.ov == overrideTrack {
		return true
	}
	p := r.parentOf(s)
	return p != nil && p.why == whyTrack
}

// softWhy are the reasons a section is skipped for its label: what is
// under it may still be work.
var softWhy = map[string]bool{whyContext: true, whyStatus: true, whyLog: true, whyNotes: true, whySpec: true, whyUnder: true, whyBoard: true, whyAPI: true, whyRestate: true, whyProgress: true, whyTicked: true, whySummed: true}

func (r *reader) underHardSkip(s *sec) bool {
	p := r.parentOf(s)
	return p != nil && p.hard
}

func (r *reader) underItem(s *sec) bool {
	p := r.parentOf(s)
	return p != nil && (p.act == aItem || p.act == aDetail)
}

// underSoftSkip: under a context, notes, state or reference section. A
// heading that names a task or a phase by a word and a number is work there
// too ("## File structure" then "### Task 1: …"; "## Status" then "### Phase
// 2"), but not in a log ("## Changelog" then "### Version 1.0"); so is a
// task list under a state in a bullet plan ("## Status" then "### Next
// up"), and in a checkbox plan a section with checkboxes that is no label
// itself (a checkbox plan's "Done" and "Open" lists under an analysis of
// the current state record what was found), and a checks section with
// open checkboxes under any label but a log (criteria still to tick are
// work where they stand; ticked ones there record checks already run). A numbered heading there numbers the reference ("## Architecture" then
// "### 1. Parser").
func (r *reader) underSoftSkip(s *sec) bool {
	p := r.parentOf(s)
	if p == nil || p.act != aSkip || !softWhy[p.why] {
		return false
	}
	switch {
	case (s.form == fUnit || s.form == fGroup) && s.restK != kExclude && p.why != whyLog:
		return false
	case p.why == whyStatus && (s.kind == kTasks || s.kind == kWork) && r.dialect != "checkboxes":
		return false // "## Status" then "### In progress", "### Next up"
	case r.dialect == "checkboxes" && s.boxes > 0 && s.kind == kPlain:
		return false
	case s.kind.checks() && p.why != whyLog && openBox(s):
		return false // "## Success metrics" then "### Launch criteria" and its boxes
	}
	return true
}

// openBox reports whether a section's own lists hold a box not ticked.
func openBox(s *sec) bool {
	for _, ev := range s.events {
		if ev.kind != evList {
			continue
		}
		for i := range ev.entries {
			if e := &ev.entries[i]; e.box && !e.empty && e.item.Checkbox != Checked {
				return true
			}
		}
	}
	return false
}

// named reports whether a heading names work by its form: a task word and a
// number, a group word and a number, a file action, or a step of a numbered
// sequence.
func (r *reader) named(s *sec) bool {
	if s.restK == kExclude {
		return false
	}
	switch s.form {
	case fUnit, fGroup, fFile:
		return true
	case fNumbered:
		return s.numSeq
	}
	return false
}

func (r *reader) excluded(s *sec) bool {
	if s.kind == kExclude || s.restK == kExclude {
		return true
	}
	return s.aside != "" && (labelKind(s.aside) == kExclude || notNowAside(s.aside) || hasWordPrefix(s.aside, []string{"not required"}))
}

// top reports whether s is the part before any heading or under the title
// (a level-1 heading, unless the plan uses several as its sections).
func (r *reader) top(s *sec) bool { return s.head < 0 || s.level <= 1 && r.level1 < 2 }

// isTask reports whether a heading names one piece of work: a task word and
// a number, an id, or a numbered heading that is a step of a sequence, sits
// under a list of work or is in a plan-mode agent's layout.
func (r *reader) isTask(s *sec) bool {
	if s.restK == kExclude {
		return false
	}
	switch s.form {
	case fUnit:
		return true
	case fNumbered:
		if s.outline {
			return false
		}
		if s.numSeq || r.agent {
			return true
		}
		p := r.parentOf(s)
		return p != nil && (p.kind == kWork || p.kind == kTasks)
	}
	return false
}

// grouping reports whether a heading names a group of work: "Phase 2",
// "Stage B", "[MODIFY] app.ts".
func (r *reader) grouping(s *sec) bool {
	return (s.form == fGroup || s.form == fFile) && s.restK != kExclude
}

// fields reports whether a section's body is a task card's fields: two or
// more field paragraphs ("**Tasks:**", "**Deliverable:** …", "Files:") with
// every list led in by one, or bullets that are mostly fields ("- **Files:**
// a.go").
func (r *reader) fields(s *sec) bool {
	return s.leadIns >= 2 && s.freeLists == 0 || s.fieldBullets >= 2 && s.fieldBullets*2 >= s.plain
}

// statedPhase reports whether a group heading without sub-sections or
// checkboxes is one item because its phases write their lists as parts of
// one sentence: this phase's list, or a sibling phase's, goes on in the
// paragraph after it ("### Phase 6: Frontend", its screens, then "are built
// first"). Then each list is the details of the one piece of work the
// heading names, and the phases of one sequence are read at one level: an
// author writes them the same way.
func (r *reader) statedPhase(s *sec) bool {
	if !r.grouping(s) || len(s.kids) > 0 || s.boxes > 0 || s.plain == 0 {
		return false
	}
	if s.statements > 0 {
		return true
	}
	if p := r.parentOf(s); p != nil {
		for _, k := range p.kids {
			if r.statesPhase(s, r.secs[k]) {
				return true
			}
		}
		return false
	}
	for _, t := range r.secs {
		if t.parent < 0 && t.level == s.level && r.statesPhase(s, t) {
			return true
		}
	}
	return false
}

// statesPhase reports whether t, a section beside s, is a phase whose list
// goes on in a sentence.
func (r *reader) statesPhase(s, t *sec) bool {
	return t != s && t.statements > 0 && r.grouping(t) && len(t.kids) == 0 && t.boxes == 0
}

// card reports whether a heading that names work has sub-sections that are
// only its fields ("## Phase 1" over "### Files", "### Implementation",
// "### Verification"): then the heading is the item and they are its details.
func (r *reader) card(s *sec) bool {
	if len(s.kids) == 0 || !(r.isTask(s) || r.grouping(s) || r.named(s)) || s.subBoxes > 0 {
		return false
	}
	for _, k := range s.kids {
		t := r.secs[k]
		if !t.field || t.kind == kTasks || len(t.kids) > 0 || t.rows > 0 || r.named(t) {
			return false
		}
	}
	return true
}

// spec reports whether a plain section with a list, a table or code is
// reference in a plan that names its work: a plan with context sections
// (Summary, Background) and a section that lists its work ("Key Changes",
// "Implementation plan", "Milestones") that this section is not under; a
// plan whose work is in task or phase headings, where this section comes
// before the first of them; or a spec that ends with its work, where this
// section comes before the first work list ("Milestones", "Deliverables").
func (r *reader) spec(s *sec) bool {
	if r.outlineSpec(s) {
		return true
	}
	if r.anchored == 0 || r.underAnchor(s) || s.boxes > 0 {
		return false // checkboxes are there to be ticked off, never reference
	}
	if r.preamble(s) {
		return true
	}
	if !r.hasKind(s, isReference) {
		return false
	}
	if r.anchorLabel && r.ctx {
		return true
	}
	if r.firstNamed > 0 && s.idx < r.firstNamed && r.shownAsReference(s) {
		return true
	}
	return r.firstListed > 0 && s.idx < r.firstListed
}

// preamble reports whether s is one of the plan's sections before the
// first one that names its work, whose heading names no work and whose
// body explains how to read what follows: prose, or lists whose entries
// each open with a bold term ("**Phase** = a release", "**Slot 2
// only**. Never touch the live app"), as a glossary or a set of standing
// rules is written. The work starts where the plan names it; a list of
// plain phrases before it ("## Setup" and its steps before "## Phase 1")
// is work, and so is a section with sub-sections or checkboxes.
func (r *reader) preamble(s *sec) bool {
	if s.idx >= r.anchored || s.head < 0 || !r.topLevel(s) || len(s.kids) > 0 || s.form != fNone || s.kind != kPlain || !s.content {
		return false
	}
	for _, ev := range s.events {
		switch ev.kind {
		case evParagraph, evComment:
		case evList:
			if !termList(ev) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// termList reports whether every entry of a list that is not a rule
// against something ("Do not …") opens with a bold term and goes on after
// it ("**Impact** = how much users gain"), or explains a status mark ("✅
// = shipped").
func termList(ev *event) bool {
	n := 0
	for i := range ev.entries {
		e := &ev.entries[i]
		if e.empty || e.notWork {
			continue
		}
		if e.hasKids() || !boldTerm(e.item.Subject) && !markLegend(e.item.Subject) {
			return false
		}
		n++
	}
	return n > 0
}

// boldTerm reports whether a subject opens with a bold span that text
// follows: "**Phase** = …", "**Only slot 2**. Never …".
func boldTerm(subject string) bool {
	for _, m := range []string{"**", "__"} {
		if rest, ok := strings.CutPrefix(subject, m); ok {
			end := strings.Index(rest, m)
			return end > 0 && trimSpace(rest[end+len(m):]) != ""
		}
	}
	return false
}

// shownAsReference reports whether a section's body is written as
// reference: code, tables and lists of fields, code or paths ("- `events(id,
// starts_at)`", "- **Option B (no script):** No."), none of its lists a
// list of plain phrases (the "## Setup" steps before "## Phase 1").
func (r *reader) shownAsReference(s *sec) bool {
	shown := false
	for _, ev := range s.events {
		switch ev.kind {
		case evFence, evTable:
			shown = true
		case evList:
			if !referenceList(ev) {
				return false
			}
			shown = true
		}
	}
	return shown
}

// boldLabel reports whether a subject starts with a bold label ending in a
// colon: "**Option B (dev-only path):** No.", "**Owner**: ops".
func boldLabel(subject string) bool {
	rest, ok := strings.CutPrefix(subject, "**")
	if !ok {
		return false
	}
	end := strings.Index(rest, "**")
	return end > 0 && (strings.HasSuffix(rest[:end], ":") || strings.HasPrefix(rest[end+2:], ":"))
}

// referenceList reports whether most entries of a list (two thirds) are
// fields, bold labels, code or paths rather than phrases.
func referenceList(ev *event) bool { return mostlyReference(ev, true) }

// mostlyReference reports whether two thirds of a list's entries or more
// start with code or a bold label, or are only paths; with fields set, a
// field ("Owner: ana") counts too. Empty entries are not counted.
func mostlyReference(ev *event, fields bool) bool {
	n, ref := 0, 0
	for i := range ev.entries {
		e := &ev.entries[i]
		if e.empty {
			continue
		}
		n++
		t := strings.TrimLeft(e.item.Subject, "*_ ")
		if strings.HasPrefix(t, "`") || fields && isFieldText(e.item.Subject) || boldLabel(e.item.Subject) || isPathOnly(e.item.Subject) {
			ref++
		}
	}
	return n > 0 && ref*3 >= n*2
}

// exhibit reports whether a section outside the plan's work list holds only
// code or a table that is not a task table, in a plan whose label lists its
// work or whose task table says how far each task is: a file's content or
// a reference table, not a piece of work written as prose.
func (r *reader) exhibit(s *sec) bool {
	if !r.anchorLabel && !r.statusTasks && r.firstNamed == 0 || len(s.kids) > 0 || s.rows > 0 || r.underAnchor(s) && !r.statusTasks {
		return false
	}
	shown := false
	for _, ev := range s.events {
		switch ev.kind {
		case evFence, evTable:
			shown = true
		case evComment:
		case evParagraph:
			if ev.lines > 0 && !r.captions(ev) {
				return false
			}
		default:
			return false
		}
	}
	return shown
}

// captions reports whether a paragraph of one line only labels the exhibit
// it stands with: a lead-in ending in a colon ("By v1.5 it should meet:") or
// a bold label and its value ("**Total:** about three months").
func (r *reader) captions(ev *event) bool {
	if ev.lines != 1 {
		return false
	}
	t := strings.TrimRight(removeEmphasis(ev.last), " \t")
	return strings.HasSuffix(t, ":") || strings.HasSuffix(t, "：") || boldLabel(trimSpace(string(r.ln.text(ev.l0))))
}

// board reports whether a section is a board that restates the plan's
// checkboxes: its sub-sections are three or more task lists (columns such
// as To do, In progress, Done), and the checkboxes of the sections before
// it that are work are at least as many as its own. The same work stated
// twice counts once, in the list it is first stated in; a board that is the
// plan's only list of work is that list.
func (r *reader) board(s *sec) bool {
	if s.head < 0 || len(s.kids) < 3 || s.subBoxes == 0 || s.kind == kTasks {
		return false
	}
	cols := 0
	for _, k := range s.kids {
		if r.secs[k].kind == kTasks {
			cols++
		}
	}
	if cols < 3 {
		return false
	}
	before := 0
	for _, t := range r.secs[:s.idx] {
		if t.act != aSkip {
			before += t.boxes
		}
	}
	return before >= s.subBoxes
}

// endpoint reports whether a heading outside the plan's work lists is an
// HTTP method and a path and nothing else ("GET /v1/items/:id"), in a plan
// that names its work elsewhere (a work list, task or phase headings): it
// names an endpoint of an API reference, and its body describes the
// endpoint. Under a work list ("## Implementation" then "### POST
// /v1/exports"), or in a plan of endpoints alone, it names the work of
// building it.
func (r *reader) endpoint(s *sec) bool {
	if s.head < 0 || r.anchored == 0 || s.boxes > 0 || r.underAnchor(s) {
		return false
	}
	method, path, ok := strings.Cut(s.label, " ")
	if !ok || !strings.HasPrefix(path, "/") || strings.ContainsAny(path, " \t") {
		return false
	}
	switch method {
	case "get", "post", "put", "patch", "delete", "head", "options":
		return true
	}
	return false
}

// underAnchor reports whether s is inside a section that names work or
// lists work or checks.
func (r *reader) underAnchor(s *sec) bool {
	for p := r.parentOf(s); p != nil; p = r.parentOf(p) {
		if r.isAnchor(p) || p.kind.lists() {
			return true
		}
	}
	return false
}

// isReference reports whether an event is what reference is written in: a
// list, a table or code. A section of prose only is one piece of work.
func isReference(ev *event) bool {
	switch ev.kind {
	case evList, evTable, evFence, evProse:
		return true
	}
	return false
}

// isAnchor reports whether a section names the plan's work: a work-list
// label, a task or phase heading.
func (r *reader) isAnchor(s *sec) bool {
	return (s.level > 1 || r.level1 > 1) && (r.listsWork(s) || r.named(s) || s.form == fNumbered && r.isTask(s))
}

// listsWork reports whether a section's label says it holds the plan's
// work: a work-list or task-list label, but not one that only follows the
// work ("Next steps", "Rollout"), names a design ("Approach") or is any
// section's name ("Work").
func (r *reader) listsWork(s *sec) bool {
	return (s.kind == kWork || s.kind == kTasks) && !afterWork[s.label]
}

var afterWork = map[string]bool{"next steps": true, "rollout": true, "fixes": true, "follow-ups": true, "follow-up": true,
	"approach": true, "recommended approach": true, "proposed approach": true, "solution": true, "proposed solution": true,
	"proposal": true, "work": true}

// agentChange: in a plan-mode agent's layout (a Summary, one heading per
// change, a Test plan), a heading with content under it that no work-list
// or task heading holds names one change, and its bullets are that
// change's details; numbered steps under it are steps.
func (r *reader) agentChange(s *sec) bool {
	return r.changes && s.level > 1 && s.content && s.ordered == 0 && !r.underAnchor(s)
}

// inChecks reports whether s or a section above it is a checks section.
func (r *reader) inChecks(s *sec) bool {
	for p := s; p != nil; p = r.parentOf(p) {
		if p.kind.checks() {
			return true
		}
	}
	return false
}

// stepTable reports whether a section's body is a numbered table and
// nothing else that is work: no list entries, no task-table rows, no
// sub-sections, under a heading that names work (a task, a group such as
// a phase, a work or task list). Its rows are then the steps of that work,
// in order, as a numbered list there would be ("### Change 2: sync engine"
// over "| 1. Change queue | 4 tasks |" …, "## Tasks" over "| 1 | Rename
// the module |" …), whatever the columns are called; the same table under
// a heading that names no work (decisions, a summary) is reference.
func (r *reader) stepTable(s *sec) bool {
	return s.steps >= 2 && s.plain+s.boxes+s.rows == 0 && len(s.kids) == 0 &&
		(r.isTask(s) || r.grouping(s) || s.kind == kTasks || s.kind == kWork)
}

// specTopic reports whether s is a sub-section of a chapter that comes
// before the plan's own work list ("## Storage design", then "### Local
// store: SQLite", and only later "## Implementation Plan") and whose
// heading names no work: a design document that ends in its plan describes
// what it builds, chapter by chapter, before it lists the work, so the
// chapters' topics are reference however their headings are worded. A
// heading that names work by its form ("### Phase 1: Local queue", a file
// action), or one under such a heading, is work wherever the chapter
// stands: the chapter holds the plan's phases, not its design. A
// section before the work list with no sub-sections ("## Content" and its
// bullets, then "## Done") is an area of work, not a chapter.
func (r *reader) specTopic(s *sec) bool {
	if r.workAt == 0 || s.idx >= r.workAt || s.head < 0 || s.boxes > 0 || s.subBoxes > 0 {
		return false
	}
	top := s
	for p := r.parentOf(s); p != nil && !r.top(p); p = r.parentOf(p) {
		if r.named(top) {
			return false
		}
		top = p
	}
	if top == s || r.top(top) || !r.topLevel(top) || top.kind != kPlain || r.isAnchor(top) || top.form != fNone {
		return false
	}
	return !s.kind.checks()
}

// topLevel reports whether s is one of the plan's sections: under the
// title, or a level-1 heading when the plan uses several as its sections.
func (r *reader) topLevel(s *sec) bool {
	if s.head < 0 || r.top(s) {
		return false
	}
	p := r.parentOf(s)
	return p == nil || r.top(p)
}

// answered reports whether s is a heading that asks a question and a body
// of prose that answers it ("### Why two modes?"): it explains the plan and
// is no piece of work, where a prose section under a heading that names work
// is one item. A numbered or task heading that asks ("### 5. Check: does
// the cache survive a restart?") is a step of the plan, and a list under the
// question is read as any list is.
func (r *reader) answered(s *sec) bool {
	if s.head < 0 || !s.question || s.form != fNone || len(s.kids) > 0 {
		return false
	}
	return !slices.ContainsFunc(s.events, func(ev *event) bool { return ev.kind == evList || ev.kind == evTable })
}

// tickedOff reports whether s, a numbered step without checkboxes, names
// work that a box of the plan's one checkbox list names too ("### 3.
// Settings page" and "- [x] Settings switch added"): the same work stated
// twice counts once, where it is ticked off. Checks to run are never a
// restatement of the work, and a topic heading ("#### Faders") that shares
// a word with a box describes, it does not restate.
func (r *reader) tickedOff(s *sec) bool {
	return r.tickOff != nil && r.restates(s, r.tickOff, true)
}

// restates reports whether s, a numbered step without checkboxes and no
// check to run, shares a word of five letters or more with an entry of
// list ev (a box of it, with boxes set) that is not in s itself.
func (r *reader) restates(s *sec, ev *event, boxes bool) bool {
	if s.head < 0 || s.form != fNumbered || !s.numSeq || s.boxes > 0 || s.subBoxes > 0 || s.kind.checks() || slices.Contains(s.events, ev) {
		return false
	}
	words := longWords(s.label)
	for i := range ev.entries {
		e := &ev.entries[i]
		if (e.box || !boxes) && slices.ContainsFunc(longWords(strings.ToLower(e.item.Subject)), func(w string) bool { return slices.Contains(words, w) }) {
			return true
		}
	}
	return false
}

// boxedChecks reports whether another checks section of the plan writes
// its checks as checkboxes: those boxes are what the plan ticks off.
func (r *reader) boxedChecks(s *sec) bool {
	return slices.ContainsFunc(r.secs, func(t *sec) bool { return t != s && t.kind.checks() && t.boxes > 0 })
}
