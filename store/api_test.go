package store

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planls/planls/core"
)

// Call and Approve with the real core: what the language server, the MCP
// server and the command line use.
func TestCallAndApprove(t *testing.T) {
	root := t.TempDir()
	s := Open(root, "test")

	res, err := s.Call(json.RawMessage(`{"action":"get","id":1}`), core.Options{})
	if err != nil || res.Envelope.Text() != "Error: #1 not found" || res.Changed {
		t.Fatalf("get on empty: %q changed=%v err=%v", res.Envelope.Text(), res.Changed, err)
	}
	if _, err := os.Stat(s.Dir()); !os.IsNotExist(err) {
		t.Fatal("a rejected call created .planls")
	}

	res, err = s.Call(json.RawMessage("{\n \"action\": \"create\",\n \"subject\": \"Write the parser\"\n}"), core.Options{})
	if err != nil || res.Envelope.Text() != "Created #1: Write the parser (pending)" || res.State.Revision != 1 {
		t.Fatalf("create: %q %v", res.Envelope.Text(), err)
	}
	entries, _, _ := ReadJournal(s.JournalPath())
	if len(entries) != 1 || string(entries[0].Params) != `{"action":"create","subject":"Write the parser"}` {
		t.Fatalf("journal params %s", entries[0].Params)
	}

	plan := filepath.Join(root, "PLAN.md")
	if err := os.WriteFile(plan, []byte("# Ship\n\n## Work\n- one\n- two\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err = s.Approve("PLAN.md", core.Options{})
	if err != nil || !res.Changed || res.State.Plan == nil || res.State.Plan.Path != "PLAN.md" || res.State.Revision != 2 {
		t.Fatalf("approve: %+v %v", res, err)
	}
	res, err = s.Approve(plan, core.Options{})
	if err != nil || res.Changed {
		t.Fatalf("approving the same plan again changed something: %v", err)
	}
	st := mustRead(t, s)
	if st.Revision != 2 || len(st.Tasks) != 3 {
		t.Fatalf("revision %d, %d tasks", st.Revision, len(st.Tasks))
	}
	entries, _, _ = ReadJournal(s.JournalPath())
	if last := entries[len(entries)-1]; last.Kind != "approve" || !strings.Contains(string(last.Params), `"path":"PLAN.md"`) {
		t.Errorf("approval journal entry: %s %s", last.Kind, last.Params)
	}

	if _, err := s.Approve("missing.md", core.Options{}); err == nil || !strings.HasPrefix(err.Error(), "read plan: ") {
		t.Errorf("missing plan: %v", err)
	}
}

// A plan outside the root keeps its absolute path.
func TestApproveOutsideRoot(t *testing.T) {
	root, other := t.TempDir(), t.TempDir()
	plan := filepath.Join(other, "plan.md")
	os.WriteFile(plan, []byte("# X\n- a\n"), 0o644)
	res, err := Open(root, "test").Approve(plan, core.Options{})
	if err != nil || res.State.Plan == nil || res.State.Plan.Path != filepath.ToSlash(plan) {
		t.Fatalf("%+v %v", res.State.Plan, err)
	}
}

func TestCompactParams(t *testing.T) {
	for in, want := range map[string]string{
		"{\n  \"a\": [1, 2]\n}": `{"a":[1,2]}`,
		"{not json":             `"{not json"`,
		"":                      `""`,
	} {
		if got := string(compactParams(json.RawMessage(in))); got != want {
			t.Errorf("compactParams(%q) = %s, want %s", in, got, want)
		}
	}
}
