package store

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Helper processes: the test binary re-executed with PLANLS_STORE_HELPER set.
const envHelper = "PLANLS_STORE_HELPER"

func TestMain(m *testing.M) {
	switch os.Getenv(envHelper) {
	case "":
		os.Exit(m.Run())
	case "hold":
		// Take the lock, say so, and hold it until killed.
		s := Open(os.Getenv("PLANLS_HELPER_ROOT"), "helper")
		if _, err := s.Lock(context.Background()); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		os.WriteFile(os.Getenv("PLANLS_HELPER_SIGNAL"), []byte("locked"), 0o644)
		time.Sleep(time.Minute)
		os.Exit(0)
	case "write":
		// Commit creates until killed.
		s := Open(os.Getenv("PLANLS_HELPER_ROOT"), fmt.Sprintf("writer-%d", os.Getpid()))
		s.LockTimeout = time.Minute
		parent := os.Getppid()
		for i := 0; os.Getppid() == parent; i++ { // a test that died leaves no writer behind
			if _, err := s.update(context.Background(), "call", params(`{"action":"create"}`), fakeCreate(fmt.Sprintf("p%d-%d", os.Getpid(), i))); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(3)
			}
		}
		os.Exit(0)
	}
}

func helper(t *testing.T, mode, root string, extraEnv ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), envHelper+"="+mode, "PLANLS_HELPER_ROOT="+root)
	cmd.Env = append(cmd.Env, extraEnv...)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// A failing test returns before its own kill; the helpers must not
	// outlive it (they write into its temp dir, which is removed after this).
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	return cmd
}

// The lock holder is killed with SIGKILL; the next writer goes ahead
// at once instead of hanging on the lock it left behind.
func TestKilledHolderReleasesLock(t *testing.T) {
	root := t.TempDir()
	signal := filepath.Join(root, "signal")
	h := helper(t, "hold", root, "PLANLS_HELPER_SIGNAL="+signal)
	for deadline := time.Now().Add(20 * time.Second); ; {
		if _, err := os.Stat(signal); err == nil {
			break
		}
		if time.Now().After(deadline) {
			h.Process.Kill()
			t.Fatal("helper never took the lock")
		}
		time.Sleep(5 * time.Millisecond)
	}
	s := Open(root, "test")
	s.LockTimeout = 100 * time.Millisecond
	if _, err := s.update(context.Background(), "call", params(`{}`), fakeCreate("x")); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("locked by pid %d, actor helper", h.Process.Pid)) {
		t.Fatalf("while held: %v", err)
	}
	h.Process.Signal(syscall.SIGKILL)
	h.Wait()
	s.LockTimeout = 5 * time.Second
	if _, err := s.update(context.Background(), "call", params(`{}`), fakeCreate("x")); err != nil {
		t.Fatalf("after the holder died: %v", err)
	}
}

// Writers are killed with SIGKILL at random moments, on the real disk.
// After every kill the state parses and is a whole commit (each commit adds
// one task, so revision = number of tasks = highest id), revisions never go
// back, a reader running alongside never sees a torn file, and at the end
// the journal still rebuilds the state and no temp file is left.
func TestKill9Writers(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	root := t.TempDir()
	s := Open(root, "check")
	var last int64
	rounds := 12
	for round := 0; round < rounds; round++ {
		var procs []*exec.Cmd
		for i := 0; i < 3; i++ {
			procs = append(procs, helper(t, "write", root))
		}
		// Kill while they are busy: after the first commit of this round
		// (however slow the machine is at starting processes), plus a
		// random moment.
		for deadline := time.Now().Add(time.Minute); ; {
			st, err := s.Read()
			if err != nil {
				t.Fatalf("round %d: a reader saw a broken state: %v", round, err)
			}
			if st.Revision > last || time.Now().After(deadline) {
				break
			}
		}
		until := time.Now().Add(time.Duration(rand.IntN(60)) * time.Millisecond)
		for time.Now().Before(until) {
			if _, err := s.Read(); err != nil {
				t.Fatalf("round %d: a reader saw a broken state: %v", round, err)
			}
		}
		for _, p := range procs {
			p.Process.Signal(syscall.SIGKILL)
		}
		for _, p := range procs {
			p.Wait()
		}
		st, err := s.Read()
		if err != nil {
			t.Fatalf("round %d: after kill -9: %v", round, err)
		}
		if st.Revision < last {
			t.Fatalf("round %d: revision went back from %d to %d", round, last, st.Revision)
		}
		if int64(len(st.Tasks)) != st.Revision || (len(st.Tasks) > 0 && st.Tasks[len(st.Tasks)-1].ID != len(st.Tasks)) || st.NextID != len(st.Tasks)+1 {
			t.Fatalf("round %d: revision %d with %d tasks, nextId %d: not a whole commit", round, st.Revision, len(st.Tasks), st.NextID)
		}
		last = st.Revision
	}
	if last == 0 {
		t.Fatal("no writer ever committed")
	}
	seed(t, s, 1)
	temps, _ := filepath.Glob(filepath.Join(s.Dir(), ".state.json*"))
	if len(temps) > 0 {
		t.Errorf("temp files left: %v", temps)
	}
	entries, probs, err := ReadJournal(s.JournalPath())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range probs {
		if !strings.Contains(p.Msg, "cut short") && !strings.Contains(p.Msg, "not a journal entry") {
			t.Errorf("journal line %d: %s", p.Line, p.Msg)
		}
	}
	a, _ := encodeState(Replay(entries))
	if !bytes.Equal(a, stateBytes(t, s)) {
		t.Errorf("the journal no longer rebuilds the state (revision %d)", last+1)
	}
	t.Logf("%d rounds, %d commits survived", rounds, last)
}
