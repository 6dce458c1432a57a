package planparse

import (
	"bytes"
	"slices"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
)

// Building a Plan is split in two: extractor reads the goldmark tree into
// events, one per top-level block, and reader (read.go) groups them into
// sections and applies the reading rules (dialects, section classes,
// lead-ins, overrides, title, duplicates).

// evKind is the kind of a top-level block, as the rules tell blocks apart.
type evKind uint8

const (
	evHeading   evKind = iota // a heading (rule 2)
	evList                    // a top-level list (rule 4)
	evParagraph               // a paragraph, read line by line (rule 6)
	evFence                   // a fenced code block: prose that keeps lead-in skipping
	evProse                   // indented code, quote, HTML: prose that ends skipping
	evTable                   // a GFM table: prose, unless it is a task table
	evComment                 // an HTML block of comments only: invisible, not prose
)

// event is one top-level block. Ranges are offsets into the parsed bytes.
type event struct {
	kind evKind
	// evHeading: Heading without Skipped, where its text is, the end of
	// its first line, and what its text says.
	head      Heading
	textRange Range
	lineEnd   int
	said      *headFacts
	// evList: the items in order, whether the list is numbered, and what
	// its entries say as a whole (classify): files when the list is no
	// work at all (a file list, a dated log), areas when its parents only
	// name areas.
	entries      []entry
	ordered      bool
	files, areas bool
	// evParagraph: lines > 0 when the paragraph has lines; prose when one of
	// them is not a lead-in; leadIn when the last one is. last is the last
	// line's text, first the first line's range (a plain-text plan's item),
	// l0 and l1 its first and last lines (0-based).
	lines         int
	prose, leadIn bool
	last          string
	first         Range
	l0, l1        int
	// evComment: the planls override it holds, if any.
	override override
	// evTable: the data rows, when the header names a task or status column;
	// statusCol when it names a status column (the rows say how far each
	// task is); else steps, the rows of a table that numbers them
	// (numberedRows).
	rows, steps []entry
	statusCol   bool
	// moved is how many bytes the part moved since its entries and rows
	// were read: they are shared with the kept part, not copied, so their
	// ranges are where the part was (item adds moved).
	moved int
}

// item is entry e of ev (one of its entries or rows, or their kids) as an
// Item at the part's place in the input.
func (ev *event) item(e *entry) Item {
	it := e.item
	it.Block, it.Line, it.SubjectRange = ev.at(it.Block), ev.at(it.Line), ev.at(it.SubjectRange)
	return it
}

// at is a range of ev's entries at the part's place in the input.
func (ev *event) at(r Range) Range { return Range{r.Start + ev.moved, r.End + ev.moved} }

// entry is one top-level list item: an Item without Group and Scope, or,
// when empty, only the Line of an empty-item problem. Its ranges are where
// its part was read: its Item at the part's place now is event.item's.
type entry struct {
	item  Item
	empty bool
	box   bool // a task box of any marker ("[ ]", "[x]", "[~]", "[-]", ...)
	// What its text says (classify): no work of its own ("Do not …", a
	// placeholder, a not-now aside), or a field ("**Files:** a.go").
	notWork, field bool
	// kids are the entries of the first list nested in the item (nil when
	// none is), read with it: an area label's bullets.
	kids []entry
}

// hasKids reports whether a list is nested in the entry.
func (e *entry) hasKids() bool { return e.kids != nil }

// extract is what one goldmark tree gives: its events and the first title
// candidate among its paragraphs (rule 3's last resort).
type extract struct {
	events     []event
	items      int // how many items the last version had, plus room; 0: unknown
	title      string
	titleRange Range
	hasTitle   bool
}

// extractor walks the document's direct children once (rule 1). They may
// come from several parses (see reparse): each node carries its tree.
type extractor struct {
	src []byte
	ln  *lines
	t   *tree // the tree of the node being read
	out *extract
}

// pnode is a top-level block and the parse it comes from.
type pnode struct {
	t *tree
	n ast.Node
}

func topLevel(t *tree) []pnode {
	kids := children(t.doc)
	out := make([]pnode, len(kids))
	for i, k := range kids {
		out[i] = pnode{t, k}
	}
	return out
}

