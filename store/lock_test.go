package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gofrs/flock"

	"github.com/planls/planls/core"
)

// A holder that wrote nothing (another tool, an older planls) is named as
// unknown rather than with stale or empty text.
func TestLockTimeoutUnknownHolder(t *testing.T) {
	s := Open(t.TempDir(), "waiter")
	s.LockTimeout = 50 * time.Millisecond
	if err := s.EnsureDir(); err != nil {
		t.Fatal(err)
	}
	fl := flock.New(s.LockPath())
	if ok, err := fl.TryLock(); !ok || err != nil {
		t.Fatal(ok, err)
	}
	defer fl.Unlock()
	_, err := s.Lock(context.Background())
	var lerr *LockTimeoutError
	if !errors.As(err, &lerr) || lerr.Holder != "" {
		t.Fatalf("%v", err)
	}
	want := s.LockPath() + ": the state is locked by an unknown holder; gave up after 50ms (the lock is released when that process ends; set PLANLS_LOCK_TIMEOUT to wait longer)"
	if err.Error() != want {
		t.Errorf("got  %s\nwant %s", err, want)
	}
}

// $PLANLS_LOCK_TIMEOUT sets the wait; nonsense falls back to the default.
func TestLockTimeoutFromEnv(t *testing.T) {
	t.Setenv(EnvLockTimeout, "250ms")
	if got := Open("/r", "a").LockTimeout; got != 250*time.Millisecond {
		t.Errorf("LockTimeout %s", got)
	}
	t.Setenv(EnvLockTimeout, "soon")
	if got := Open("/r", "a").LockTimeout; got != 0 {
		t.Errorf("LockTimeout %s for a bad value", got)
	}
}

// A person's edits to .planls/.gitignore are kept.
func TestGitignoreKept(t *testing.T) {
	s := Open(t.TempDir(), "test")
	os.MkdirAll(s.Dir(), 0o755)
	gi := filepath.Join(s.Dir(), ".gitignore")
	os.WriteFile(gi, []byte("mine\n"), 0o644)
	seed(t, s, 1)
	if b, _ := os.ReadFile(gi); string(b) != "mine\n" {
		t.Errorf(".gitignore rewritten: %q", b)
	}
}

// A wait for a held lock ends when the caller's context does (an editor's
// $/cancelRequest, a server shutting down), long before LockTimeout, with
// the context's error and nothing written.
func TestLockWaitCancelled(t *testing.T) {
	s := Open(t.TempDir(), "waiter")
	s.LockTimeout = time.Hour
	if err := s.EnsureDir(); err != nil {
		t.Fatal(err)
	}
	fl := flock.New(s.LockPath())
	if ok, err := fl.TryLock(); !ok || err != nil {
		t.Fatal(ok, err)
	}
	defer fl.Unlock()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := s.Call(ctx, []byte(`{"action":"create","subject":"x"}`), core.Options{})
		done <- err
	}()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	if _, err := os.Stat(s.StatePath()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a cancelled call wrote the state: %v", err)
	}
}

// A repair waiting for the lock ends with its context too; a check takes
// no lock and is answered.
func TestDoctorLockWaitCancelled(t *testing.T) {
	s := Open(t.TempDir(), "waiter")
	s.LockTimeout = time.Hour
	seed(t, s, 1)
	fl := flock.New(s.LockPath())
	if ok, err := fl.TryLock(); !ok || err != nil {
		t.Fatal(ok, err)
	}
	defer fl.Unlock()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if r, err := s.Doctor(ctx, false, false); err != nil || !r.OK() {
		t.Fatalf("check while locked: %v %+v", err, r)
	}
	if _, err := s.Doctor(ctx, true, true); !errors.Is(err, context.Canceled) {
		t.Fatalf("repair: got %v, want context.Canceled", err)
	}
}
