package lsp

import (
	"context"
	"encoding/json"
	"slices"

	"go.lsp.dev/protocol"
)

// configSection is the section planls asks for in workspace/configuration:
// the "planls" object of the editor's settings (VS Code's planls.* keys).
const configSection = "planls"

// pullSettings asks the client, in one workspace/configuration request
// (LSP 3.6), for the "planls" section scoped to each of folders, when the
// client advertises workspace.configuration and initialized was handled.
// The answer is applied later by applyPull; the request waits on the client,
// so it runs on its own goroutine. Caller holds mu.
func (s *server) pullSettings(folders []*folder) {
	if !s.caps.configuration || !s.pullReady || len(folders) == 0 || s.phase() == shutDown {
		return
	}
	s.pullSeq++
	asked := slices.Clone(folders)
	items := make([]protocol.ConfigurationItem, len(asked))
	for i, f := range asked {
		items[i] = protocol.ConfigurationItem{ScopeURI: protocol.URI(f.uri), Section: configSection}
	}
	seq := s.pullSeq
	s.grp.goFn(func(ctx context.Context) { s.sendPull(ctx, seq, asked, items) })
}

// sendPull sends one workspace/configuration request, bounded by
// opts.callTimeout, and applies its answer. A failed, timed-out or
// malformed answer is logged and changes nothing.
func (s *server) sendPull(ctx context.Context, seq uint64, asked []*folder, items []protocol.ConfigurationItem) {
	var answers []json.RawMessage
	err := s.callClient(ctx, s.opts.callTimeout, "workspace/configuration", protocol.ConfigurationParams{Items: items}, &answers)
	if ctx.Err() != nil {
		return // the session ended: nobody is left to apply it for
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		s.log.Warn("workspace/configuration failed; settings kept", "request", seq, "err", err)
		return
	}
	if len(answers) != len(asked) {
		// Without one answer per item there is no telling which folder an
		// answer is for.
		s.log.Warn("workspace/configuration answered the wrong number of items; settings kept",
			"request", seq, "asked", len(asked), "got", len(answers))
		return
	}
	s.applyPull(seq, asked, answers)
}

// applyPull layers each answer over what was pulled before for its folder
// (parseSettings' rules: null, unknown keys and bad values keep what is
// there) and republishes the folders whose settings changed. An answer
// older than one already applied to a folder is stale and dropped, so when
// pulls race the later request wins; so is one for a folder removed since.
// Caller holds mu.
func (s *server) applyPull(seq uint64, asked []*folder, answers []json.RawMessage) {
	if s.phase() == shutDown {
		return
	}
	var changed []*folder
	for i, f := range asked {
		if !slices.Contains(s.folders, f) {
			s.log.Info("workspace/configuration answer for a removed folder dropped", "folder", f.root, "request", seq)
			continue
		}
		if seq < f.pulledSeq {
			s.log.Info("stale workspace/configuration answer dropped", "folder", f.root, "request", seq, "applied", f.pulledSeq)
			continue
		}
		f.pulledSeq = seq
		old := s.folderSettings(f)
		f.pulled = f.pulled.merge(parsePatch(answers[i], s.log))
		if now := s.folderSettings(f); !old.equal(now) {
			s.log.Info("settings pulled", "folder", f.root, "request", seq,
				"planFiles", now.PlanFiles, "severity", now.Severity, "fadeClosed", now.FadeClosed)
			changed = append(changed, f)
		}
	}
	s.settingsChanged(changed)
}
