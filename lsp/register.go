package lsp

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"go.lsp.dev/protocol"
)

// watchReg is the client-side file watching registration. Its mutex
// serialises (re-)registrations, which wait on the client, so that an
// unregister never overtakes the register it undoes.
type watchReg struct {
	mu       sync.Mutex
	id       string        // the live registration ("" when none)
	watchers []fileWatcher // what it registered
	seq      int           // numbers ids: a new registration never reuses an old id
	// refused: the client refused a registration, so fsnotify watches
	// everything (guarded by server.mu, not mu).
	refused bool
}

const watchMethod = "workspace/didChangeWatchedFiles"

// registerWatchers asks the client to watch the plan files and state files
// (client/registerCapability, LSP 3.17 FileSystemWatcher globs) for the
// planFiles of every folder (planFilesUnion), replacing the previous
// registration when they changed since (its globs are unregistered first,
// with client/unregisterCapability). It reads the settings when it runs, so
// calls made in a burst of configuration changes end with the latest globs.
// On a refused registration it falls back to fsnotify, unless the session
// was shut down meanwhile. Runs on a group goroutine (it waits on the
// client); ctx ends at shutdown.
func (s *server) registerWatchers(ctx context.Context) {
	s.reg.mu.Lock()
	defer s.reg.mu.Unlock()
	s.mu.Lock()
	watchers := s.clientWatchers() // watchglob.go
	s.mu.Unlock()
	if s.reg.id != "" && slices.Equal(watchers, s.reg.watchers) {
		return
	}
	if s.reg.id != "" {
		params := protocol.UnregistrationParams{Unregisterations: []protocol.Unregistration{{ID: s.reg.id, Method: watchMethod}}}
		if err := s.callClient(ctx, s.opts.callTimeout, "client/unregisterCapability", params, nil); err != nil {
			s.log.Warn("client refused to drop the old file watchers", "id", s.reg.id, "err", err)
		}
		s.reg.id, s.reg.watchers = "", nil
	}
	s.reg.seq++
	id := "planls-watch"
	if s.reg.seq > 1 {
		id = fmt.Sprintf("planls-watch-%d", s.reg.seq)
	}
	params := protocol.RegistrationParams{Registrations: []protocol.Registration{{
		ID: id, Method: watchMethod,
		RegisterOptions: map[string]any{"watchers": watchers},
	}}}
	err := s.callClient(ctx, s.opts.callTimeout, "client/registerCapability", params, nil)
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil && (ctx.Err() != nil || s.phase() == shutDown) {
		return // the session ended: nothing is left to watch for
	}
	if err != nil {
		s.log.Warn("client file watching refused; using fsnotify", "err", err)
		s.clientFS = false
		s.reg.refused = true
		s.startFSWatch()
		return
	}
	s.reg.id, s.reg.watchers = id, watchers
	s.clientFS = true
	s.startFSWatch() // down to the state directories (watch.go)
}
