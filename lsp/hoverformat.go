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

func (m markup) pick(plain, md string) string {
	if m.plain {
		return plain
	}
	return md
}

func (m markup) bold(s string) string { return m.pick(s, "**"+s+"**") }
func (m markup) code(s string) string { return m.pick(s, "`"+strings.ReplaceAll(s, "`", "'")+"`") }
func (m markup) para() string         { return m.pick("\n", "\n\n") } // between paragraphs

// esc keeps text from being read as markdown syntax.
func (m markup) esc(s string) string {
	return m.pick(s, strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`, "*", `\*`, "_", `\_`, "<", `\<`, "`", "\\`").Replace(s))
}

func (m markup) content(text string) protocol.MarkupContent {
	return protocol.MarkupContent{Kind: protocol.MarkupKind(m.pick(string(protocol.PlainText), string(protocol.Markdown))), Value: text}
}