// extractPart reads the events of the part t parsed (its top-level blocks
// when the part is followed by the next part's heading, or by the end of
// src) and keeps them in t. Called once, before
// t is shared.
func (t *tree) extractPart(src []byte, ln *lines) {
	kids := topLevel(t)
	x := &extractor{src: src, ln: ln, out: &extract{events: make([]event, 0, len(kids))}}
	end := t.orig(t.size) // where the next part's heading starts
	if end >= len(src) {
		end = -1
	}
	x.walk(kids, end)
	t.events, t.evBase, t.evLine = x.out.events, t.base, ln.lineOf(t.base)
	t.title, t.titleRange, t.hasTitle = t.firstParagraph(src, ln)
	t.doc = nil
}

// appendEvents appends the events of part t at its place in the input
// whose line table is ln: those it was read with, moved by as many bytes
// and lines as the part moved; their entries and rows are shared, and
// event.moved says how far they moved. Reading each part once and moving it took
// a keystroke's walk of a 1,000-item plan from 1.9 ms (every part walked
// again) to 0.2 ms, and BenchmarkReparseEdit from 5.0 to 3.4 ms; sharing
// the entries instead of copying them saves 140 KB and a tenth of the
// parse per keystroke at 1,000 items (BenchmarkInProcessKeystroke/repo1000).
func (t *tree) appendEvents(dst []event, ln *lines) []event {
	db, dl := t.base-t.evBase, ln.lineOf(t.base)-t.evLine
	if db == 0 && dl == 0 {
		return append(dst, t.events...)
	}
	mv := func(r Range) Range { return Range{r.Start + db, r.End + db} }
	for _, ev := range t.events {
		ev.head.Range, ev.textRange, ev.first = mv(ev.head.Range), mv(ev.textRange), mv(ev.first)
		ev.lineEnd += db
		ev.l0, ev.l1 = ev.l0+dl, ev.l1+dl
		ev.moved = db
		dst = append(dst, ev)
	}
	return dst
}

// firstTitle is rule 3's last resort: the first title candidate of the
// parts in order (firstParagraph), where its part is now.
func firstTitle(trees []*tree) (string, Range, bool) {
	for _, t := range trees {
		if t.hasTitle {
			d := t.base - t.evBase
			return t.title, Range{t.titleRange.Start + d, t.titleRange.End + d}, true
		}
	}
	return "", Range{}, false
}

// firstParagraph is the first line of the first paragraph of t (at any
// depth, code and HTML excluded) whose text is not empty once inline
// markup is removed.
func (t *tree) firstParagraph(src []byte, ln *lines) (title string, r Range, ok bool) {
	x := &extractor{src: src, ln: ln, t: t}
	for c := t.doc.FirstChild(); c != nil && !ok; c = c.NextSibling() {
		_ = ast.Walk(c, x.titleWalker(&title, &r, &ok))
	}
	return title, r, ok
}

// walk reads kids into events; end is where the input they are read from
// ends (an original offset; -1: the end of src).
func (x *extractor) walk(kids []pnode, end int) {
	nextStart := func(i int) int {
		if i < len(kids) {
			if p := start(kids[i].n); p >= 0 {
				return kids[i].t.orig(p)
			}
			return -1
		}
		return end
	}
	for i := 0; i < len(kids); i++ {
		x.t = kids[i].t
		switch n := kids[i].n.(type) {
		case *ast.Heading:
			x.out.events = append(x.out.events, x.heading(n))
		case *ast.List:
			items := children(n)
			spans := blockSpans(x.t, x.ln, items, nextStart(i+1))
			// rpiv joins a fence that directly follows an item (no blank line
			// between) to the item, whatever its indent (vector P29, not ⚠).
			// CommonMark ends the list there; the fence is taken back.
			for len(spans) > 0 && i+1 < len(kids) && kids[i+1].t == x.t && kids[i+1].n.Kind() == ast.KindFencedCodeBlock {
				fs := blockSpans(x.t, x.ln, []ast.Node{kids[i+1].n}, nextStart(i+2))[0]
				if fs.first != spans[len(spans)-1].last+1 {
					break
				}
				spans[len(spans)-1].last = fs.last
				i++
			}
			ev := x.list(items, spans)
			ev.ordered = n.IsOrdered()
			ev.classify()
			x.out.events = append(x.out.events, ev)
		case *ast.Paragraph:
			x.out.events = append(x.out.events, x.paragraph(n))
		case *ast.ThematicBreak:
			// Not prose (rule 5 lists what is), and not a paragraph (rule 6).
		case *ast.FencedCodeBlock:
			x.out.events = append(x.out.events, event{kind: evFence})
		case *ast.HTMLBlock:
			x.out.events = append(x.out.events, x.html(n))
		case *extast.Table:
			x.out.events = append(x.out.events, x.table(n, nextStart(i+1)))
		default:
			x.out.events = append(x.out.events, event{kind: evProse})
		}
	}
}

