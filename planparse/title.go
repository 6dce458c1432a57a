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

// plainTitle removes inline markup from one title candidate (planls-rules.md
// rule 3): emphasis, links, images and HTML go, code span text stays
// ("Add `foo_bar`" gives "Add foo_bar"). The result is trimmed.
func plainTitle(s string) string {
	s = trimSpace(s)
	if !strings.ContainsAny(s, "\\`*_[]<>!~&") {
		return s
	}
	if len(s) > maxTitleMarkup {
		return removeEmphasis(s)
	}
	// As the content of an ATX heading the candidate can't turn into another
	// block ("1. x", "- x", "> x"); the trailing " #" is the closing sequence,
	// so a '#' the candidate ends with is kept.
	src := []byte("# " + strings.ReplaceAll(s, "\n", " ") + " #")
	doc := inlineParser().Parse(text.NewReader(src))
	var b strings.Builder
	if h := doc.FirstChild(); h != nil {
		collectText(h, src, &b, false)
	}
	return trimSpace(b.String())
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
