// Package planparse turns the markdown bytes of a plan (PLAN.md) into a Plan:
// its title, groups and plan items, each with verbatim text and byte ranges
// into the original input. It is pure: no I/O, no protocol types.
//
// The rules are docs/PLAN-FORMAT.md's, built on the
// CommonMark tree that goldmark produces (CommonMark + GFM tables and task lists).
// On every rpiv-todo vector of testdata/planparse/vectors.json not marked ⚠
// the result is rpiv's; the ⚠ ones give the planls results listed in
// planparse/vectors_test.go, for the reasons docs/PLAN-FORMAT.md gives.
//
// Decisions where the sources leave room:
//
//   - Unindented lines end the item (rule 4), also where
//     expects "continues here" to belong to item 1: a non-blank column-0 line
//     after an item is a paragraph of the section, never part of the item.
//     It stays in the section (a prose-only section becomes an item), so no
//     text is lost. Column-0 list-marker lines that follow such a line are
//     items again ("2. x" can't interrupt a paragraph in CommonMark, but rpiv
//     reads it as an item).
//   - A column-0 ATX heading ends a run of such lines: list-marker lines
//     after it read as CommonMark reads them, whatever came before the
//     heading.
//   - A fenced code block that directly follows an item, with no blank line
//     between, joins that item's planText whatever its indent (rpiv, vector
//     P29). After a blank line a column-0 fence is section prose (P16 ⚠).
//   - The subject is the first line of the item's first block when that block
//     is a paragraph (or a setext heading). An item that starts with another
//     block ("- ```", "- > quote", "- - nested") or with nothing has no
//     subject: it is not a plan item and gets an empty-item problem.
//   - A task box is "[ ]", "[x]" or "[X]" followed by a space, a tab or the
//     end of the line, at the start of the subject.
//   - Lead-ins (rule 6) are checked line by line, as rpiv does, so the last
//     line of a paragraph can lead in the list after it. Code fences neither
//     count as prose after a lead-in nor end its skipping (rpiv); tables,
//     quotes, HTML and indented code count as prose and end it. A thematic
//     break is not prose.
//   - Link reference definitions are kept as paragraphs (prose): items keep
//     their markup verbatim, so nothing needs them resolved.
//   - Title (rule 3): candidates whose text is empty once markup is removed
//     are passed over; candidates longer than 4096 bytes get rpiv's plain
//     stripping (delete '*', '_' and backticks) instead of inline parsing.
//   - Nesting is capped before goldmark sees it (see guard.go): past 10
//     container markers or 40 columns of line prefix, a line reads as text of
//     the deepest container left. Only structure deeper than any real plan is
//     affected; planText still holds every byte.
package planparse

// Range is a half-open byte range [Start, End) into the original input bytes
// (before any CRLF, lone-CR, BOM or front-matter handling).
type Range struct {
	Start int // byte offset, 0-based, inclusive
	End   int // byte offset, 0-based, exclusive
}

// Checkbox is the state of a GFM task-list box at the start of an item.
type Checkbox int

const (
	// NoCheckbox means the item has no `[ ]`/`[x]` box.
	NoCheckbox Checkbox = iota
	// Unchecked is `[ ]`.
	Unchecked
	// Checked is `[x]` or `[X]`.
	Checked
	// OtherMark is a box with another marker (`[~]`, `[-]`, `[/]`, `[v]`,
	// ...): plans use them for in progress, dropped or partly done. Like a
	// ticked box it never changes an item's status.
	OtherMark
)

// Item is one plan item: a bullet of a top-level list, or a prose-only section
// named by its heading (docs/PLAN-FORMAT.md).
type Item struct {
	// Subject is the first line of the item's first paragraph as written in the
	// source (inline markup kept), trimmed, without list marker, number or
	// checkbox. For a prose-only section it is the heading text.
	Subject string
	// PlanText is every later source line of the item, byte for byte, dedented by
	// the smallest indent of its non-blank lines, leading/trailing blank lines
	// removed, lines joined with "\n". Empty when absent.
	PlanText string
	// Group is the text of the nearest heading of level 2–6 ("" when none).
	Group string
	// Scope is the full heading path of levels 2–6 above the item, outermost
	// first (the seed's "full scope"). The last element equals Group when Group
	// is not empty. Items of one section share this slice: treat it as
	// read-only.
	Scope []string
	// Checkbox is the GFM task box state (rule 4).
	Checkbox Checkbox
	// Section is true for an item made from a prose-only section (rule 5).
	Section bool
	// Block is the byte range of the whole list item (or of the heading line, for
	// a section item).
	Block Range
	// Line is the byte range of the subject's line, from the start of the list
	// marker (or heading marker) to the end of that line, line ending excluded.
	// When the marker stands alone and the subject starts on the next line
	// ("-" then "  text"), Line is the marker's line. Diagnostics go here.
	Line Range
	// SubjectRange is the byte range of the subject text itself, checkbox and
	// surrounding white space excluded. For a section item it is the heading
	// text, which spans lines only for a multi-line setext heading.
	SubjectRange Range
}

