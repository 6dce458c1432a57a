package store

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planls/planls/core"
)

// Replace approves another plan file over the approved one that it would
// drop items of (which is refused without it), and still refuses a plan
// with nothing to track.
func TestApproveReplace(t *testing.T) {
	s := Open(t.TempDir(), "test")
	approveFile(t, s, "# P\n- one\n- two\n", ApproveOptions{})
	call(t, s, `{"action":"update","id":1,"status":"in_progress"}`)
	other := func(body string, aopts ApproveOptions) core.Result {
		t.Helper()
		if err := os.WriteFile(filepath.Join(s.Root, "OTHER.md"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		res, err := s.Approve(context.Background(), "OTHER.md", core.Options{Now: fixedTime}, aopts)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if res := other("# Q\n- three\n", ApproveOptions{}); res.Changed || !strings.HasPrefix(res.Envelope.Text(), "Error: OTHER.md is not the approved plan: PLAN.md is") {
		t.Fatalf("without Replace: %q", res.Envelope.Text())
	}
	if res := other("# Q\n\nprose only\n", ApproveOptions{Replace: true}); res.Changed || !res.Envelope.IsError() {
		t.Fatalf("Replace with nothing to track: %q", res.Envelope.Text())
	}
	res := other("# Q\n- three\n", ApproveOptions{Replace: true})
	want := "Approved plan \"Q\": 1 plan item (0 kept, 1 new, 2 removed)\n" +
		"note: #1 \"one\" (in progress) left the approved plan (PLAN.md was replaced by OTHER.md)"
	if !res.Changed || !strings.HasPrefix(res.Envelope.Text(), want) {
		t.Fatalf("with Replace: %q", res.Envelope.Text())
	}
}

// Source approves text for a file that does not hold it yet, and writes no
// file itself.
func TestApproveSource(t *testing.T) {
	s := Open(t.TempDir(), "test")
	text := []byte("# P\n- one\n- two\n")
	res, err := s.Approve(context.Background(), "PLAN.md", core.Options{Now: fixedTime}, ApproveOptions{Source: text})
	if err != nil || !res.Changed || res.Envelope.Text() != "Approved plan \"P\": 2 plan items (0 kept, 2 new, 0 removed)" {
		t.Fatalf("%v %q", err, res.Envelope.Text())
	}
	if _, err := os.Stat(filepath.Join(s.Root, "PLAN.md")); !os.IsNotExist(err) {
		t.Fatalf("Approve wrote the plan file: %v", err)
	}
	st, err := s.Read()
	if err != nil || st.Plan == nil || st.Plan.Path != "PLAN.md" || !core.PlanMatches(text, st.Plan.ID) {
		t.Fatalf("state %+v %v", st.Plan, err)
	}
}
