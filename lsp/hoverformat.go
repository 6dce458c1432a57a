package lsp

import (
	"strings"

	"go.lsp.dev/protocol"
)

// markup writes hover text as markdown, or, when plain is set (a client
// whose textDocument.hover.contentFormat does not prefer markdown:
// clientCaps.hoverPlain, LSP 3.17 HoverClientCapabilities), as plain text:
// no bold, code spans or escapes, one line per paragraph. The plan's own
// text, backticks included, stays as written.
type markup struct{ plain bool }

func (m markup) bold(s string) string {
	if m.plain {
		return s
	}
	return "**" + s + "**"
}

func (m markup) code(s string) string {
	if m.plain {
		return s
	}
	return "`" + strings.ReplaceAll(s, "`", "'") + "`"
}

// esc keeps text from being read as markdown syntax.
func (m markup) esc(s string) string {
	if m.plain {
		return s
	}
	return strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`, "*", `\*`, "_", `\_`, "<", `\<`, "`", "\\`").Replace(s)
}

// para separates paragraphs.
func (m markup) para() string {
	if m.plain {
		return "\n"
	}
	return "\n\n"
}

// content is the hover's MarkupContent of text written with m.
func (m markup) content(text string) protocol.MarkupContent {
	if m.plain {
		return protocol.MarkupContent{Kind: protocol.PlainText, Value: text}
	}
	return protocol.MarkupContent{Kind: protocol.Markdown, Value: text}
}
