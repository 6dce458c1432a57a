package planparse

import (
	"strings"

	"github.com/yuin/goldmark/ast"
)

// builder walks the document's direct children once (rule 1) and applies
// rules 2, 4, 5 and 6 in source order.
type builder struct {
	src  []byte
	ln   *lines
	t    *tree
	plan *Plan

	stack       []scopeEntry // open headings of levels 2–6, outermost first
	skipped     bool         // a heading on the stack is a context label
	listSkipped bool         // a lead-in paragraph skips the next list (rule 6)
	sec         section
	textRanges  []Range  // per plan.Headings entry: where its text is
	scopeCache  []string // scope() of the current heading path, shared
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

func (b *builder) walk() {
	b.sec.heading = -1
	kids := children(b.t.doc)
	nextStart := func(i int) int {
		if i < len(kids) {
			if p := start(kids[i]); p >= 0 {
				return b.t.orig(p)
			}
		}
		return -1
	}
	for i := 0; i < len(kids); i++ {
		switch n := kids[i].(type) {
		case *ast.Heading:
			b.heading(n)
		case *ast.List:
			items := children(n)
			spans := blockSpans(b.t, b.ln, items, nextStart(i+1))
			// rpiv joins a fence that directly follows an item (no blank line
			// between) to the item, whatever its indent (vector P29, not ⚠).
			// CommonMark ends the list there; the fence is taken back.
			for len(spans) > 0 && i+1 < len(kids) && kids[i+1].Kind() == ast.KindFencedCodeBlock {
				fs := blockSpans(b.t, b.ln, kids[i+1:i+2], nextStart(i+2))[0]
				if fs.first != spans[len(spans)-1].last+1 {
					break
				}
				spans[len(spans)-1].last = fs.last
				i++
			}
			b.list(items, spans)
		case *ast.Paragraph:
			b.paragraph(n)
		case *ast.ThematicBreak:
			// Not prose (rule 5 lists what is), and not a paragraph (rule 6).
		case *ast.FencedCodeBlock:
			// rpiv: a fence is prose unless the list after a lead-in is being
			// skipped, and it does not end that skipping.
			if !b.skipped && !b.listSkipped {
				b.sec.hasProse = true
			}
		default:
			// Indented code, tables, quotes and HTML: prose, read by rpiv as
			// paragraph lines that are never lead-ins.
			if !b.skipped {
				b.sec.hasProse = true
				b.listSkipped = false
			}
		}
	}
	b.closeSection()
}

// scope returns the heading path. Items of one section share the slice.
func (b *builder) scope() []string {
	if len(b.stack) == 0 {
		return nil
	}
	if b.scopeCache == nil {
		b.scopeCache = make([]string, len(b.stack))
		for i, e := range b.stack {
			b.scopeCache[i] = e.text
		}
	}
	return b.scopeCache
}

func (b *builder) group() string {
	if len(b.stack) == 0 {
		return ""
	}
	return b.stack[len(b.stack)-1].text
}

// heading applies rule 2: close the section, then update the heading path.
func (b *builder) heading(n *ast.Heading) {
	b.closeSection()
	h, tr := b.headingOf(n)
	if h.Level == 1 {
		b.stack = b.stack[:0]
	} else {
		for len(b.stack) > 0 && b.stack[len(b.stack)-1].level >= h.Level {
			b.stack = b.stack[:len(b.stack)-1]
		}
		b.stack = append(b.stack, scopeEntry{h.Level, h.Text, isContextLabel(h.Text)})
	}
	b.scopeCache = nil
	b.skipped = false
	for _, e := range b.stack {
		b.skipped = b.skipped || e.label
	}
	h.Skipped = b.skipped
	b.plan.Headings = append(b.plan.Headings, h)
	b.textRanges = append(b.textRanges, tr)
	b.sec = section{heading: len(b.plan.Headings) - 1}
	b.listSkipped = false
}

// headingOf reads a heading's text (trimmed, inline markup kept) and ranges.
// A setext heading's text lines are joined with one space.
func (b *builder) headingOf(n *ast.Heading) (Heading, Range) {
	first := b.t.orig(max(start(n), 0))
	line := b.ln.lineOf(first)
	h := Heading{Level: n.Level, Range: Range{first, b.ln.end[line]}}
	tr := Range{first, first}
	segs := n.Lines()
	if segs.Len() == 0 {
		return h, tr
	}
	var parts []string
	for i := 0; i < segs.Len(); i++ {
		sg := segs.At(i)
		s, e := b.t.orig(sg.Start), b.t.orig(sg.Stop)
		if l := b.ln.lineOf(s); e > b.ln.end[l] {
			e = b.ln.end[l]
		}
		s, e = trimRange(b.src, s, e)
		if i == 0 {
			tr.Start = s
		}
		tr.End = e
		parts = append(parts, string(b.src[s:e]))
	}
	h.Text = strings.Join(parts, " ")
	if isSetext(n) {
		// Setext: the range runs to the end of the underline.
		last := b.ln.lineOf(tr.End)
		if last+1 < b.ln.count() {
			last++
		}
		h.Range.End = b.ln.end[last]
	}
	if tr.End < tr.Start {
		tr.End = tr.Start
	}
	return h, tr
}

// closeSection applies rule 5 to the section being left.
func (b *builder) closeSection() {
	s := b.sec
	if s.heading < 0 || b.skipped || s.hasItems || !s.hasProse || b.group() == "" {
		return
	}
	h := b.plan.Headings[s.heading]
	b.plan.Items = append(b.plan.Items, Item{
		Subject:      h.Text,
		Group:        b.group(),
		Scope:        b.scope(),
		Section:      true,
		Block:        h.Range,
		Line:         Range{h.Range.Start, b.ln.end[b.ln.lineOf(h.Range.Start)]},
		SubjectRange: b.textRanges[s.heading],
	})
}

// paragraph applies rule 6 line by line, as rpiv does: a lead-in line skips
// the next list, any other line is prose and ends the skipping.
func (b *builder) paragraph(n *ast.Paragraph) {
	if b.skipped {
		return
	}
	segs := n.Lines()
	for i := 0; i < segs.Len(); i++ {
		l := b.ln.lineOf(b.t.orig(segs.At(i).Start))
		if isLeadIn(string(b.ln.text(l))) {
			b.listSkipped = true
		} else {
			b.sec.hasProse = true
			b.listSkipped = false
		}
	}
}

// list applies rule 4 to each item of a top-level list; spans are the items'
// lines.
func (b *builder) list(items []ast.Node, spans []span) {
	if b.skipped || b.listSkipped {
		return
	}
	for i, sp := range spans {
		b.item(items[i], sp)
	}
}

func (b *builder) item(li ast.Node, sp span) {
	p0 := start(li)
	if p0 < 0 {
		return // goldmark places every list item; nothing to point at otherwise
	}
	marker := b.t.orig(p0)
	ml := b.ln.lineOf(marker)
	it := Item{
		Group: b.group(),
		Scope: b.scope(),
		Block: Range{marker, b.ln.end[sp.last]},
		Line:  Range{marker, b.ln.end[ml]},
	}
	subjectLine := ml
	if p := li.FirstChild(); p != nil && isTextBlock(p) {
		s := b.t.orig(p.Lines().At(0).Start)
		subjectLine = b.ln.lineOf(s)
		e := b.ln.end[subjectLine]
		s, e = trimRange(b.src, s, e)
		box, w := checkbox(b.src[s:e])
		if w > 0 {
			it.Checkbox = box
			s, e = trimRange(b.src, s+w, e)
		}
		it.Subject = string(b.src[s:e])
		it.SubjectRange = Range{s, e}
	}
	if it.Subject == "" {
		b.plan.Problems = append(b.plan.Problems, Problem{Code: CodeEmptyItem, Message: emptyItemMessage, Range: it.Line})
		return
	}
	it.PlanText = planText(b.ln, subjectLine+1, sp.last)
	b.plan.Items = append(b.plan.Items, it)
	b.sec.hasItems = true
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

// title applies rule 3: the first level-1 heading, else the first heading,
// else the first line of the first paragraph, else "plan"; inline markup
// removed. Candidates whose text is empty once stripped are passed over.
func (b *builder) title() (string, Range) {
	for _, h := range b.plan.Headings {
		if h.Level == 1 {
			if t := plainTitle(h.Text); t != "" {
				return t, h.Range
			}
		}
	}
	for _, h := range b.plan.Headings {
		if t := plainTitle(h.Text); t != "" {
			return t, h.Range
		}
	}
	title, r := "plan", Range{}
	_ = ast.Walk(b.t.doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
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
			s := b.t.orig(n.Lines().At(0).Start)
			e := b.ln.end[b.ln.lineOf(s)]
			if t := plainTitle(string(b.src[s:e])); t != "" {
				s, e = trimRange(b.src, s, e)
				title, r = t, Range{s, e}
				return ast.WalkStop, nil
			}
			return ast.WalkSkipChildren, nil
		}
		if n.Type() == ast.TypeInline {
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return title, r
}

// isSetext tells a setext heading from an ATX one: goldmark places a setext
// heading at its first text line, an ATX heading at its '#' marker (so a
// setext heading whose text starts with '#' is still setext).
func isSetext(n ast.Node) bool {
	l := n.Lines()
	return l != nil && (l.Len() > 1 || (l.Len() == 1 && l.At(0).Start == n.Pos()))
}
