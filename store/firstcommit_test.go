package store

import (
	"context"
	"testing"
)

// A reader that finds no state file while another writer's first commit
// lands (rename, then journal line) must read that commit, not report the
// state file lost (seen as a flake of TestKill9Writers on a busy machine).
func TestReadDuringFirstCommit(t *testing.T) {
	root := t.TempDir()
	writer := Open(root, "writer")
	testHookStateMissing = func() {
		testHookStateMissing = nil // the writer's own read must not recurse
		if _, err := writer.update(context.Background(), "call", params(`{"action":"create"}`), fakeCreate("first")); err != nil {
			t.Errorf("first commit: %v", err)
		}
	}
	t.Cleanup(func() { testHookStateMissing = nil })
	st, err := Open(root, "reader").Read()
	if err != nil {
		t.Fatalf("read during the first commit: %v", err)
	}
	if st.Revision != 1 || len(st.Tasks) != 1 || st.Tasks[0].Subject != "first" {
		t.Fatalf("read %+v, want the first commit", st)
	}
}
