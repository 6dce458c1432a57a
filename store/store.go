// Package store keeps a workspace's state on disk (.planls/state.json, the
// journal .planls/journal.jsonl, the lock .planls/state.lock) and is the only
// writer of those files. Every change runs under a cross-process lock:
// re-read, apply through core, write a temporary file, fsync, rename, fsync
// the directory, append the journal.
package store

import (
	"fmt"
	"os"
	"sync"
	"time"
)

// Store is the .planls directory of one workspace root (the project scope).
type Store struct {
	// Root is the absolute workspace root.
	Root string
	// Actor names the writer in the journal and in lock-holder messages
	// ("cli", "lsp", "mcp", ...).
	Actor string
	// LockTimeout bounds the wait for the lock of a write; 0 means
	// DefaultLockTimeout. Open sets it from $PLANLS_LOCK_TIMEOUT when valid.
	LockTimeout time.Duration

	// seen is what this Store learned from its own earlier commits, so that
	// a long-lived writer (the MCP server, the language server) does once
	// what need not be done on every commit. Keep one Store per root to
	// benefit; a new Store starts from nothing and checks everything.
	seen seenState
}

// seenState is guarded by its mutex; the cross-process lock orders commits
// between processes, this orders the Store's own goroutines.
type seenState struct {
	sync.Mutex
	// dir is true once .planls/ and its .gitignore were checked (EnsureDir).
	dir bool
	// swept is true once the temp files a killed writer left were removed
	// (removeTemps, at this Store's first commit).
	swept bool
	// journal is the journal as this Store left it after its last append
	// (nil when unknown): while the file still matches it, nobody else
	// wrote it, so it holds no conflict markers and its last revision is
	// journalRev (journalmemo.go).
	journal    os.FileInfo
	journalRev int64
}

// Open returns the store of root (an absolute directory). Nothing is created
// until the first write. A Store is safe for concurrent use and must not be
// copied.
func Open(root, actor string) *Store {
	s := &Store{Root: root, Actor: actor}
	if d, err := time.ParseDuration(os.Getenv(EnvLockTimeout)); err == nil && d > 0 {
		s.LockTimeout = d
	}
	return s
}

// StateError is a state file that cannot be used. It is never overwritten.
// Line and Col are 1-based (Col counts bytes) and 0 when unknown.
type StateError struct {
	Path string
	Line int
	Col  int
	Msg  string
}

func (e *StateError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Col, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.Path, e.Msg)
}
