package planparse

import (
	"bytes"
	"sort"
	"sync"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// blockParser is CommonMark block structure plus GFM tables. It has no inline
// parsers: items keep their markup verbatim, so inline parsing would be wasted
// work (only the title needs it, see title.go). GFM task boxes are an inline
// construct in goldmark; checkbox() reads them from the source instead. The
// link-reference-definition transformer is left out too, so a definition line
// stays a paragraph of prose instead of vanishing.
var blockParser = sync.OnceValue(func() parser.Parser {
	return parser.NewParser(
		parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithParagraphTransformers(util.Prioritized(pipeTables{extension.NewTableParagraphTransformer()}, 200)),
	)
})

// tree is one goldmark parse of the private copy, with the way back to
// offsets in the original input.
type tree struct {
	// doc is the parse, until the part is read (extractPart): a kept
	// part holds only what was read from it. The goldmark nodes of a
	// 1,000-item plan were 1.7 MB of the language server's 7 MB live heap
	// (BenchmarkRepoResidentMemory: 33.2 → 31.5 MB).
	doc  ast.Node
	base int   // bytes of src skipped before the copy (a BOM)
	ins  []int // offsets in the parsed bytes of inserted '\n' bytes, ascending
	size int   // length of the parsed bytes
	// tail is where the last block's last content line starts (a parsed
	// offset) when that block is a fence or HTML block that may be left
	// open; tailClosed or tailEmpty otherwise (endsClosed).
	tail int
	// events are the part's top-level blocks read (extractPart) when it
	// was parsed at base evBase, on line evLine of that input; a later
	// input with the same part elsewhere shifts them (appendEvents).
	events         []event
	evBase, evLine int
	// title is the part's first title candidate (firstParagraph), read
	// with the events.
	title      string
	titleRange Range
	hasTitle   bool
	key        string // the part's bytes (Plan.parts)
}

// tree.tail when the last block ends closed, or is an open block with no
// content lines.
const (
	tailClosed = -1
	tailEmpty  = -2
)

// parseTree parses buf with a '\n' inserted before each offset in at
// (ascending, offsets into buf). Inserted bytes never reach the result: orig
// maps every parsed offset back to the original input.
func parseTree(buf []byte, base int, at []int) *tree {
	t := &tree{base: base}
	gsrc := buf
	if len(at) > 0 {
		gsrc = make([]byte, 0, len(buf)+len(at))
		prev := 0
		for k, p := range at {
			gsrc = append(gsrc, buf[prev:p]...)
			gsrc = append(gsrc, '\n')
			t.ins = append(t.ins, p+k)
			prev = p
		}
		gsrc = append(gsrc, buf[prev:]...)
	}
	t.size = len(gsrc)
	t.doc = blockParser().Parse(text.NewReader(gsrc))
	t.tail = tailOf(t.doc)
	return t
}

// tailOf is tree.tail of doc.
func tailOf(doc ast.Node) int {
	last := doc.LastChild()
	if last == nil {
		return tailClosed
	}
	switch last.Kind() {
	case ast.KindFencedCodeBlock, ast.KindHTMLBlock:
	default:
		return tailClosed
	}
	if h, ok := last.(*ast.HTMLBlock); ok && h.HasClosure() {
		return tailClosed
	}
	segs := last.Lines()
	if segs.Len() == 0 {
		return tailEmpty
	}
	return segs.At(segs.Len() - 1).Start
}

// orig maps an offset in the parsed bytes to the original input. An offset on
// an inserted byte maps to the original byte that follows it.
func (t *tree) orig(p int) int {
	return t.base + p - sort.SearchInts(t.ins, p)
}

// start returns the parsed offset where block n begins (its first non-indent
// byte), or -1 when n holds no text at all.
func start(n ast.Node) int {
	if p := n.Pos(); p >= 0 {
		return p
	}
	if l := n.Lines(); l != nil && l.Len() > 0 {
		return l.At(0).Start
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if c.Type() != ast.TypeBlock {
			continue
		}
		if p := start(c); p >= 0 {
			return p
		}
	}
	return -1
}

// span is the extent of one block in original lines: [first, last], with
// trailing blank lines left out.
type span struct{ first, last int }

// blockSpans returns the line spans of nodes, which are consecutive siblings:
// each runs to the line before the next one starts, or to the line before
// next (an original offset; -1 means the end of input).
func blockSpans(t *tree, ln *lines, nodes []ast.Node, next int) []span {
	out := make([]span, len(nodes))
	firsts := make([]int, len(nodes))
	for i, n := range nodes {
		firsts[i] = ln.lineOf(t.orig(max(start(n), 0)))
	}
	endLine := ln.count()
	if next >= 0 {
		endLine = ln.lineOf(next)
	}
	for i := range nodes {
		last := endLine - 1
		if i+1 < len(nodes) {
			last = firsts[i+1] - 1
		}
		last = max(last, firsts[i])
		for last > firsts[i] && ln.blank(last) {
			last--
		}
		out[i] = span{firsts[i], last}
	}
	return out
}

// pipeTables is goldmark's GFM table transformer, asked only about
// paragraphs that can be a table: two lines or more and a '|' in them (a
// GFM table's header row has one). It ran on every paragraph, a tenth of a
// plan's parse (BenchmarkApprove1600Lines profile).
type pipeTables struct{ parser.ParagraphTransformer }

func (p pipeTables) Transform(node *ast.Paragraph, reader text.Reader, pc parser.Context) {
	lines := node.Lines()
	if lines.Len() < 2 {
		return
	}
	src := reader.Source()
	for i := 0; i < lines.Len(); i++ {
		if seg := lines.At(i); bytes.IndexByte(seg.Value(src), '|') >= 0 {
			p.ParagraphTransformer.Transform(node, reader, pc)
			return
		}
	}
}
