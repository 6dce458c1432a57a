package lsp

import (
	"path/filepath"
	"slices"
	"time"

	"go.lsp.dev/protocol"
)

// didOpen tracks the buffer; untitled: and other non-file URIs are ignored
// (go.lsp.dev/uri would panic on them).
func (s *server) didOpen(_ *request, p *protocol.DidOpenTextDocumentParams) (any, error) {
	u := string(p.TextDocument.URI)
	path, err := fileOf(u)
	if err != nil {
		s.log.Debug("didOpen ignored", "uri", u, "err", err)
		return nil, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d := &document{uri: u, key: keyOf(path), version: p.TextDocument.Version, text: []byte(p.TextDocument.Text)}
	s.docs[d.key] = d
	for _, f := range s.folders {
		delete(f.published, u) // a reopened buffer gets its diagnostics again
	}
	// Only a plan-like file outside every folder gets a folder of its own:
	// opening some other markdown file must not start watching its directory.
	if f := s.folderFor(path, s.looksLikePlan(path)); f != nil {
		s.reload(f, true)
	}
	return nil, nil
}

// didChangeParams is LSP DidChangeTextDocumentParams. It is declared here
// because go.lsp.dev/protocol v0.12.0's TextDocumentContentChangeEvent has
// a value-typed Range, which cannot tell a whole-text change (no range)
// from an insertion at 0:0.
type didChangeParams struct {
	TextDocument   protocol.VersionedTextDocumentIdentifier `json:"textDocument"`
	ContentChanges []contentChange                          `json:"contentChanges"`
}

// contentChange is one TextDocumentContentChangeEvent: Text replaces Range
// (in the negotiated position encoding), or the whole text when Range is
// nil. The deprecated rangeLength is ignored, as the spec allows.
type contentChange struct {
	Range *protocol.Range `json:"range"`
	Text  string          `json:"text"`
}

// applyChanges returns text with each change applied in order (LSP: each
// change's range is in the text the previous ones produced), positions
// mapped in enc. A range past the end is clamped to it and a reversed one
// is taken in order, so no change can panic or lose the text around it.
// text is never changed in place.
func applyChanges(text []byte, changes []contentChange, enc encoding) []byte {
	for _, c := range changes {
		if c.Range == nil {
			text = []byte(c.Text)
			continue
		}
		start, end := offsetIn(text, c.Range.Start, enc), offsetIn(text, c.Range.End, enc)
		if end < start {
			start, end = end, start
		}
		text = slices.Concat(text[:start], []byte(c.Text), text[end:])
	}
	return text
}

// didChange applies the content changes, whole or ranged
// (TextDocumentSyncKind.Incremental), to the open buffer. A version not
// above the buffer's is out of order and ignored. Only a change of a
// folder's plan recomputes anything: no other buffer is read (a plan
// candidate that is not on disk is never chosen, and the state file's
// diagnostics come from disk). In a large plan the recompute waits for a
// short pause in typing (typingDelay).
func (s *server) didChange(r *request) (any, error) {
	p, err := r.change, r.changeErr // decoded as it was queued (dispatch.go)
	if err != nil {
		return nil, err
	}
	uri := string(p.TextDocument.URI)
	path, err := fileOf(uri)
	if err != nil || len(p.ContentChanges) == 0 {
		return nil, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[keyOf(path)]
	if d == nil {
		s.log.Debug("didChange for a document not open", "uri", uri)
		return nil, nil
	}
	if p.TextDocument.Version <= d.version {
		s.log.Info("out-of-order didChange ignored", "uri", d.uri, "version", p.TextDocument.Version, "have", d.version)
		return nil, nil
	}
	d.version = p.TextDocument.Version
	d.text = applyChanges(d.text, p.ContentChanges, s.enc)
	if s.laterChange != nil && s.laterChange(d.uri, d.version) {
		return nil, nil
	}
	f := s.folderFor(path, false)
	if f == nil || f.planPath == "" || keyOf(f.planPath) != d.key {
		return nil, nil
	}
	if f.snap != nil && len(f.snap.an.Plan.Items) >= largePlan {
		s.rearm(&f.typing, typingDelay, func() { s.swapEdited(f) })
		return nil, nil
	}
	s.swapEdited(f)
	return nil, nil
}

// swapEdited swaps in f's next snapshot after an edit of the client's,
// which a pulling client follows by itself (caller holds mu).
func (s *server) swapEdited(f *folder) {
	s.editing = true
	s.swap(f, s.build(f))
	s.editing = false
}

// largePlan is the plan size (items) from which a change waits typingDelay
// for the next before it is analysed, and typingDelay that wait: at 10k
// items one analysis costs tens of milliseconds, more than the gap between
// keystrokes. Below it every change publishes at once (BenchmarkKeystroke:
// a few ms at 1,000 items).
const (
	largePlan   = 2000
	typingDelay = 30 * time.Millisecond
)

func (s *server) didSave(_ *request, p *protocol.DidSaveTextDocumentParams) (any, error) {
	return s.refreshFileOf(p.TextDocument.URI, false)
}

func (s *server) didClose(_ *request, p *protocol.DidCloseTextDocumentParams) (any, error) {
	return s.refreshFileOf(p.TextDocument.URI, true)
}

// refreshFileOf refreshes the folder of the file uri names (ignoring
// non-file URIs): after a save when the disk changed, after a close
// always, its buffer forgotten first.
func (s *server) refreshFileOf(uri protocol.DocumentURI, closed bool) (any, error) {
	path, err := fileOf(string(uri))
	if err != nil {
		return nil, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if closed {
		delete(s.docs, keyOf(path))
	}
	if f := s.folderFor(path, false); f != nil {
		s.reload(f, closed)
	}
	return nil, nil
}

// didChangeWatchedFiles is the client's file watching (registered in
// initialized): each event schedules a debounced re-read of its folder.
func (s *server) didChangeWatchedFiles(_ *request, p *protocol.DidChangeWatchedFilesParams) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, ch := range p.Changes {
		if ch == nil {
			continue
		}
		path, err := fileOf(string(ch.URI))
		if err != nil {
			continue
		}
		for _, f := range s.folders {
			if within(f.key, keyOf(path)) {
				s.scheduleDebounced(f)
			}
		}
	}
	return nil, nil
}

func (s *server) didChangeWorkspaceFolders(_ *request, p *protocol.DidChangeWorkspaceFoldersParams) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, wf := range p.Event.Removed {
		path, err := fileOf(wf.URI)
		if err != nil {
			continue
		}
		if i := s.folderIndex(keyOf(path)); i >= 0 {
			s.folders[i].stopTimers()
			s.publish(s.folders[i], nil)
			s.folders = slices.Delete(s.folders, i, i+1)
		}
	}
	s.publishView()
	for _, wf := range p.Event.Added {
		if f := s.addFolder(wf.URI); f != nil {
			s.reload(f, true)
		}
	}
	s.rewatch()
	return nil, nil
}

// looksLikePlan reports whether a file's name matches the last element of
// a planFiles glob, pushed or pulled for any folder. Caller holds mu.
func (s *server) looksLikePlan(path string) bool {
	return slices.ContainsFunc(s.planFilesUnion(), func(g string) bool {
		ok, _ := filepath.Match(filepath.Base(filepath.FromSlash(g)), filepath.Base(path))
		return ok
	})
}

// planCandidate reports whether path matches a planFiles glob in force for
// f (folderSettings). Caller holds mu.
func (s *server) planCandidate(f *folder, path string) bool {
	rel, err := filepath.Rel(f.root, path)
	return err == nil && slices.ContainsFunc(s.folderSettings(f).PlanFiles, func(g string) bool {
		ok, _ := filepath.Match(filepath.FromSlash(g), rel)
		return ok
	})
}
