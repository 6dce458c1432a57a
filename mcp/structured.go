package mcp

import (
	"fmt"
	"slices"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Structured says which clients get a tool result's structuredContent.
type Structured int

const (
	// StructuredAuto sends it to every client except those known to hand
	// structuredContent to the model in place of content (textClients).
	StructuredAuto Structured = iota
	// StructuredAlways sends it to every client.
	StructuredAlways
	// StructuredNever sends content only: the model reads the seed's text
	// in any client.
	StructuredNever
)

// textClients are the clientInfo.name values of MCP clients that show the
// model a result's structuredContent (as JSON) instead of its content text
// whenever structuredContent is present, errors included: Claude Code
// ("claude-code") and Codex CLI ("codex-mcp-client"). The tool declares no
// outputSchema, so structuredContent is optional (MCP 2025-06-18, tools:
// structured content) and these clients get the seed's content[0].text alone.
var textClients = []string{"claude-code", "codex-mcp-client"}

// ParseStructured reads the --structured-content flag: auto, always or never.
func ParseStructured(s string) (Structured, error) {
	switch s {
	case "", "auto":
		return StructuredAuto, nil
	case "always":
		return StructuredAlways, nil
	case "never":
		return StructuredNever, nil
	}
	return 0, fmt.Errorf("--structured-content is %q: want auto, always or never", s)
}

// sendsStructured reports whether a result for the session's client carries
// structuredContent. A session not yet initialized counts as an unknown
// client.
func (s Structured) sendsStructured(ss *sdk.ServerSession) bool {
	switch s {
	case StructuredAlways:
		return true
	case StructuredNever:
		return false
	}
	if ss == nil {
		return true
	}
	p := ss.InitializeParams()
	if p == nil || p.ClientInfo == nil {
		return true
	}
	return !slices.Contains(textClients, p.ClientInfo.Name)
}
