package mcp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planls/planls/core"
	"github.com/planls/planls/store"
)

// TestWeakEvidenceNote: completing with evidence that names nothing
// checkable keeps the seed's text as content[0] byte for byte and adds the
// warning as a second text block; checkable evidence adds nothing.
func TestWeakEvidenceNote(t *testing.T) {
	cs := connect(t, Options{Root: newProject(t)})
	call(t, cs, `{"action":"create","subject":"a"}`)
	call(t, cs, `{"action":"create","subject":"b"}`)
	got := call(t, cs, `{"action":"update","id":1,"status":"completed","evidence":"works now"}`)
	if got.Text != "Updated #1 (pending → completed)" {
		t.Fatalf("content[0] %q", got.Text)
	}
	want := `weak-evidence: #1 is completed with weak evidence "works now", which names nothing planls can check. ` +
		"Good evidence names a commit (abc1234), a file (internal/x.go:42), a test (TestParse) or a command with its " +
		"result (`go test ./...` passes); record it with " + `{"action":"update","id":1,"evidence":"..."}`
	if len(got.Notes) != 1 || got.Notes[0] != want {
		t.Fatalf("notes %q\nwant %q", got.Notes, want)
	}
	got = call(t, cs, `{"action":"complete","id":2,"evidence":"abc1234: `+"`go test ./...`"+` passes"}`)
	if got.Text != "Updated #2 (pending → completed)" || got.Notes != nil {
		t.Fatalf("checkable evidence: %q %q", got.Text, got.Notes)
	}
	// A read of the weak item warns nothing: the warning is for the change.
	got = call(t, cs, `{"action":"get","id":1}`)
	if got.Notes != nil || !strings.Contains(got.Text, "works now") {
		t.Fatalf("get: %q %q", got.Text, got.Notes)
	}
}

// TestCompletedStaysFinal: the tool refuses to move a completed task (the
// seed's status machine and its exact text in content[0]) and adds what
// the agent should do instead as a second text block.
func TestCompletedStaysFinal(t *testing.T) {
	cs := connect(t, Options{Root: newProject(t)})
	call(t, cs, `{"action":"create","subject":"a"}`)
	call(t, cs, `{"action":"complete","id":1,"evidence":"TestA passes"}`)
	got := call(t, cs, `{"action":"update","id":1,"status":"pending"}`)
	if !got.IsError || got.Text != "Error: illegal transition completed → pending" {
		t.Fatalf("content[0] %q", got.Text)
	}
	want := `#1 is completed, and only a person can reopen a completed task. If its work is not done, tell the user why and ask them to reopen it: planls todo reopen 1 --reason "..." (or Reopen in the editor).`
	if len(got.Notes) != 1 || got.Notes[0] != want {
		t.Fatalf("notes %q", got.Notes)
	}
}

// TestFailedEvidenceNote: completing a plan item with evidence that fails
// verification (a file that does not exist) keeps the seed's text as
// content[0] byte for byte, completes the item, and adds the failure and
// how to correct it as a second text block; evidence that holds adds nothing.
func TestFailedEvidenceNote(t *testing.T) {
	root := newProject(t)
	plan := "# Plan\n\n## Steps\n\n- Add the parser\n- Add the lexer\n"
	if err := os.WriteFile(filepath.Join(root, "PLAN.md"), []byte(plan), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "parse.go"), []byte("package p\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Open(root, "cli").Approve(context.Background(), "PLAN.md", core.Options{}, store.ApproveOptions{}); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, Options{Root: root})
	got := call(t, cs, `{"action":"complete","id":2,"evidence":"see lex.go:3"}`)
	if got.IsError || got.Text != "Updated #2 (pending → completed)" {
		t.Fatalf("content[0] %q", got.Text)
	}
	want := `plan item #2 failed verification: file lex.go does not exist; correct it with {"action":"update","id":2,"evidence":"..."}`
	if len(got.Notes) != 1 || got.Notes[0] != want {
		t.Fatalf("notes %q\nwant %q", got.Notes, want)
	}
	if st := readState(t, root); taskByID(t, st, 2).Status != core.Completed {
		t.Fatal("the item is not completed")
	}
	got = call(t, cs, `{"action":"complete","id":1,"evidence":"see parse.go:1"}`)
	if got.Text != "Updated #1 (pending → completed)" || got.Notes != nil {
		t.Fatalf("evidence that holds: %q %q", got.Text, got.Notes)
	}
}
