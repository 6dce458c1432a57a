package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planls/planls/core"
)

// approveFile writes PLAN.md under s.Root and approves it.
func approveFile(t *testing.T, s *Store, body string, aopts ApproveOptions) core.Result {
	t.Helper()
	if err := os.WriteFile(filepath.Join(s.Root, "PLAN.md"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := s.Approve(context.Background(), "PLAN.md", core.Options{Now: fixedTime}, aopts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// call runs one real todo call and fails on a rejection.
func call(t testing.TB, s *Store, p string) {
	t.Helper()
	res, err := s.Call(context.Background(), params(p), core.Options{Now: fixedTime})
	if err != nil || res.Envelope.IsError() {
		t.Fatalf("%s: %v %s", p, err, res.Envelope.Text())
	}
}

// A plan file that is not text is refused by name and
// leaves the state file as it was.
func TestApproveRefusesNonText(t *testing.T) {
	for _, tc := range []struct {
		name, body, why string
	}{
		{"NUL bytes", "\x7fELF\x02\x01\x01\x00\x00- a\n", "it holds NUL bytes"},
		{"invalid UTF-8", "# P\xff\n- a\n", "invalid UTF-8"},
		{"UTF-16 LE", "\xff\xfe#\x00 \x00P\x00\n\x00", "UTF-16 byte order mark"},
		{"UTF-16 BE", "\xfe\xff\x00#\x00 \x00P", "UTF-16 byte order mark"},
		{"UTF-32 LE", "\xff\xfe\x00\x00#\x00\x00\x00", "UTF-32 byte order mark"},
		{"UTF-32 BE", "\x00\x00\xfe\xff\x00\x00\x00#", "UTF-32 byte order mark"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := Open(t.TempDir(), "test")
			approveFile(t, s, "# P\n- one\n- two\n", ApproveOptions{})
			call(t, s, `{"action":"update","id":1,"status":"completed","evidence":"go test: ok"}`)
			before := stateBytes(t, s)
			for _, force := range []bool{false, true} {
				res := approveFile(t, s, tc.body, ApproveOptions{Force: force})
				msg := "plan file PLAN.md is not text (" + tc.why + "): save it as UTF-8 and approve again"
				if res.Changed || res.Envelope.Text() != "Error: "+msg || res.Envelope.Details.Error != msg {
					t.Errorf("force=%v: changed %v text %q error %q", force, res.Changed, res.Envelope.Text(), res.Envelope.Details.Error)
				}
				if len(res.Envelope.Details.Tasks) != 2 || res.Envelope.Details.Action != "approve" {
					t.Errorf("details %+v", res.Envelope.Details)
				}
			}
			if string(stateBytes(t, s)) != string(before) {
				t.Error("the state file changed")
			}
		})
	}
}

// A UTF-8 byte order mark is text.
func TestApproveAcceptsUTF8BOM(t *testing.T) {
	s := Open(t.TempDir(), "test")
	res := approveFile(t, s, "\xef\xbb\xbf# P\n- one\n", ApproveOptions{})
	if !res.Changed || res.Envelope.IsError() {
		t.Fatalf("%q", res.Envelope.Text())
	}
}

// An empty plan does not wipe an approved plan unless
// forced. Nor is a plan with nothing to track approved in a new
// project, where check would then pass with nothing to check.
func TestApproveEmptyPlan(t *testing.T) {
	s := Open(t.TempDir(), "test")
	for _, body := range []string{"", "# P\n\nOnly prose, no work.\n", "# P\n\n## Summary\n- context\n"} {
		res := approveFile(t, s, body, ApproveOptions{})
		if res.Changed || res.Envelope.Text() != "Error: "+nothingToApprove("PLAN.md") {
			t.Fatalf("%q: changed %v text %q", body, res.Changed, res.Envelope.Text())
		}
	}
	if res := approveFile(t, s, "", ApproveOptions{Force: true}); res.Envelope.IsError() || !res.Changed {
		t.Fatalf("forced approval of an empty plan: %q", res.Envelope.Text())
	}
	approveFile(t, s, "# P\n- one\n- two\n", ApproveOptions{})
	call(t, s, `{"action":"update","id":1,"status":"completed","evidence":"go test: ok"}`)
	before := stateBytes(t, s)
	for _, body := range []string{"", "# P\n\nno bullets\n", "# P\n-   \n"} {
		res := approveFile(t, s, body, ApproveOptions{})
		want := "Error: plan file PLAN.md has no plan items; approving it would remove all 2 plan items of the approved plan: fix the file, or force the approval (planls approve --force)"
		if res.Changed || res.Envelope.Text() != want {
			t.Errorf("%q: changed %v text %q", body, res.Changed, res.Envelope.Text())
		}
	}
	if string(stateBytes(t, s)) != string(before) {
		t.Fatal("the state file changed")
	}
	res := approveFile(t, s, "", ApproveOptions{Force: true})
	want := "Approved plan \"plan\": 0 plan items (0 kept, 0 new, 2 removed)\n" +
		"note: #1 \"one\" (completed; its evidence stays in the tombstone) left the approved plan (removed, reworded or moved to another heading)\n" +
		"note: 1 open plan item was removed by --force: #2"
	if !res.Changed || res.Envelope.Text() != want {
		t.Fatalf("forced: %q", res.Envelope.Text())
	}
	if _, n := core.PlanCounts(mustRead(t, s)); n != 0 {
		t.Errorf("%d live plan items after a forced empty approval", n)
	}
}

// What a re-approval tombstones is told, in the result
// text and in the journal line.
func TestApproveNotes(t *testing.T) {
	s := Open(t.TempDir(), "test")
	approveFile(t, s, "# P\n- one\n- two\n- three\n- four\n- five\n", ApproveOptions{})
	call(t, s, `{"action":"update","id":1,"status":"completed","evidence":"go test: ok"}`)
	call(t, s, `{"action":"update","id":2,"status":"deferred","reason":"later"}`)
	call(t, s, `{"action":"update","id":3,"status":"in_progress"}`)
	call(t, s, `{"action":"create","subject":"side","blockedBy":[4,5]}`) // #6
	// one reworded, two gone, three moved and reworded, four gone (pending,
	// with a dependant), five kept.
	res := approveFile(t, s, "# P\n- three!\n- one, reworded\n- five\n- six\n", ApproveOptions{})
	want := strings.Join([]string{
		`Approved plan "P": 4 plan items (1 kept, 3 new, 4 removed)`,
		`note: #1 "one" (completed; its evidence stays in the tombstone) left the approved plan (removed, reworded or moved to another heading)`,
		`note: #2 "two" (deferred; its reason stays in the tombstone) left the approved plan (removed, reworded or moved to another heading)`,
		`note: #3 "three" (in progress) left the approved plan (removed, reworded or moved to another heading)`,
		`note: #6 no longer waits on #4 (removed from the plan)`,
	}, "\n")
	if res.Envelope.Text() != want {
		t.Fatalf("text:\n%s\nwant:\n%s", res.Envelope.Text(), want)
	}
	entries, _, err := ReadJournal(s.JournalPath())
	if err != nil {
		t.Fatal(err)
	}
	if got := entries[len(entries)-1].Result; got != want {
		t.Errorf("journal result %q", got)
	}
	// The evidence is still in the tombstone.
	for _, tk := range mustRead(t, s).Tasks {
		if tk.ID == 1 && (tk.Status != core.Deleted || tk.Evidence != "go test: ok") {
			t.Errorf("#1 tombstone %+v", tk)
		}
	}
	// Approving the same content again says nothing more.
	res, err = s.Approve(context.Background(), "PLAN.md", core.Options{Now: fixedTime}, ApproveOptions{})
	if err != nil || strings.Contains(res.Envelope.Text(), "note:") {
		t.Errorf("again: %q %v", res.Envelope.Text(), err)
	}
}

// Pending plan items without dependants go without a note, and control
// characters in a subject do not reach the note.
func TestApproveNotesQuiet(t *testing.T) {
	s := Open(t.TempDir(), "test")
	approveFile(t, s, "# P\n- one\x1b[2J\n- two\n", ApproveOptions{})
	res := approveFile(t, s, "# P\n- two\n", ApproveOptions{})
	if strings.Contains(res.Envelope.Text(), "note:") {
		t.Errorf("%q", res.Envelope.Text())
	}
	// Put back, it is #1 again (restored from its tombstone), and says so.
	res = approveFile(t, s, "# P\n- two\n- one\x1b[2J\n", ApproveOptions{})
	if want := "note: #1 \"one [2J\" is back in the approved plan (pending): the plan has its approved text again"; !strings.HasSuffix(res.Envelope.Text(), "\n"+want) {
		t.Errorf("%q", res.Envelope.Text())
	}
	call(t, s, `{"action":"update","id":1,"status":"completed","evidence":"ok"}`)
	res = approveFile(t, s, "# P\n- two\n", ApproveOptions{})
	if want := "note: #1 \"one [2J\" (completed; its evidence stays in the tombstone) left the approved plan (removed, reworded or moved to another heading)"; !strings.HasSuffix(res.Envelope.Text(), "\n"+want) {
		t.Errorf("%q", res.Envelope.Text())
	}
}

func TestNotText(t *testing.T) {
	for in, want := range map[string]string{
		"":                  "",
		"# P\n- é ✓\n":      "",
		"\xef\xbb\xbf# P\n": "",
		"a\x00b":            "it holds NUL bytes",
		"\xc3":              "invalid UTF-8",
		"\xfe\xff":          "UTF-16 byte order mark",
		"\xff\xfe\x00\x00":  "UTF-32 byte order mark",
	} {
		if got := NotText([]byte(in)); got != want {
			t.Errorf("NotText(%q) = %q, want %q", in, got, want)
		}
	}
}

// BenchmarkApprovalNotes is the worst case: every item of a 5000-item plan
// completed, then every subject reworded.
func BenchmarkApprovalNotes(b *testing.B) {
	const n = 5000
	old := &core.State{Version: 1}
	next := &core.State{Version: 1}
	for i := 1; i <= n; i++ {
		subj := fmt.Sprintf("item %d", i)
		old.Tasks = append(old.Tasks, core.Task{ID: i, Subject: subj, Status: core.Completed, Evidence: "ok", Source: "plan", PlanOrder: i})
		gone := old.Tasks[i-1]
		gone.Status = core.Deleted
		next.Tasks = append(next.Tasks, gone)
	}
	for i := 1; i <= n; i++ {
		next.Tasks = append(next.Tasks, core.Task{ID: n + i, Subject: fmt.Sprintf("Reworded %d", i), Status: core.Pending, Source: "plan", PlanOrder: i})
	}
	b.ReportAllocs()
	for b.Loop() {
		if notes := approvalNotes(old, next, "removed, reworded or moved to another heading", false); len(notes) != n {
			b.Fatalf("%d notes", len(notes))
		}
	}
}

// The notes name no replacing item, even when a new
// item has the very subject of the removed one under another heading (the
// old guess named it); an emptied plan forced over open items lists them.
func TestApproveNotesNameNoSuccessor(t *testing.T) {
	s := Open(t.TempDir(), "test")
	approveFile(t, s, "# P\n## A\n- one\n- two\n- three\n- four\n", ApproveOptions{})
	call(t, s, `{"action":"update","id":1,"status":"completed","evidence":"ok"}`)
	res := approveFile(t, s, "# P\n## B\n- one\n- two\n- three\n- four\n", ApproveOptions{})
	text := res.Envelope.Text()
	if strings.Contains(text, "new item") || strings.Contains(text, "#5") || strings.Contains(text, "--force") {
		t.Errorf("a successor or force note: %q", text)
	}
	if want := "\nnote: #1 \"one\" (completed; its evidence stays in the tombstone) left the approved plan (removed, reworded or moved to another heading)"; !strings.HasSuffix(text, want) {
		t.Errorf("text %q", text)
	}
	// #5 completed, #6 in progress, #7 and #8 pending: all removed by force.
	call(t, s, `{"action":"update","id":5,"status":"completed","evidence":"ok"}`)
	call(t, s, `{"action":"update","id":6,"status":"in_progress"}`)
	res = approveFile(t, s, "# P\n", ApproveOptions{Force: true})
	want := strings.Join([]string{
		`Approved plan "P": 0 plan items (0 kept, 0 new, 4 removed)`,
		`note: #5 "one" (completed; its evidence stays in the tombstone) left the approved plan (removed, reworded or moved to another heading)`,
		`note: #6 "two" (in progress) left the approved plan (removed, reworded or moved to another heading)`,
		`note: 3 open plan items were removed by --force: #6, #7, #8`,
	}, "\n")
	if got := res.Envelope.Text(); got != want {
		t.Errorf("forced:\n%s\nwant:\n%s", got, want)
	}
}

// A plan accepted in place of the approved one (Replace with Source, as an
// agent's plan mode does) names the pending items it dropped, up to
// maxNamed and then how many more; a reword in the same file does not.
func TestApproveReplaceNamesPending(t *testing.T) {
	s := Open(t.TempDir(), "test")
	approveFile(t, s, "# P\n- a\n- b\n- c\n- d\n- e\n- f\n- g\n- keep\n", ApproveOptions{})
	res := approveFile(t, s, "# P\n- a\n- b\n- c\n- d\n- e\n- f\n- g!\n- keep\n", ApproveOptions{})
	if strings.Contains(res.Envelope.Text(), "note:") {
		t.Errorf("a reword: %q", res.Envelope.Text())
	}
	src := []byte("# Q\n- keep\n")
	res, err := s.Approve(context.Background(), "PLAN.md", core.Options{Now: fixedTime}, ApproveOptions{Replace: true, Source: src})
	if err != nil {
		t.Fatal(err)
	}
	want := "\nnote: 7 pending plan items left the approved plan (the accepted plan replaced the approved one): #1 \"a\", #2 \"b\", #3 \"c\", #4 \"d\", #5 \"e\" and 2 more"
	if !strings.HasSuffix(res.Envelope.Text(), want) {
		t.Errorf("text %q, want suffix %q", res.Envelope.Text(), want)
	}
}
