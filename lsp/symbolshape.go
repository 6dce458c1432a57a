package lsp

import "go.lsp.dev/protocol"

// shapeSymbols answers documentSymbol in the client's shape: the tree
// (DocumentSymbol[]) when it declares
// textDocument.documentSymbol.hierarchicalDocumentSymbolSupport, else
// SymbolInformation[] in document order, each naming its parent as
// containerName (LSP 3.17 §documentSymbol).
func shapeSymbols(caps clientCaps, root protocol.DocumentSymbol, uri protocol.DocumentURI) any {
	if !caps.flatSymbols {
		return []protocol.DocumentSymbol{root}
	}
	out := []protocol.SymbolInformation{}
	var walk func(sym protocol.DocumentSymbol, container string)
	walk = func(sym protocol.DocumentSymbol, container string) {
		out = append(out, protocol.SymbolInformation{
			Name: sym.Name, Kind: sym.Kind, ContainerName: container,
			Location: protocol.Location{URI: uri, Range: sym.Range},
		})
		for _, c := range sym.Children {
			walk(c, sym.Name)
		}
	}
	walk(root, "")
	return out
}
