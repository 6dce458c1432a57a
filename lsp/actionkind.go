package lsp

import (
	"slices"
	"strings"

	"go.lsp.dev/protocol"
)

// Code action kinds (LSP 3.17 CodeActionKind). An item action that acts on
// a diagnostic of that item is a quick fix; one on an item with no
// diagnostic (a deferred item without fadeClosed) rewrites the item's
// status, and approving acts on the whole file, so it is a source action.
const kindApprove = protocol.CodeActionKind("source.approve")

// advertisedKinds are the codeActionProvider.codeActionKinds.
var advertisedKinds = []protocol.CodeActionKind{protocol.QuickFix, protocol.RefactorRewrite, kindApprove}

// kindCovers reports whether kind is asked for by filter: a kind covers
// its sub-kinds ("source" covers "source.approve"; LSP 3.17
// CodeActionContext.only). An empty filter asks for every kind.
func kindCovers(filter []protocol.CodeActionKind, kind protocol.CodeActionKind) bool {
	return len(filter) == 0 || slices.ContainsFunc(filter, func(f protocol.CodeActionKind) bool {
		return f == "" || f == kind || strings.HasPrefix(string(kind), string(f)+".")
	})
}

// wantsSourceOnly reports whether only asks for source actions and nothing
// else: they apply to the whole document, not to the range.
func wantsSourceOnly(only []protocol.CodeActionKind) bool {
	source := []protocol.CodeActionKind{protocol.Source}
	return len(only) > 0 && !slices.ContainsFunc(only, func(k protocol.CodeActionKind) bool { return !kindCovers(source, k) })
}

// shapeActions keeps the actions whose kind only asks for and, for a
// client without codeActionLiteralSupport, answers their commands
// (Command[], the LSP 3.0 shape) instead.
func shapeActions(caps clientCaps, actions []protocol.CodeAction, only []protocol.CodeActionKind) any {
	kept := actions[:0]
	for _, a := range actions {
		if kindCovers(only, a.Kind) {
			kept = append(kept, a)
		}
	}
	if !caps.commandsOnly {
		return kept
	}
	cmds := make([]protocol.Command, 0, len(kept))
	for _, a := range kept {
		if a.Command != nil {
			cmds = append(cmds, *a.Command)
		}
	}
	return cmds
}