// heading reads a heading's text (trimmed, inline markup kept) and ranges.
// A setext heading's text lines are joined with one space.
func (x *extractor) heading(n *ast.Heading) event {
	first := x.t.orig(max(start(n), 0))
	line := x.ln.lineOf(first)
	ev := event{kind: evHeading, lineEnd: x.ln.end[line]}
	ev.head = Heading{Level: n.Level, Range: Range{first, x.ln.end[line]}}
	ev.textRange = Range{first, first}
	segs := n.Lines()
	if segs.Len() > 0 {
		var parts []string
		for i := 0; i < segs.Len(); i++ {
			sg := segs.At(i)
			s, e := x.t.orig(sg.Start), x.t.orig(sg.Stop)
			if l := x.ln.lineOf(s); e > x.ln.end[l] {
				e = x.ln.end[l]
			}
			s, e = trimRange(x.src, s, e)
			if i == 0 {
				ev.textRange.Start = s
			}
			ev.textRange.End = e
			parts = append(parts, string(x.src[s:e]))
		}
		ev.head.Text = strings.Join(parts, " ")
		if isSetext(n) {
			// Setext: the range runs to the end of the underline.
			last := x.ln.lineOf(ev.textRange.End)
			if last+1 < x.ln.count() {
				last++
			}
			ev.head.Range.End = x.ln.end[last]
		}
		if ev.textRange.End < ev.textRange.Start {
			ev.textRange.End = ev.textRange.Start
		}
	}
	said := headFactsOf(ev.head.Text)
	ev.said = &said
	return ev
}

// paragraph classifies each line as rpiv does: a lead-in line or prose.
func (x *extractor) paragraph(n *ast.Paragraph) event {
	ev := event{kind: evParagraph}
	segs := n.Lines()
	for i := 0; i < segs.Len(); i++ {
		l := x.ln.lineOf(x.t.orig(segs.At(i).Start))
		ev.last = string(x.ln.text(l))
		ev.leadIn = isLeadIn(ev.last)
		ev.prose = ev.prose || !ev.leadIn
		if ev.lines == 0 {
			s, e := trimRange(x.src, x.ln.start[l], x.ln.end[l])
			ev.first = Range{s, e}
			ev.l0 = l
		}
		ev.l1 = l
		ev.lines++
	}
	return ev
}

// list applies rule 4 to each item of a top-level list; spans are the items'
// lines.
func (x *extractor) list(items []ast.Node, spans []span) event {
	ev := event{kind: evList, entries: make([]entry, 0, len(spans))}
	for i, sp := range spans {
		if e, ok := x.item(items[i], sp); ok {
			ev.entries = append(ev.entries, e)
		}
	}
	return ev
}

func (x *extractor) item(li ast.Node, sp span) (entry, bool) {
	p0 := start(li)
	if p0 < 0 {
		return entry{}, false // goldmark places every list item; nothing to point at otherwise
	}
	marker := x.t.orig(p0)
	ml := x.ln.lineOf(marker)
	it := Item{
		Block: Range{marker, x.ln.end[sp.last]},
		Line:  Range{marker, x.ln.end[ml]},
	}
	subjectLine := ml
	var ent entry
	if p := li.FirstChild(); p != nil && isTextBlock(p) {
		s := x.t.orig(p.Lines().At(0).Start)
		subjectLine = x.ln.lineOf(s)
		e := x.ln.end[subjectLine]
		s, e = trimRange(x.src, s, e)
		box, w := checkbox(x.src[s:e])
		if w > 0 {
			it.Checkbox = box
			ent.box = true
			s, e = trimRange(x.src, s+w, e)
		} else if statusMarked(x.src[s:e]) && !markLegend(string(x.src[s:e])) {
			// "- ✅ Login", "- ⬜ Payments": a status mark in place of a
			// box; the subject keeps it, as it is text, not a task box.
			ent.box = true
		}
		it.Subject = string(x.src[s:e])
		it.SubjectRange = Range{s, e}
	}
	if it.Subject == "" {
		return entry{item: Item{Line: it.Line}, empty: true}, true
	}
	it.PlanText = planText(x.ln, subjectLine+1, sp.last)
	ent.item = it
	ent.kids = x.nested(li, sp)
	return ent, true
}

