package mcp

import (
	"strings"
	"testing"
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