// Heading is a heading that is a direct child of the document.
type Heading struct {
	Level int    // 1–6
	Text  string // heading text, inline markup kept (as for groups)
	Range Range  // byte range of the heading's line(s), line ending excluded
	// Skipped is true when no items come from this heading's own section
	// because it, or a heading above it, is not work (a context, notes or
	// non-goal section, or <!-- planls: skip -->).
	Skipped bool
	// Why says how the section was read, for people ("context section",
	// "checkbox plan: only checkboxes are items", "one item: the heading
	// names the work"); empty when its bullets are read as items.
	Why string
	// Hint is set on a skipped heading whose section holds what looks like
	// work (numbered steps, checkboxes, a work-list or task sub-heading):
	// what it holds and how to track it ("it has what looks like work (3
	// numbered steps); to track it, add <!-- planls: track --> under the
	// heading"). Empty otherwise.
	Hint string
}

// Problem is something wrong in the plan source that is not fatal:
// CodeEmptyItem on the Line of a list item without text, CodeDuplicateItem on
// the Line of each item that shares scope, subject and planText with another.
// Problems are sorted by Range.Start.
type Problem struct {
	Code    string // stable code, e.g. "empty-item", "duplicate-item"
	Message string // human sentence
	Range   Range  // where it is
}

// Plan is the result of Parse.
type Plan struct {
	// Title per docs/PLAN-FORMAT.md; "plan" when nothing else is found.
	Title string
	// TitleRange is where the title comes from (the heading or paragraph line);
	// zero when the title is the "plan" default.
	TitleRange Range
	Headings   []Heading
	Items      []Item
	Problems   []Problem

	// parts are the block parses of the document's parts by their bytes,
	// for the next Reparse (shared, never modified).
	parts map[string]*tree
}

// Reason is Why, followed by Hint when the section holds what looks like
// work: "context section; it has what looks like work (3 numbered steps);
// to track it, add <!-- planls: track --> under the heading". It is what
// approve, the dry run and the editor's preview lenses say of a skipped
// heading.
func (h Heading) Reason() string {
	if h.Hint == "" {
		return h.Why
	}
	return h.Why + "; " + h.Hint
}

// Unread returns the headings whose sections give no items for a reason
// worth telling the author (Why: a context, notes or non-goal label, an
// override, the plan's dialect, or work it states again: a board, a table
// of the phases), outermost only: a heading inside a
// skipped section is not listed again. In source order.
func (p *Plan) Unread() []Heading {
	var out []Heading
	for _, h := range p.Headings {
		switch h.Why {
		case whyContext, whyStatus, whyLog, whySpec, whyNotes, whyExclude, whySkip, whyBoxes, whyTodos, whyBoard, whyAPI, whyRestate, whyTicked, whyRestated, whySummed, whyByID:
			out = append(out, h)
		}
	}
	return out
}

// Lines is the line table of one source for position lookups in
// O(log lines): LF, CRLF and a lone CR each end a line (rule 8).
type Lines struct{ l *lines }

// NewLines indexes src, which must not change while the Lines is in use.
func NewLines(src []byte) Lines { return Lines{newLines(src)} }

// LineCol places byte offset off (0-based, clamped to src) at a 1-based line
// and a 1-based byte column. An offset on a line terminator belongs to the
// line it ends; the end of a source that ends in one is on the empty line after.
func (x Lines) LineCol(off int) (line, col int) {
	off = min(max(off, 0), len(x.l.src))
	i := x.l.lineOf(off)
	if off == len(x.l.src) && off > x.l.end[i] {
		return i + 2, 1
	}
	return i + 1, off - x.l.start[i] + 1
}

// LineOf returns the 1-based line of byte offset off in src (Lines.LineCol).
func LineOf(src []byte, off int) int {
	line, _ := NewLines(src).LineCol(off)
	return line
}
