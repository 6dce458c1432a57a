package lsp

import (
	"fmt"
	"time"
	"unicode/utf8"

	"go.lsp.dev/protocol"

	"github.com/planls/planls/core"
)

// readyActions are the one-click "Complete #3 with …" actions of task t,
// one per suggested evidence (suggestionsFrom): the same planls.complete
// command with "evidence" already in its argument, so every client
// (prompts or none) completes with proof.
func readyActions(t *core.Task, uri string, kind protocol.CodeActionKind, ds []protocol.Diagnostic, evidence []string) []protocol.CodeAction {
	var out []protocol.CodeAction
	for _, ev := range evidence {
		title := fmt.Sprintf("Complete #%d with %s", t.ID, shorten(ev, 60))
		out = append(out, protocol.CodeAction{
			Title: title, Kind: kind, Diagnostics: ds,
			Command: &protocol.Command{Title: title, Command: "planls.complete",
				Arguments: []any{itemArg{ID: t.ID, URI: uri, Evidence: ev}}},
		})
	}
	return out
}

// shorten cuts s to at most n runes, ending in "…" (U+2026) when cut.
func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// askUndeclared bounds window/showMessageRequest for a client that does not
// declare window.showMessage: eglot answers it, but ALE never answers a
// server request, and its user should hear how to pass the value within a
// minute, not after askTimeout.
const askUndeclared = time.Minute

// askBound is how long the server waits for the user's pick.
func (s *server) askBound() time.Duration {
	s.mu.Lock()
	declared := s.caps.showMessage
	s.mu.Unlock()
	if declared {
		return s.opts.askTimeout
	}
	return min(s.opts.askTimeout, askUndeclared)
}
