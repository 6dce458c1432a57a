package planparse

import (
	"strings"

	"github.com/yuin/goldmark/ast"
)

// Building a Plan is split in two so that Cache can reuse the first half per
// chunk: extractor reads one goldmark tree into events whose ranges do not
// depend on anything before the parsed bytes (see extract), and assembler
// (assemble.go) replays events in source order, applying the rules that carry
// state across headings (scope, context labels, lead-ins, sections, title,
// duplicates).

// evKind is the kind of a top-level block, as the rules tell blocks apart.
type evKind uint8

const (
	evHeading   evKind = iota // a heading (rule 2)
	evList                    // a top-level list (rule 4)
	evParagraph               // a paragraph, read line by line (rule 6)
	evFence                   // a fenced code block: prose that keeps lead-in skipping
	evProse                   // indented code, table, quote, HTML: prose that ends skipping
)

// event is one top-level block. Ranges are offsets into the parsed bytes.
type event struct {
	kind evKind
	// evHeading: Heading without Skipped, where its text is, the end of its
	// first line, and whether its text is a context label.
	head      Heading
	textRange Range
	lineEnd   int
	label     bool
	// evList: the items in order.
	entries []entry
	// evParagraph: lines > 0 when the paragraph has lines; prose when one of
	// them is not a lead-in; leadIn when the last one is.
	lines         int
	prose, leadIn bool
}

// entry is one top-level list item: an Item without Group and Scope, or,
// when empty, only the Line of an empty-item problem.
type entry struct {
	item  Item
	empty bool
}

// extract is what one goldmark tree gives: its events, the first title
// candidate among its paragraphs (rule 3's last resort), and whether it ends
// clean (see endsClean).
type extract struct {
	key        string // the parsed bytes, when kept by a Cache
	gen        uint64 // the Cache call that last used it
	items      int    // entries in all events
	events     []event
	title      string
	titleRange Range
	hasTitle   bool
	clean      bool
}

// extractor walks the document's direct children once (rule 1).
type extractor struct {
	src []byte
	ln  *lines
	t   *tree
	out *extract
}

func extractTree(src []byte, ln *lines, t *tree) *extract {
	x := &extractor{src: src, ln: ln, t: t, out: &extract{}}
	x.walk()
	x.out.title, x.out.titleRange, x.out.hasTitle = x.firstParagraphTitle()
	x.out.clean = x.endsClean()
	return x.out
}

func (x *extractor) walk() {
	kids := children(x.t.doc)
	nextStart := func(i int) int {
		if i < len(kids) {
			if p := start(kids[i]); p >= 0 {
				return x.t.orig(p)
			}
		}
		return -1
	}
	for i := 0; i < len(kids); i++ {
		switch n := kids[i].(type) {
		case *ast.Heading:
			x.out.events = append(x.out.events, x.heading(n))
		case *ast.List:
			items := children(n)
			spans := blockSpans(x.t, x.ln, items, nextStart(i+1))
			// rpiv joins a fence that directly follows an item (no blank line
			// between) to the item, whatever its indent (vector P29, not ⚠).
			// CommonMark ends the list there; the fence is taken back.
			for len(spans) > 0 && i+1 < len(kids) && kids[i+1].Kind() == ast.KindFencedCodeBlock {
				fs := blockSpans(x.t, x.ln, kids[i+1:i+2], nextStart(i+2))[0]
				if fs.first != spans[len(spans)-1].last+1 {
					break
				}
				spans[len(spans)-1].last = fs.last
				i++
			}
			ev := x.list(items, spans)
			x.out.items += len(ev.entries)
			x.out.events = append(x.out.events, ev)
		case *ast.Paragraph:
			x.out.events = append(x.out.events, x.paragraph(n))
		case *ast.ThematicBreak:
			// Not prose (rule 5 lists what is), and not a paragraph (rule 6).
		case *ast.FencedCodeBlock:
			x.out.events = append(x.out.events, event{kind: evFence})
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
	ev.label = n.Level > 1 && isContextLabel(ev.head.Text)
	return ev
}

// paragraph classifies each line as rpiv does: a lead-in line or prose.
func (x *extractor) paragraph(n *ast.Paragraph) event {
	ev := event{kind: evParagraph}
	segs := n.Lines()
	for i := 0; i < segs.Len(); i++ {
		l := x.ln.lineOf(x.t.orig(segs.At(i).Start))
		ev.leadIn = isLeadIn(string(x.ln.text(l)))
		ev.prose = ev.prose || !ev.leadIn
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
	if p := li.FirstChild(); p != nil && isTextBlock(p) {
		s := x.t.orig(p.Lines().At(0).Start)
		subjectLine = x.ln.lineOf(s)
		e := x.ln.end[subjectLine]
		s, e = trimRange(x.src, s, e)
		box, w := checkbox(x.src[s:e])
		if w > 0 {
			it.Checkbox = box
			s, e = trimRange(x.src, s+w, e)
		}
		it.Subject = string(x.src[s:e])
		it.SubjectRange = Range{s, e}
	}
	if it.Subject == "" {
		return entry{item: Item{Line: it.Line}, empty: true}, true
	}
	it.PlanText = planText(x.ln, subjectLine+1, sp.last)
	return entry{item: it}, true
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

// firstParagraphTitle is rule 3's last resort: the first line of the first
// paragraph (at any depth, code and HTML excluded) whose text is not empty
// once inline markup is removed.
func (x *extractor) firstParagraphTitle() (string, Range, bool) {
	title, r, ok := "", Range{}, false
	_ = ast.Walk(x.t.doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
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
				title, r, ok = t, Range{s, e}, true
				return ast.WalkStop, nil
			}
			return ast.WalkSkipChildren, nil
		}
		if n.Type() == ast.TypeInline {
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return title, r, ok
}

// isSetext tells a setext heading from an ATX one: goldmark places a setext
// heading at its first text line, an ATX heading at its '#' marker (so a
// setext heading whose text starts with '#' is still setext).
func isSetext(n ast.Node) bool {
	l := n.Lines()
	return l != nil && (l.Len() > 1 || (l.Len() == 1 && l.At(0).Start == n.Pos()))
}