// nested returns the entries of the first list nested in list item li
// (on lines sp), nil when none is.
func (x *extractor) nested(li ast.Node, sp span) []entry {
	for c := li.FirstChild(); c != nil; c = c.NextSibling() {
		l, ok := c.(*ast.List)
		if !ok {
			continue
		}
		items := children(l)
		next := -1
		if sp.last+1 < x.ln.count() {
			next = x.ln.start[sp.last+1]
		}
		spans := blockSpans(x.t, x.ln, items, next)
		for i := range spans {
			spans[i].last = min(spans[i].last, sp.last)
		}
		out := make([]entry, 0, len(items))
		for i, it := range items {
			if e, ok := x.item(it, spans[i]); ok {
				out = append(out, e)
			}
		}
		return out
	}
	return nil
}

// statusMarks stand for a task box at the start of a bullet in plans that
// track their work with emoji instead of "[ ]" and "[x]".
var statusMarks = [][]byte{[]byte("✅"), []byte("☑"), []byte("✔"), []byte("⬜"), []byte("☐"), []byte("🔲"), []byte("⏳"), []byte("🚧")}

// markLegend reports whether a line that opens with a status mark says
// what the mark means ("✅ = shipped"): a legend, not a task.
func markLegend(line string) bool {
	for _, m := range statusMarks {
		if rest, ok := strings.CutPrefix(line, string(m)); ok {
			return strings.HasPrefix(strings.TrimLeft(rest, " \t\uFE0F"), "=")
		}
	}
	return false
}

func statusMarked(b []byte) bool {
	return slices.ContainsFunc(statusMarks, func(m []byte) bool { return bytes.HasPrefix(b, m) })
}

// isTextBlock reports whether an item's first child gives its subject: a
// paragraph, or a setext heading (whose first line is a paragraph line).
func isTextBlock(n ast.Node) bool {
	if n.Lines() == nil || n.Lines().Len() == 0 {
		return false
	}
	switch n.Kind() {
	case ast.KindParagraph, ast.KindTextBlock:
		return true
	case ast.KindHeading:
		return isSetext(n)
	}
	return false
}

// titleWalker finds the first paragraph line whose text is not empty once
// inline markup is removed.
func (x *extractor) titleWalker(title *string, r *Range, ok *bool) ast.Walker {
	return func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.Kind() {
		case ast.KindFencedCodeBlock, ast.KindCodeBlock, ast.KindHTMLBlock:
			return ast.WalkSkipChildren, nil
		case ast.KindParagraph, ast.KindTextBlock:
			if n.Lines().Len() == 0 {
				return ast.WalkSkipChildren, nil
			}
			s := x.t.orig(n.Lines().At(0).Start)
			e := x.ln.end[x.ln.lineOf(s)]
			if t := plainTitle(string(x.src[s:e])); t != "" {
				s, e = trimRange(x.src, s, e)
				*title, *r, *ok = t, Range{s, e}, true
				return ast.WalkStop, nil
			}
			return ast.WalkSkipChildren, nil
		}
		if n.Type() == ast.TypeInline {
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	}
}

// isSetext tells a setext heading from an ATX one: goldmark places a setext
// heading at its first text line, an ATX heading at its '#' marker (so a
// setext heading whose text starts with '#' is still setext).
func isSetext(n ast.Node) bool {
	l := n.Lines()
	return l != nil && (l.Len() > 1 || (l.Len() == 1 && l.At(0).Start == n.Pos()))
}

// html reads an HTML block: a block of comments only is invisible (not
// prose), and a `<!-- planls: skip -->` or `<!-- planls: track -->` comment
// in it is an override for its section (docs/PLAN-FORMAT.md "Overrides").
func (x *extractor) html(n *ast.HTMLBlock) event {
	var b strings.Builder
	segs := n.Lines()
	for i := 0; i < segs.Len(); i++ {
		sg := segs.At(i)
		b.Write(x.src[x.t.orig(sg.Start):min(x.t.orig(sg.Stop), len(x.src))])
	}
	if n.HasClosure() {
		sg := n.ClosureLine
		b.Write(x.src[x.t.orig(sg.Start):min(x.t.orig(sg.Stop), len(x.src))])
	}
	text := b.String()
	rest, ov := stripComments(text)
	if strings.TrimSpace(rest) != "" {
		return event{kind: evProse, override: ov}
	}
	return event{kind: evComment, override: ov}
}

