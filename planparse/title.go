package planparse

import (
	"strings"
	"sync"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// inlineParser is a full CommonMark (+ GFM strikethrough) parser, used only on
// the few lines that are title candidates, to remove their inline markup.
var inlineParser = sync.OnceValue(func() parser.Parser {
	return goldmark.New(goldmark.WithExtensions(extension.Strikethrough)).Parser()
})

// maxTitleMarkup bounds the text given to the inline parser: its cost is not
// linear on every input, and a title is a line, not a document. Longer
// candidates get rpiv's plain stripping (delete '*', '_' and backticks).
const maxTitleMarkup = 4096

// plainTitle removes inline markup from one title candidate (docs/PLAN-FORMAT.md
// "The title"): emphasis, links, images and HTML go, code span text stays
// ("Add `foo_bar`" gives "Add foo_bar"). The result is trimmed.
func plainTitle(s string) string {
	if t := trimSpace(s); !strings.ContainsAny(t, titleMarkup) {
		return t // most candidates: no slice, no parse
	}
	return plainTitles([]string{s})[0]
}

// titleMarkup holds the bytes that can start inline markup: a candidate
// without any is its own plain text.
const titleMarkup = "\\`*_[]<>!~&"

// plainTitles is plainTitle of each candidate, from one inline parse of all
// that have markup: one ATX heading line each (a candidate never spans
// lines, and a heading's inline content is parsed on its own, so no
// candidate changes how another reads). A parse per candidate took 1.5–1.8×
// the time and 1.4× the bytes for the items of a 200–1,000-item plan
// (BenchmarkDisplays), which an editor shows on every keystroke.
func plainTitles(ss []string) []string {
	out := make([]string, len(ss))
	var src []byte
	var parsed []int // indexes into ss of the candidates in src, in order
	for i, s := range ss {
		s = trimSpace(s)
		switch {
		case !strings.ContainsAny(s, titleMarkup):
			out[i] = s
		case len(s) > maxTitleMarkup:
			out[i] = removeEmphasis(s)
		default:
			// As the content of an ATX heading the candidate can't turn into
			// another block ("1. x", "- x", "> x"); the trailing " #" is the
			// closing sequence, so a '#' the candidate ends with is kept.
			src = append(src, "# "...)
			src = append(src, strings.ReplaceAll(s, "\n", " ")...)
			src = append(src, " #\n"...)
			parsed = append(parsed, i)
		}
	}
	if len(parsed) == 0 {
		return out
	}
	doc := inlineParser().Parse(text.NewReader(src))
	var b strings.Builder
	k := 0
	for h := doc.FirstChild(); h != nil && k < len(parsed); h = h.NextSibling() {
		b.Reset()
		collectText(h, src, &b, false)
		out[parsed[k]] = trimSpace(b.String())
		k++
	}
	return out
}

func collectText(n ast.Node, src []byte, b *strings.Builder, code bool) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			v := c.Segment.Value(src)
			if code {
				b.Write(v)
			} else {
				writeUnescaped(b, v)
			}
			if c.SoftLineBreak() || c.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(c.Value)
		case *ast.RawHTML:
		case *ast.AutoLink:
			b.Write(c.Label(src))
		case *ast.CodeSpan:
			collectText(c, src, b, true)
		default:
			collectText(c, src, b, code)
		}
	}
}

// writeUnescaped writes v without the backslashes of CommonMark escapes (a
// backslash before ASCII punctuation), which goldmark keeps in text segments.
func writeUnescaped(b *strings.Builder, v []byte) {
	for i := 0; i < len(v); i++ {
		if v[i] == '\\' && i+1 < len(v) && isASCIIPunct(v[i+1]) {
			i++
		}
		b.WriteByte(v[i])
	}
}

func isASCIIPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}
