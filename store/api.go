// Package store keeps a workspace's state on disk (.planls/state.json, the
// journal .planls/journal.jsonl, the lock .planls/state.lock) and is the only
// writer of those files. Every change runs under a cross-process lock:
// re-read, apply through core, write a temporary file, fsync, rename, fsync
// the directory, append the journal (DESIGN.md "Files in a user's repository").
package store

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/planls/planls/core"
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

	// cache keeps the last good decode of the state file (see readCache).
	// It makes Store unsafe to copy; share a *Store instead.
	cache readCache
}

// Open returns the store of root (an absolute directory). Nothing is created
// until the first write.
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

// Read returns the current state without taking the lock (writers replace the
// file atomically, so a reader never sees a torn file). A missing file is the
// empty state, unless the journal has entries: then the file was lost and
// the answer is a *StateError pointing at planls doctor --rebuild. A file that
// does not parse or validate gives a *StateError.
//
// The file is read on every call; when its bytes equal those of the last
// good decode, the answer is a deep copy of that state instead of a new
// decode. Either way the caller owns the returned state and may change it.
// Safe for concurrent use.
func (s *Store) Read() (*core.State, error) { return s.read() }

// Call applies one `todo` tool call under the lock and persists the result
// when it changed anything. Errors are out-of-band failures only (lock timeout,
// I/O, *StateError); the tool's in-band rejections come back in the envelope.
func (s *Store) Call(params json.RawMessage, opts core.Options) (core.Result, error) {
	return s.call(params, opts)
}

// Approve parses the plan file at planPath (absolute, or relative to Root)
// under the lock and approves it through core.Approve. It is
// ApproveWith(planPath, opts, ApproveOptions{}).
func (s *Store) Approve(planPath string, opts core.Options) (core.Result, error) {
	return s.approve(planPath, opts, ApproveOptions{})
}

// ApproveWith is Approve with store-level options. Refused in-band (an
// `Error: ...` envelope with details.error set, nothing written): a plan file
// outside Root (symlinks resolved), a plan file that is not UTF-8 text (NUL bytes, invalid UTF-8, a UTF-16/32 byte order
// mark), and, unless aopts.Force, a plan with no items while the approved
// plan has plan items. After a change, the text gets one `note: ...` line per
// completed, deferred or in-progress plan item the approval tombstoned, one
// listing the open plan items a forced empty plan removed, and one per task
// that lost a blocker (see approvalNotes). The error is out-of-band
// only: the plan file cannot be read, lock, I/O, *StateError.
func (s *Store) ApproveWith(planPath string, opts core.Options, aopts ApproveOptions) (core.Result, error) {
	return s.approve(planPath, opts, aopts)
}
