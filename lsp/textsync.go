package lsp

import (
	"path/filepath"

	"go.lsp.dev/protocol"
)

// didOpen tracks the buffer; untitled: and other non-file URIs are ignored
// (go.lsp.dev/uri would panic on them).
func (s *server) didOpen(r *request) (any, error) {
	var p protocol.DidOpenTextDocumentParams
	if err := decode(r.params, &p); err != nil {
		return nil, err
	}
	u := string(p.TextDocument.URI)
	path, err := fileOf(u)
	if err != nil {
		s.log.Debug("didOpen ignored", "uri", u, "err", err)
		return nil, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d := &document{uri: u, path: path, key: keyOf(path), version: p.TextDocument.Version, text: []byte(p.TextDocument.Text)}
	s.docs[d.key] = d
	delete(s.published, u) // a reopened buffer gets its diagnostics again
	// Only a plan-like file outside every folder gets a folder of its own:
	// opening some other markdown file must not start watching its directory.
	f := s.folderFor(path, s.looksLikePlan(path))
	if f != nil {
		s.refresh(f, true)
	}
	return nil, nil
}

// didChange applies the last content change whole (full sync; v0.12.0's
// value-typed Range cannot tell a full change from an insertion at 0:0).
// A version not above the buffer's is out of order and ignored.
func (s *server) didChange(r *request) (any, error) {
	p, err := decodeDidChange(r.params)
	if err != nil {
		return nil, err
	}
	path, err := fileOf(p.uri)
	if err != nil || p.changes == 0 {
		return nil, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[keyOf(path)]
	if d == nil {
		s.log.Debug("didChange for a document not open", "uri", p.uri)
		return nil, nil
	}
	if p.version <= d.version {
		s.log.Info("out-of-order didChange ignored", "uri", d.uri, "version", p.version, "have", d.version)
		return nil, nil
	}
	d.version = p.version
	d.text = p.text
	if s.laterChange != nil && s.laterChange(d.uri, d.version) {
		return nil, nil
	}
	f := s.folderFor(path, false)
	switch {
	case f == nil:
	case f.planPath != "" && keyOf(f.planPath) == d.key:
		s.recompute(f)
	default:
		s.refresh(f, true)
	}
	return nil, nil
}

func (s *server) didSave(r *request) (any, error) {
	var p protocol.DidSaveTextDocumentParams
	if err := decode(r.params, &p); err != nil {
		return nil, err
	}
	s.refreshFileOf(p.TextDocument.URI, false, false)
	return nil, nil
}

func (s *server) didClose(r *request) (any, error) {
	var p protocol.DidCloseTextDocumentParams
	if err := decode(r.params, &p); err != nil {
		return nil, err
	}
	s.refreshFileOf(p.TextDocument.URI, true, true)
	return nil, nil
}

// refreshFileOf refreshes the folder of the file uri names (ignoring
// non-file URIs), first forgetting its buffer when closed; force as in
// refresh. It takes mu.
func (s *server) refreshFileOf(uri protocol.DocumentURI, closed, force bool) {
	path, err := fileOf(string(uri))
	if err != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if closed {
		delete(s.docs, keyOf(path))
	}
	if f := s.folderFor(path, false); f != nil {
		s.refresh(f, force)
	}
}

// didChangeWatchedFiles is the client's file watching (registered in
// initialized): each event schedules a debounced re-read of its folder.
func (s *server) didChangeWatchedFiles(r *request) (any, error) {
	var p protocol.DidChangeWatchedFilesParams
	if err := decode(r.params, &p); err != nil {
		return nil, err
	}
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

func (s *server) didChangeWorkspaceFolders(r *request) (any, error) {
	var p protocol.DidChangeWorkspaceFoldersParams
	if err := decode(r.params, &p); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, wf := range p.Event.Removed {
		path, err := fileOf(wf.URI)
		if err != nil {
			continue
		}
		k := keyOf(path)
		for i, f := range s.folders {
			if f.key == k {
				f.stopTimers()
				s.publish(f, nil)
				s.folders = append(s.folders[:i], s.folders[i+1:]...)
				break
			}
		}
	}
	for _, wf := range p.Event.Added {
		if f := s.addFolder(wf.URI); f != nil {
			s.refresh(f, true)
		}
	}
	if s.watcher != nil {
		s.watcher.sync(s)
	}
	s.watchFoldersChanged()
	return nil, nil
}

// looksLikePlan reports whether a file's name matches the last element of
// a planFiles glob, pushed or pulled for any folder. Caller holds mu.
func (s *server) looksLikePlan(path string) bool {
	for _, g := range s.planFilesUnion() {
		if ok, _ := filepath.Match(filepath.Base(filepath.FromSlash(g)), filepath.Base(path)); ok {
			return true
		}
	}
	return false
}

// planCandidate reports whether path matches a planFiles glob in force for
// f (folderSettings). Caller holds mu.
func (s *server) planCandidate(f *folder, path string) bool {
	rel, err := filepath.Rel(f.root, path)
	if err != nil {
		return false
	}
	for _, g := range s.folderSettings(f).PlanFiles {
		if ok, _ := filepath.Match(filepath.FromSlash(g), rel); ok {
			return true
		}
	}
	return false
}
