package lsp

import (
	"encoding/json"
	"slices"
)

// editorCaps is what planls adapts to per client beyond clientCaps: the
// LSP 3.17 capabilities that change the shape of an answer, the client's
// process id and the initial trace level. Decoded field by field from the
// raw initialize params so one odd field loses only itself.
type editorCaps struct {
	// hoverPlain: textDocument.hover.contentFormat lists formats and
	// "markdown" is not among them (or comes after "plaintext").
	hoverPlain bool
	// flatSymbols: the client lacks
	// textDocument.documentSymbol.hierarchicalDocumentSymbolSupport, so
	// documentSymbol answers SymbolInformation[] (LSP 3.17 §documentSymbol).
	flatSymbols bool
	// commandsOnly: the client lacks
	// textDocument.codeAction.codeActionLiteralSupport, so codeAction
	// answers Command[] (LSP 3.17 §codeAction).
	commandsOnly bool
	// inlayHints: the client declares textDocument.inlayHint (3.17).
	inlayHints bool
	// inlayRefresh: workspace.inlayHint.refreshSupport (3.17).
	inlayRefresh bool
	// relativePatterns:
	// workspace.didChangeWatchedFiles.relativePatternSupport (3.17).
	relativePatterns bool
	// processID is the client's process id, 0 when null or absent.
	processID int
	// trace is InitializeParams.trace: "off", "messages" or "verbose".
	trace string
}

// decodeEditorCaps reads editorCaps from initialize's raw params. Missing or
// malformed fields take the conservative value (the 3.0 shapes).
func decodeEditorCaps(raw json.RawMessage) editorCaps {
	var p struct {
		ProcessID    json.RawMessage `json:"processId"`
		Trace        json.RawMessage `json:"trace"`
		Capabilities struct {
			TextDocument json.RawMessage `json:"textDocument"`
			Workspace    json.RawMessage `json:"workspace"`
		} `json:"capabilities"`
	}
	_ = json.Unmarshal(raw, &p)
	var td struct {
		Hover          json.RawMessage `json:"hover"`
		DocumentSymbol json.RawMessage `json:"documentSymbol"`
		CodeAction     json.RawMessage `json:"codeAction"`
		InlayHint      json.RawMessage `json:"inlayHint"`
	}
	_ = json.Unmarshal(p.Capabilities.TextDocument, &td)
	var ws struct {
		InlayHint             json.RawMessage `json:"inlayHint"`
		DidChangeWatchedFiles json.RawMessage `json:"didChangeWatchedFiles"`
	}
	_ = json.Unmarshal(p.Capabilities.Workspace, &ws)

	c := editorCaps{flatSymbols: true, commandsOnly: true, trace: "off"}
	var hover struct {
		ContentFormat []string `json:"contentFormat"`
	}
	if json.Unmarshal(td.Hover, &hover) == nil && len(hover.ContentFormat) > 0 {
		md := slices.Index(hover.ContentFormat, "markdown")
		plain := slices.Index(hover.ContentFormat, "plaintext")
		c.hoverPlain = md < 0 || (plain >= 0 && plain < md)
	}
	var sym struct {
		Hierarchical lenientBool `json:"hierarchicalDocumentSymbolSupport"`
	}
	if json.Unmarshal(td.DocumentSymbol, &sym) == nil && bool(sym.Hierarchical) {
		c.flatSymbols = false
	}
	var ca struct {
		Literal json.RawMessage `json:"codeActionLiteralSupport"`
	}
	if json.Unmarshal(td.CodeAction, &ca) == nil && len(ca.Literal) > 0 && string(ca.Literal) != "null" {
		c.commandsOnly = false
	}
	c.inlayHints = len(td.InlayHint) > 0 && string(td.InlayHint) != "null"
	var ih struct {
		Refresh lenientBool `json:"refreshSupport"`
	}
	if json.Unmarshal(ws.InlayHint, &ih) == nil {
		c.inlayRefresh = bool(ih.Refresh)
	}
	var w struct {
		Relative lenientBool `json:"relativePatternSupport"`
	}
	if json.Unmarshal(ws.DidChangeWatchedFiles, &w) == nil {
		c.relativePatterns = bool(w.Relative)
	}
	var pid int
	if json.Unmarshal(p.ProcessID, &pid) == nil && pid > 0 {
		c.processID = pid
	}
	var tr string
	if json.Unmarshal(p.Trace, &tr) == nil && validTrace(tr) {
		c.trace = tr
	}
	return c
}