// stripComments removes every `<!-- ... -->` from s and returns what is
// left and the last planls override among the comments.
func stripComments(s string) (string, override) {
	var rest strings.Builder
	ov := noOverride
	for {
		i := strings.Index(s, "<!--")
		if i < 0 {
			rest.WriteString(s)
			break
		}
		rest.WriteString(s[:i])
		body := s[i+4:]
		j := strings.Index(body, "-->")
		if j < 0 {
			j = len(body)
			s = ""
		} else {
			s = body[j+3:]
		}
		if o := parseOverride(body[:j]); o != noOverride {
			ov = o
		}
	}
	return rest.String(), ov
}

// parseOverride reads the body of one HTML comment: "planls: skip" or
// "planls: track", any case and spacing.
func parseOverride(body string) override {
	f := strings.Fields(strings.ToLower(strings.ReplaceAll(body, ":", " : ")))
	if len(f) == 3 && f[0] == "planls" && f[1] == ":" {
		switch f[2] {
		case "skip":
			return overrideSkip
		case "track":
			return overrideTrack
		}
	}
	return noOverride
}

// table reads a GFM table. When its header names a task or status column
// ("Task", "Status", "Todo", "Aufgabe", "任务", ...), each data row is an
// entry: the row's line is its Line and Block, the task cell (else the
// first cell that is not a number) its subject, the whole row its plan
// text, so editing any cell is drift.
func (x *extractor) table(n ast.Node, next int) event {
	ev := event{kind: evTable}
	sp := blockSpans(x.t, x.ln, []ast.Node{n}, next)[0]
	if sp.last-sp.first < 2 {
		return ev
	}
	header := tableCells(x.ln.text(sp.first), x.ln.start[sp.first])
	col, status := -1, -1
	for i, c := range header {
		h, _ := normLabel(string(x.src[c.Start:c.End]))
		switch {
		case col < 0 && columnIs(h, taskColumns):
			col = i
		case status < 0 && columnIs(h, statusColumns):
			status = i
		}
	}
	if col >= 0 && kindColumn(x, sp, col) {
		// "| Action | Path |" over "| Create | a.go |", "| Modify | b.go |":
		// the column says what kind of change each row is, not the task.
		col = -1
	}
	if col < 0 && (status < 0 || !statusTable(x, sp, status, len(header))) {
		ev.steps = x.numberedRows(sp)
		return ev
	}
	ev.statusCol = status >= 0
	if col >= 0 && numbering(x, sp, col) {
		// "| Step | What |" over "| 1 | … |", "| 2 | … |": the task column
		// numbers the rows; the task is in the next column of phrases,
		// if there is one ("| 1 | ops |" names who, not what).
		if col = phraseColumn(x, sp, col+1); col < 0 {
			return ev
		}
	}
	for l := sp.first + 2; l <= sp.last; l++ {
		if x.ln.blank(l) {
			continue
		}
		cells := tableCells(x.ln.text(l), x.ln.start[l])
		pick := -1
		if col >= 0 && col < len(cells) {
			pick = col
		} else {
			for i, c := range cells {
				v := trimSpace(string(x.src[c.Start:c.End]))
				if v != "" && strings.Trim(v, "0123456789.#") != "" {
					pick = i
					break
				}
			}
		}
		if pick < 0 {
			continue
		}
		c := cells[pick]
		s, e := trimRange(x.src, c.Start, c.End)
		if v := plainTitle(string(x.src[s:e])); strings.Trim(v, "0123456789.,%/ ") == "" || isIDRange(v) {
			// A count ("| Phase 1 | 5 tasks |" as "| 5 |") or a range of
			// task ids ("| MVP | T001-T040 |"): a summary row.
			continue
		}
		ev.rows = append(ev.rows, x.rowEntry(l, s, e))
	}
	if len(ev.rows) == 0 {
		// "| Group | Tasks |" over "| 1. Change queue | 4 |": the task
		// column only counts; the rows may still be numbered work.
		ev.steps = x.numberedRows(sp)
	}
	return ev
}

