package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// What a Store skips after its own commit (the journal read, the .gitignore
// check) is done again as soon as something else changed the files.
func TestSeenJournalChangedByOthers(t *testing.T) {
	root := t.TempDir()
	a, b := Open(root, "a"), Open(root, "b")
	seed(t, a, 1)
	seed(t, b, 1) // a's record of the journal is stale now
	seed(t, a, 1)
	entries, probs, err := ReadJournal(a.JournalPath())
	if err != nil || len(probs) > 0 || len(entries) != 3 {
		t.Fatalf("journal: %d entries, problems %v, %v", len(entries), probs, err)
	}
	for i, e := range entries {
		if e.Revision != int64(i+1) || e.Base != int64(i) || e.Full {
			t.Errorf("entry %d: revision %d base %d full %v (want a diff on the one before)", i, e.Revision, e.Base, e.Full)
		}
	}

	// git merging the journal as text after a's commit: a's next write is
	// refused as any Store's would be.
	f, err := os.OpenFile(a.JournalPath(), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprint(f, "<<<<<<< HEAD\n=======\n>>>>>>> theirs\n")
	f.Close()
	_, err = a.update(context.Background(), "call", params(`{}`), fakeCreate("x"))
	if err == nil || !strings.HasPrefix(err.Error(), "nothing written: .planls/journal.jsonl holds git conflict markers (line 4)") {
		t.Fatalf("got %v, want the conflict refusal", err)
	}
	if st := mustRead(t, a); st.Revision != 3 {
		t.Errorf("revision %d after a refused write", st.Revision)
	}
}

// .planls/ removed while a writer runs: its next commit writes the
// .gitignore again.
func TestSeenDirRemoved(t *testing.T) {
	s := Open(t.TempDir(), "test")
	seed(t, s, 1)
	if err := os.RemoveAll(s.Dir()); err != nil {
		t.Fatal(err)
	}
	seed(t, s, 1)
	if gi, err := os.ReadFile(filepath.Join(s.Dir(), ".gitignore")); err != nil || string(gi) != gitignoreBody {
		t.Errorf(".gitignore = %q, %v", gi, err)
	}
}

// A commit's lock names its holder once held for noteAfter, and the note is
// cleared on release.
func TestLongCommitNamesHolder(t *testing.T) {
	s := Open(t.TempDir(), "slow")
	h, err := s.lock(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	want := fmt.Sprintf("pid %d, actor slow, host %s, since ", os.Getpid(), host)
	for deadline := time.Now().Add(time.Minute); ; {
		b, _ := os.ReadFile(s.LockPath())
		if strings.HasPrefix(string(b), want) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("lock file %q, want prefix %q", b, want)
		}
		time.Sleep(5 * time.Millisecond) // polling for the note, not timing it
	}
	if err := h.unlock(); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(s.LockPath()); err != nil || len(b) != 0 {
		t.Errorf("lock file after release = %q, %v", b, err)
	}
}

// A note left by a holder that was killed names no one: the next holder
// clears it.
func TestStaleHolderNoteCleared(t *testing.T) {
	s := Open(t.TempDir(), "test")
	if err := os.MkdirAll(s.Dir(), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.LockPath(), []byte("pid 1, actor dead, host gone, since 2026-01-02T03:04:05Z\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	seed(t, s, 1)
	if b, err := os.ReadFile(s.LockPath()); err != nil || len(b) != 0 {
		t.Errorf("lock file = %q, %v (want empty)", b, err)
	}
}
