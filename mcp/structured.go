package mcp

import "fmt"

// DetailsKey is the _meta key of a tool result that holds its details
// snapshot (details.go): `"_meta": {"planls/details": {...}}`.
const DetailsKey = "planls/details"

// Structured says whether tool results also carry structuredContent.
//
// Claude Code and Codex CLI show the model a result's structuredContent (as
// JSON) instead of its content text whenever it is present, Codex for
// errors too, and any client may do the same (the MCP spec leaves the
// choice to the client). The tool declares no outputSchema, so
// structuredContent is optional: by default a result is the seed's text as
// content, which every client shows the model, and the details snapshot in
// _meta, which clients hand to programs and not to the model.
type Structured int

const (
	// StructuredNever is the default: content text, details in _meta.
	StructuredNever Structured = iota
	// StructuredAlways adds the details as structuredContent too, for
	// clients that read it in code and never show it to a model.
	StructuredAlways
)

// ParseStructured reads the --structured-content flag: never or always.
func ParseStructured(s string) (Structured, error) {
	switch s {
	case "", "never":
		return StructuredNever, nil
	case "always":
		return StructuredAlways, nil
	}
	return 0, fmt.Errorf("--structured-content is %q: want never or always", s)
}