// rowEntry is the entry of table row l (0-based) whose subject is the
// bytes s to e: the row's line is its Line and Block, the whole row its
// plan text.
func (x *extractor) rowEntry(l, s, e int) entry {
	lr := Range{x.ln.start[l] + indent(x.ln.text(l)), x.ln.end[l]}
	return entry{item: Item{Subject: string(x.src[s:e]), SubjectRange: Range{s, e}, Line: lr, Block: lr,
		PlanText: trimSpace(string(x.ln.text(l)))}}
}

// numberedRows returns the rows of a table that numbers them, each named
// by its cell of words: a first column of 1, 2, 3, … with the phrase in a
// later column ("| 1 | Rename the module | go.mod |"), or first cells that
// start with their number ("| 1. Change queue | 4 | … |"). Such rows are
// steps in order; whether they are work is the section's to say (a
// numbered decisions table is not), so they are kept apart from a task
// table's rows. Nil for any other table, or fewer than two rows.
func (x *extractor) numberedRows(sp span) []entry {
	col := 0
	if numbering(x, sp, 0) {
		if col = phraseColumn(x, sp, 1); col < 0 {
			return nil
		}
	} else if !ordinalCells(x, sp) {
		return nil
	}
	var out []entry
	for l := sp.first + 2; l <= sp.last; l++ {
		if x.ln.blank(l) {
			continue
		}
		c := tableCells(x.ln.text(l), x.ln.start[l])[col]
		s, e := trimRange(x.src, c.Start, c.End)
		out = append(out, x.rowEntry(l, s, e))
	}
	return out
}

// ordinalCells reports whether the first cell of every data row starts
// with the row's number, a '.' or ')' and words: "1. Change queue", "2)
// Uploader", at least two rows.
func ordinalCells(x *extractor, sp span) bool {
	n := 0
	for l := sp.first + 2; l <= sp.last; l++ {
		if x.ln.blank(l) {
			continue
		}
		cells := tableCells(x.ln.text(l), x.ln.start[l])
		if len(cells) == 0 {
			return false
		}
		n++
		v := plainTitle(string(x.src[cells[0].Start:cells[0].End]))
		rest, ok := strings.CutPrefix(v, strconv.Itoa(n))
		if !ok || len(rest) < 3 || rest[0] != '.' && rest[0] != ')' || rest[1] != ' ' || trimSpace(rest[2:]) == "" {
			return false
		}
	}
	return n >= 2
}

// kindColumn reports whether column col of a table's data rows holds one
// word per row from a set smaller than the rows ("Create", "Create",
// "Modify"): it sorts the rows into kinds of change, and a task needs a
// phrase.
func kindColumn(x *extractor, sp span, col int) bool {
	seen := map[string]bool{}
	rows := 0
	for l := sp.first + 2; l <= sp.last; l++ {
		if x.ln.blank(l) {
			continue
		}
		cells := tableCells(x.ln.text(l), x.ln.start[l])
		if col >= len(cells) {
			return false
		}
		v := strings.ToLower(plainTitle(trimSpace(string(x.src[cells[col].Start:cells[col].End]))))
		if len(strings.Fields(v)) != 1 {
			return false
		}
		seen[v] = true
		rows++
	}
	return rows >= 2 && len(seen) < rows
}

// numbering reports whether column col of a table's data rows holds the
// numbers 1, 2, 3, … in order: it numbers the rows, it names no task.
func numbering(x *extractor, sp span, col int) bool {
	n := 0
	for l := sp.first + 2; l <= sp.last; l++ {
		if x.ln.blank(l) {
			continue
		}
		cells := tableCells(x.ln.text(l), x.ln.start[l])
		if col >= len(cells) {
			return false
		}
		v := strings.TrimRight(trimSpace(string(x.src[cells[col].Start:cells[col].End])), ".")
		if n++; v != strconv.Itoa(n) {
			return false
		}
	}
	return n >= 2
}

// phraseColumn returns the first column from col on whose cell holds two
// words or more in every data row, or -1.
func phraseColumn(x *extractor, sp span, col int) int {
	header := tableCells(x.ln.text(sp.first), x.ln.start[sp.first])
	for c := col; c < len(header); c++ {
		ok := true
		for l := sp.first + 2; l <= sp.last && ok; l++ {
			if x.ln.blank(l) {
				continue
			}
			cells := tableCells(x.ln.text(l), x.ln.start[l])
			ok = c < len(cells) && len(strings.Fields(plainTitle(string(x.src[cells[c].Start:cells[c].End])))) >= 2
		}
		if ok {
			return c
		}
	}
	return -1
}

