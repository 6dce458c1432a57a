package lsp

// modernTextDocumentCaps are the textDocument capabilities of a current
// client (VS Code, Neovim 0.10+): code action literals, the symbol tree and
// markdown hovers. The test env sends them unless a test gives its own.
func modernTextDocumentCaps() map[string]any {
	return map[string]any{
		"codeAction":     map[string]any{"codeActionLiteralSupport": map[string]any{"codeActionKind": map[string]any{"valueSet": []string{"quickfix", "refactor", "source"}}}},
		"documentSymbol": map[string]any{"hierarchicalDocumentSymbolSupport": true},
		"hover":          map[string]any{"contentFormat": []string{"markdown", "plaintext"}},
		"inlayHint":      map[string]any{},
	}
}
