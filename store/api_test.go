package store

import (
	"context"
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

	res, err := s.Call(context.Background(), json.RawMessage(`{"action":"get","id":1}`), core.Options{})
	if err != nil || res.Envelope.Text() != "Error: #1 not found" || res.Changed {
		t.Fatalf("get on empty: %q changed=%v err=%v", res.Envelope.Text(), res.Changed, err)
	}
	if _, err := os.Stat(s.Dir()); !os.IsNotExist(err) {
		t.Fatal("a rejected call created .planls")
	}

	res, err = s.Call(context.Background(), json.RawMessage("{\n \"action\": \"create\",\n \"subject\": \"Write the parser\"\n}"), core.Options{})
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
	res, err = s.Approve(context.Background(), "PLAN.md", core.Options{}, ApproveOptions{})
	if err != nil || !res.Changed || res.State.Plan == nil || res.State.Plan.Path != "PLAN.md" || res.State.Revision != 2 {
		t.Fatalf("approve: %+v %v", res, err)
	}
	res, err = s.Approve(context.Background(), plan, core.Options{}, ApproveOptions{})
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

	if _, err := s.Approve(context.Background(), "missing.md", core.Options{}, ApproveOptions{}); err == nil || !strings.HasPrefix(err.Error(), "read plan: ") {
		t.Errorf("missing plan: %v", err)
	}
}

// A plan outside the root is refused in-band, naming the root, and nothing
// is written; a file whose name starts with ".."
// and a root reached through a symlink are inside.
func TestApproveOutsideRoot(t *testing.T) {
	root, other := t.TempDir(), t.TempDir()
	s := Open(root, "test")
	for _, plan := range []string{filepath.Join(other, "plan.md"), filepath.Join(root, "..", filepath.Base(other), "plan.md")} {
		if err := os.WriteFile(filepath.Join(other, "plan.md"), []byte("# X\n- a\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		res, err := s.Approve(context.Background(), plan, core.Options{}, ApproveOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want := "Error: plan file " + filepath.ToSlash(filepath.Clean(plan)) + " is outside the workspace root " + filepath.ToSlash(root) +
			": move it under the root, or run planls in the project that holds it"
		if res.Changed || res.Envelope.Text() != want || res.Envelope.Details.Error == "" {
			t.Errorf("%s: changed %v, text %q\nwant %q", plan, res.Changed, res.Envelope.Text(), want)
		}
	}
	if _, err := os.Stat(s.StatePath()); !os.IsNotExist(err) {
		t.Errorf("state written: %v", err)
	}

	dots := filepath.Join(root, "..plan.md")
	if err := os.WriteFile(dots, []byte("# D\n- a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := s.Approve(context.Background(), dots, core.Options{}, ApproveOptions{})
	if err != nil || res.Envelope.IsError() || res.State.Plan.Path != "..plan.md" {
		t.Fatalf("..plan.md: %q %v", res.Envelope.Text(), err)
	}

	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(root, link); err != nil || !symlinksResolve {
		t.Skip("no symlinks that resolve:", err)
	}
	res, err = Open(link, "test").Approve(context.Background(), filepath.Join(root, "..plan.md"), core.Options{}, ApproveOptions{})
	if err != nil || res.Envelope.IsError() || res.State.Plan.Path != "..plan.md" {
		t.Errorf("through a symlinked root: %q %v", res.Envelope.Text(), err)
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