// isIDRange reports whether a cell is only task ids: "T001-T040", "T5",
// "US1, US2".
func isIDRange(v string) bool {
	if v == "" {
		return false
	}
	for _, part := range strings.FieldsFunc(v, func(r rune) bool { return r == '-' || r == '–' || r == ',' || r == ' ' }) {
		i := 0
		for i < len(part) && part[i] >= 'A' && part[i] <= 'Z' {
			i++
		}
		if i == 0 || i > 4 || digits(part, i) != len(part) || digits(part, i) == i {
			return false
		}
	}
	return true
}

// tableCells splits a table row into its cells' byte ranges (absolute,
// from off), pipes escaped with '\' or inside code spans kept in the cell.
func tableCells(line []byte, off int) []Range {
	var out []Range
	i := indent(line)
	if i < len(line) && line[i] == '|' {
		i++
	}
	start, code := i, false
	for ; i < len(line); i++ {
		switch line[i] {
		case '\\':
			i++
		case '`':
			code = !code
		case '|':
			if !code {
				out = append(out, Range{off + start, off + i})
				start = i + 1
			}
		}
	}
	if t := trimSpace(string(line[start:min(i, len(line))])); t != "" {
		out = append(out, Range{off + start, off + len(line)})
	}
	return out
}

// taskColumns and statusColumns name a task table's columns (lower case).
// A table with a task column lists one task per row; one with only a status
// column does when its rows say how far a task is ("done", "✅", "todo").
// "Change" names no task column: a "| File | Change |" or "| Key | Type |
// Change |" table says what each file or setting becomes, a reference for
// the steps beside it.
var (
	taskColumns = []string{"task", "tasks", "todo", "to do", "step", "action", "action item", "work item",
		"deliverable", "ticket", "story", "aufgabe", "schritt", "tarea", "paso", "tarefa", "tâche",
		"tache", "étape", "задача", "шаг", "nhiệm vụ", "công việc", "zadanie", "görev",
		"任务", "任務", "步骤", "タスク", "作業", "작업", "할 일"}
	statusColumns = []string{"status", "state", "done", "progress", "estado", "état", "etat", "статус",
		"trạng thái", "durum", "状态", "狀態", "状態", "ステータス", "進捗", "상태", "✓", "✅"}
	statusValues = []string{"done", "todo", "to do", "pending", "complete", "completed", "in progress",
		"wip", "planned", "not started", "started", "blocked", "open", "closed", "partial", "deferred",
		"skipped", "ready", "✅", "⬜", "☐", "❌", "🔄", "⏳", "🚧", "✔", "✓", "[x]", "[ ]",
		"hecho", "pendiente", "feito", "pendente", "fait", "erledigt", "offen", "готово", "в работе",
		"完成", "已完成", "进行中", "未开始", "完了", "未着手", "진행 중", "완료", "예정"}
)

// columnIs reports whether a normalised header cell is one of words, or
// starts with one followed by a qualifier ("Task name", "Status (PR)").
func columnIs(h string, words []string) bool {
	return slices.ContainsFunc(words, func(w string) bool {
		return h == w || strings.HasPrefix(h, w+" ") || strings.HasPrefix(h, w+"/")
	})
}

// statusTable reports whether a table with a status column (and no task
// column) tracks tasks: it has three columns or more, or most of its status
// cells say how far a task is; an audit's "| Check | Result |" or a
// key-value "| Field | Status |" table does not.
func statusTable(x *extractor, sp span, col, ncols int) bool {
	rows, says := 0, 0
	for l := sp.first + 2; l <= sp.last; l++ {
		cells := tableCells(x.ln.text(l), x.ln.start[l])
		if col >= len(cells) {
			continue
		}
		rows++
		v, _ := normLabel(string(x.src[cells[col].Start:cells[col].End]))
		raw := strings.ToLower(trimSpace(string(x.src[cells[col].Start:cells[col].End])))
		if slices.ContainsFunc(statusValues, func(w string) bool { return hasWordPrefix(v, []string{w}) || strings.HasPrefix(raw, w) }) {
			says++
		}
	}
	return rows > 0 && (ncols >= 3 && says > 0 || says*2 > rows)
}
