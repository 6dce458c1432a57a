package lsp

import (
	"context"
	"fmt"
	"time"
	"unicode/utf8"

	"go.lsp.dev/protocol"

	"github.com/planls/planls/core"
)

// readyEvidenceFor returns the function that lists, for a state, the
// evidence a plan item of the folder holding uri can be completed with
// in one click: the HEAD commit ("abc1234 subject") and the last evidence
// recorded in the state, as the prompt offers them (suggestions). git runs
// here, before the caller takes mu, never under it.
func (s *server) readyEvidenceFor(ctx context.Context, uri protocol.DocumentURI) func(*core.State) []string {
	s.mu.Lock()
	f := s.planFolderOf(uri)
	s.mu.Unlock()
	if f == nil {
		return func(*core.State) []string { return nil }
	}
	head := ""
	if s.opts.gitHead != nil {
		head = s.opts.gitHead(ctx, f.root)
	}
	return func(st *core.State) []string {
		if st == nil {
			return nil
		}
		return suggestionsFrom(head, st, "evidence")
	}
}

// readyActions are the one-click "Complete #3 with …" actions of task t:
// the same planls.complete command with "evidence" already in its
// argument, so every client (prompts or none) completes with proof.
func readyActions(t *core.Task, uri string, kind protocol.CodeActionKind, ds []protocol.Diagnostic, evidence []string) []protocol.CodeAction {
	var out []protocol.CodeAction
	for _, ev := range evidence {
		title := fmt.Sprintf("Complete #%d with %s", t.ID, shorten(ev, 60))
		out = append(out, protocol.CodeAction{
			Title: title, Kind: kind, Diagnostics: ds,
			Command: &protocol.Command{Title: title, Command: "planls.complete",
				Arguments: []any{evidenceArg{ID: t.ID, URI: uri, Evidence: ev}}},
		})
	}
	return out
}

// evidenceArg is itemArg with the evidence filled in (docs/PROTOCOL.md
// "Commands": planls.complete {"id", "evidence", "uri"}).
type evidenceArg struct {
	ID       int    `json:"id"`
	URI      string `json:"uri"`
	Evidence string `json:"evidence"`
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
