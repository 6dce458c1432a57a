package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/gofrs/flock"
)

// EnvLockTimeout overrides DefaultLockTimeout for stores made by Open; its
// value is a Go duration ("200ms", "30s").
const EnvLockTimeout = "PLANLS_LOCK_TIMEOUT"

// DefaultLockTimeout is how long a writer waits for the lock before failing.
const DefaultLockTimeout = 10 * time.Second

// LockTimeoutError is returned when the lock stayed taken for the whole wait.
// Holder is what the holder wrote into the lock file ("pid 42, actor mcp, host
// box, since 2026-01-02T03:04:05Z"), or "" when it wrote nothing.
type LockTimeoutError struct {
	Path   string
	Holder string
	Waited time.Duration
}

func (e *LockTimeoutError) Error() string {
	who := "an unknown holder"
	if e.Holder != "" {
		who = e.Holder
	}
	return fmt.Sprintf("%s: the state is locked by %s; gave up after %s (the lock is released when that process ends; set %s to wait longer)",
		e.Path, who, e.Waited, EnvLockTimeout)
}

// heldLock is the cross-process lock while taken.
type heldLock struct {
	fl   *flock.Flock
	path string
	note *time.Timer // writes the holder note once the hold gets long

	mu       sync.Mutex
	noted    bool // the holder note is in the file
	released bool
}

// lockRetry is how often a waiting writer tries the lock again. A commit
// holds it for about a millisecond, so a short fixed retry keeps the queue
// moving without spinning.
const lockRetry = 2 * time.Millisecond

// noteAfter is how long a commit holds the lock before it writes the holder
// note. A commit takes about a millisecond here (tens on a slow disk), and
// writing the note and clearing it again cost a file write and a truncate
// on every commit, adding to the fsyncs that follow; a hold that
// outlasts this, the only kind a waiter can time out on, is named.
const noteAfter = 100 * time.Millisecond

// lock takes .planls/state.lock, creating .planls/ and its .gitignore when
// needed. The lock is a flock(2)/LockFileEx lock, so the OS releases it when
// its holder dies however it dies: a lock file left behind (even an empty
// one) never blocks anyone. The wait ends after
// LockTimeout (a *LockTimeoutError naming the holder) or when ctx ends (its
// error). The holder writes who it is into the file, so a writer that times
// out can name it, once it has held the lock for noteAfter (a note left by a
// holder that was killed is cleared on taking the lock).
func (s *Store) lock(ctx context.Context) (*heldLock, error) {
	if err := s.EnsureDir(); err != nil {
		return nil, err
	}
	path := s.LockPath()
	fl := flock.New(path, flock.SetPermissions(0o644))
	timeout := s.LockTimeout
	if timeout <= 0 {
		timeout = DefaultLockTimeout
	}
	wait, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	ok, err := fl.TryLockContext(wait, lockRetry)
	if !ok {
		_ = fl.Close()
		switch {
		case ctx.Err() != nil:
			return nil, fmt.Errorf("lock %s: %w", path, ctx.Err())
		case errors.Is(err, context.DeadlineExceeded):
			holder, _ := os.ReadFile(path)
			return nil, &LockTimeoutError{Path: path, Holder: strings.TrimSpace(string(holder)), Waited: timeout}
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if fi, err := fl.Stat(); err == nil && fi.Size() > 0 {
		// A killed holder's note: it names no one now.
		_ = os.Truncate(path, 0)
	}
	h := &heldLock{fl: fl, path: path}
	since := time.Now()
	h.note = time.AfterFunc(noteAfter, func() { h.writeNote(s.holderNote(since)) })
	return h, nil
}

// holderNote is what a holder that took the lock at since writes into the
// lock file.
func (s *Store) holderNote(since time.Time) string {
	host, _ := os.Hostname()
	return fmt.Sprintf("pid %d, actor %s, host %s, since %s\n", os.Getpid(), s.actor(), host, since.UTC().Format(time.RFC3339))
}

// writeNote puts the holder note into the lock file unless the lock was
// released meanwhile. Best effort: a holder that cannot describe itself
// still holds the lock.
func (h *heldLock) writeNote(info string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.released {
		return
	}
	if os.WriteFile(h.path, []byte(info), 0o644) == nil {
		h.noted = true
	}
}

// unlock clears the holder note, if one was written, and releases the lock.
func (h *heldLock) unlock() error {
	h.note.Stop()
	h.mu.Lock()
	h.released = true
	noted := h.noted
	h.mu.Unlock()
	if noted {
		_ = os.Truncate(h.path, 0)
	}
	return errors.Join(h.fl.Unlock(), h.fl.Close())
}

// EnsureDir creates .planls/ and its .gitignore (only when missing or
// exactly what an earlier version wrote, so a person's edits to it survive),
// as the first write does; planls report calls it to write a file of its
// own there. The .gitignore is checked once per Store, and again whenever
// .planls/ is missing.
func (s *Store) EnsureDir() error {
	s.seen.Lock()
	defer s.seen.Unlock()
	if s.seen.dir {
		if fi, err := os.Stat(s.Dir()); err == nil && fi.IsDir() {
			return nil
		}
	}
	if err := os.MkdirAll(s.Dir(), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", s.Dir(), err)
	}
	gi := s.Dir() + string(os.PathSeparator) + ".gitignore"
	old, err := os.ReadFile(gi)
	if errors.Is(err, os.ErrNotExist) || (err == nil && (string(old) == gitignoreV1 || string(old) == gitignoreV2 || string(old) == gitignoreV3 || string(old) == gitignoreV4)) {
		if err := os.WriteFile(gi, []byte(gitignoreBody), 0o644); err != nil {
			return fmt.Errorf("write %s: %w", gi, err)
		}
	}
	s.seen.dir = true
	return nil
}

func (s *Store) actor() string {
	if s.Actor == "" {
		return "unknown"
	}
	return s.Actor
}

// Lock takes the state lock every writer takes (waiting at most LockTimeout,
// when a *LockTimeoutError names the holder, or until ctx ends) and returns
// its release. While held,
// no other process or Store commits, including this Store: Call, Approve and
// Doctor take the lock themselves, so calling them while holding it waits
// for LockTimeout and fails. It creates .planls/ when missing.
func (s *Store) Lock(ctx context.Context) (release func() error, err error) {
	h, err := s.lock(ctx)
	if err != nil {
		return nil, err
	}
	// Held for as long as the caller likes: named at once.
	h.note.Stop()
	h.writeNote(s.holderNote(time.Now()))
	return h.unlock, nil
}
