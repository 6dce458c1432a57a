package core

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/planls/planls/planparse"
)

// approvedState approves src (as PLAN.md) and lets edit change the tasks.
func approvedState(t *testing.T, src string, edit func(tasks []Task)) *State {
	t.Helper()
	res := Approve(Empty(), planparse.Parse([]byte(src)), []byte(src), "PLAN.md", Options{})
	if res.Envelope.IsError() {
		t.Fatal(res.Envelope.Text())
	}
	if edit != nil {
		edit(res.State.Tasks)
	}
	return res.State
}

// findingLines renders findings one per line: rule, id, line (1-based,
// 0 when gone), message.
func findingLines(a *Analysis) []string {
	var out []string
	for _, f := range a.Findings {
		line := 0
		if a.Exists {
			line = planparse.LineOf(a.Src, f.Range.Start)
		}
		out = append(out, fmt.Sprintf("%s #%d %d: %s", f.Rule, f.TaskID, line, f.Message))
	}
	return out
}

func TestAnalyzeRules(t *testing.T) {
	const six = "# Ship\n\n- one\n- two\n- three\n- [ ] four\n- five\n- six\n"
	for _, tc := range []struct {
		name     string
		approved string // "" for no approved plan
		edit     func(tasks []Task)
		now      string
		missing  bool // the plan file does not exist
		verdicts map[int]Verdict
		want     []string
	}{
		{name: "draft", now: "# Ship\n\n- one\n- two\n",
			want: []string{`plan-not-approved #0 1: plan "Ship" is not approved: approve it to track its 2 items`}},
		{name: "draft without items", now: "# Ship\n",
			want: []string{`plan-not-approved #0 1: plan "Ship" is not approved and has no plan items yet: add a top-level bullet per piece of work`}},
		{name: "statuses", approved: six, edit: func(ts []Task) {
			ts[1].Status = InProgress
			ts[2].BlockedBy = []int{1}
			ts[3].Status = Completed // and ticked below: closed, so not "ticked but open"
			ts[4].Status, ts[4].Evidence = Completed, "done"
			ts[5].Status, ts[5].Evidence = Completed, "commit abc1234"
		}, now: "# Ship\n\n- one\n- two\n- three\n- [x] four\n- five\n- six\n",
			verdicts: map[int]Verdict{6: {State: "failed", Reason: "commit abc1234 not found in the repository"}},
			want: []string{ // the ticked box of #4 is progress, not drift
				"open-item #1 3: open plan item #1 (pending): one",
				"in-progress #2 4: plan item #2 in progress: two",
				"blocked #3 5: plan item #3 is blocked by #1: three",
				"closed-without-proof #4 6: plan item #4 is completed without evidence (state.json edited by hand?): four",
				`weak-evidence #5 7: plan item #5 is completed with weak evidence "done": it names no commit, file, test, command with its result or URL that can be checked`,
				"evidence-failed #6 8: plan item #6 failed verification: commit abc1234 not found in the repository",
			}},
		{name: "ticked and open", approved: "# P\n\n- [ ] one\n", now: "# P\n\n- [x] one\n",
			want: []string{
				"open-item #1 3: open plan item #1 (pending): one",
				"checked-not-completed #1 3: plan item #1 is ticked but not completed: complete it with evidence",
			}},
		{name: "blank lines only", approved: "# P\n\n- one\n", edit: closeAll, now: "# P\n\n\n- one\n",
			want: []string{textDriftLine}},
		{name: "changed and missing", approved: "# P\n\n- one\n- two\n- three\n", edit: closeAll,
			now: "# P\n\n- uno\n- three\n",
			want: []string{
				"plan-drift #1 3: plan item #1 differs from the approved plan: re-approve to track the new text",
				"plan-drift #2 3: approved plan item #2 is missing from the plan file: two",
			}},
		// An item gone from the file is placed where it used to be: after
		// the item before it (its nested lines too), else before the item
		// after it, else on the title.
		{name: "missing after nested lines", approved: "# P\n\n- one\n  - detail\n\n- two\n- three\n", edit: closeAll,
			now:  "# P\n\n- one\n  - detail\n\n- three\n",
			want: []string{"plan-drift #2 4: approved plan item #2 is missing from the plan file: two"}},
		{name: "first missing", approved: "# P\n\nWhy.\n\n- one\n- two\n", edit: closeAll, now: "# P\n\nWhy.\n\n- two\n",
			want: []string{"plan-drift #1 5: approved plan item #1 is missing from the plan file: one"}},
		{name: "all missing", approved: "# P\n\n- one\n- two\n", edit: closeAll, now: "# P\n",
			want: []string{
				"plan-drift #1 1: approved plan item #1 is missing from the plan file: one",
				"plan-drift #2 1: approved plan item #2 is missing from the plan file: two",
			}},
		{name: "new", approved: "# P\n\n- one\n", edit: closeAll, now: "# P\n\n- one\n- **two**\n",
			want: []string{"plan-drift #0 4: not in the approved plan: two (re-approve the plan to track it)"}},
		{name: "text", approved: "# P\n\nWhy.\n\n- one\n", edit: closeAll, now: "# P\n\nWhy not.\n\n- one\n",
			want: []string{"plan-drift #0 3: " + msgTextDriftHere}},
		{name: "text removed, at the end", approved: "# P\n\n- one\n\nNotes.\nMore.\n", edit: closeAll, now: "# P\n\n- one\n\nNotes.\n",
			want: []string{"plan-drift #0 5: " + msgTextDriftHere}},
		{name: "moved item", approved: "# P\n\n- one\n- two\n- three\n", edit: closeAll, now: "# P\n\n- three\n- one\n- two\n",
			want: []string{"plan-drift #3 3: plan item #3 moved since approval: re-approve to make the new order the plan"}},
		{name: "trailing white space is no drift", approved: "# P\n\nWhy.\n\n- one\n  - nested\n", edit: closeAll, now: "# P  \n\nWhy. \t\n\n- one  \n  - nested   \n"},
		{name: "invisible differences are no drift", approved: "# P\n\n- one\n", edit: closeAll, now: "\uFEFF# P\r\n\r\n- one\r\n"},
		{name: "problems", approved: "# P\n\n- one\n", edit: closeAll, now: "# P\n\n- one\n-\n",
			want: []string{"empty-item #0 4: empty list item: it has no text, so it is not a plan item", "plan-drift #0 4: " + msgTextDriftHere}},
		{name: "no plan file", approved: "# P\n\n- one\n- two\n", missing: true, edit: func(ts []Task) { ts[1].Status = InProgress },
			want: []string{
				"open-item #1 0: open plan item #1 (pending): one (the plan file is missing)",
				"in-progress #2 0: plan item #2 in progress: two (the plan file is missing)",
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var st *State
			if tc.approved != "" {
				st = approvedState(t, tc.approved, tc.edit)
			}
			in := Input{State: st, Src: []byte(tc.now), Exists: !tc.missing, Verdicts: tc.verdicts}
			a := Analyze(in)
			if got := findingLines(a); !slices.Equal(got, tc.want) {
				t.Errorf("findings:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(tc.want, "\n  "))
			}
			// The same analysis reusing a previous one (the editor's path).
			in.Prev = Analyze(in)
			if got := findingLines(Analyze(in)); !slices.Equal(got, tc.want) {
				t.Errorf("with prev:\n  %s", strings.Join(got, "\n  "))
			}
		})
	}
}

const textDriftLine = "plan-drift #0 1: the plan file changed since approval outside its plan items: re-approve to make the new text the plan"

func closeAll(ts []Task) {
	for i := range ts {
		ts[i].Status, ts[i].Evidence = Completed, "go test ./...: ok"
	}
}

// Items carry the file's subject and the approved one; counts are the
// sidebar's.
func TestAnalyzeItems(t *testing.T) {
	st := approvedState(t, "# P\n\n- `one`\n- two\n- three\n", func(ts []Task) { ts[2].Status, ts[2].Reason = Deferred, "later" })
	a := Analyze(Input{State: st, Src: []byte("# P\n\n- `one`\n- deux\n"), Exists: true})
	var got []string
	for _, it := range a.Items {
		got = append(got, fmt.Sprintf("%s %q %q", it.Drift, it.Subject, it.TaskSubject))
	}
	want := []string{`same "one" "one"`, `changed "deux" "two"`, `missing "three" "three"`}
	if !slices.Equal(got, want) {
		t.Errorf("items %q, want %q", got, want)
	}
	if a.Open != 2 || a.Total != 3 || !a.Approved || !a.NeedsReapproval || a.TextDrift {
		t.Errorf("open %d total %d approved %v reapproval %v text %v", a.Open, a.Total, a.Approved, a.NeedsReapproval, a.TextDrift)
	}
	if it := a.ItemOf(2); it == nil || it.Drift != DriftChanged {
		t.Errorf("ItemOf(2) = %+v", it)
	}
}

func TestVerdictMessage(t *testing.T) {
	for _, tc := range []struct {
		v          Verdict
		rule, want string
	}{
		{Verdict{State: "failed", Reason: "file a.go does not exist"}, RuleFailed, "plan item #3 failed verification: file a.go does not exist"},
		{Verdict{State: "unverifiable", Reason: "URL only"}, RuleUnverifiable, "plan item #3 evidence is unverifiable: URL only"},
		{Verdict{State: "verified", Held: []string{"a", "b"}}, RuleVerified, "plan item #3 verified: a; b"},
	} {
		if rule, msg := VerdictMessage(3, tc.v); rule != tc.rule || msg != tc.want {
			t.Errorf("%v: %s %q", tc.v, rule, msg)
		}
	}
}
