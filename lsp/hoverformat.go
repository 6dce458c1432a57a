package lsp

import (
	"strings"

	"go.lsp.dev/protocol"

	"github.com/planls/planls/internal/lazy"
)

// hoverContent is the hover's MarkupContent in the client's format:
// markdown, or plain text when textDocument.hover.contentFormat does not
// prefer markdown (plain, from editorCaps.hoverPlain; LSP 3.17
// HoverClientCapabilities).
func hoverContent(md string, plain bool) protocol.MarkupContent {
	if !plain {
		return protocol.MarkupContent{Kind: protocol.Markdown, Value: md}
	}
	return protocol.MarkupContent{Kind: protocol.PlainText, Value: plainHover(md)}
}

// mdLink is a markdown link as evidenceHover writes it: [text](target).
var mdLink = lazy.Regexp(`\[((?:\\.|[^\]\\])*)\]\(([^)]*)\)`)

// mdEscaped is a backslash escape of mdEscape.
var mdEscaped = lazy.Regexp(`\\([\\\[\]*_<` + "`" + `])`)

// plainHover drops the markup hoverText adds (the bold first line and the
// code span around the status) and the blank lines between paragraphs; in
// the evidence lines ("- …", evidenceHover) a link becomes "text (target)"
// and escapes are undone. The plan's own text, backticks included, stays as
// written.
func plainHover(md string) string {
	lines := strings.Split(md, "\n")
	out := lines[:0]
	for i, l := range lines {
		if l == "" {
			continue
		}
		if i == 0 && strings.HasPrefix(l, "**") {
			if end := strings.LastIndex(l[2:], "**"); end >= 0 {
				l = l[2:2+end] + l[2+end+2:]
			}
		}
		if strings.HasPrefix(l, "- ") {
			l = mdEscaped().ReplaceAllString(mdLink().ReplaceAllString(l, "$1 ($2)"), "$1")
		}
		if rest, ok := strings.CutPrefix(l, "status: `"); ok {
			if end := strings.IndexByte(rest, '`'); end >= 0 {
				l = "status: " + rest[:end] + rest[end+1:]
			}
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}
