package main

import (
	"strings"
	"testing"

	"github.com/planls/planls/core"
)

// hookReason appends the plan items closed without proof to the reminder,
// and stands alone when nothing is open; side tasks never count.
func TestHookReason(t *testing.T) {
	type status struct {
		status   core.Status
		evidence string
	}
	const unprovenHead = "Plan items closed without proof (state.json edited by hand?); they count as open. " +
		"Close each with planls todo complete N --evidence ... or planls todo defer N --reason ...:\n"
	for _, tc := range []struct {
		name  string
		items []status // of s1, s2
		side  bool     // a side task completed without evidence
		want  func(reminder string) string
	}{
		{"all proven", []status{{core.Completed, "ok"}, {core.Completed, "ok"}}, true, func(string) string { return "" }},
		{"open only", []status{{core.Pending, ""}, {core.Completed, "ok"}}, false, func(r string) string { return r }},
		{"unproven only", []status{{core.Completed, ""}, {core.Deferred, ""}}, false,
			func(string) string {
				return unprovenHead + "- plan item #1 is completed without evidence (state.json edited by hand?): s1\n" +
					"- plan item #2 is deferred without a reason (state.json edited by hand?): s2\n"
			}},
		{"both", []status{{core.Pending, ""}, {core.Completed, " "}}, false,
			func(r string) string {
				return strings.TrimRight(r, "\n") + "\n\n" + unprovenHead +
					"- plan item #2 is completed without evidence (state.json edited by hand?): s2\n"
			}},
	} {
		const plan = "# Ship\n\n- s1\n- s2\n"
		v := analyzed(t, plan, plan, func(st *core.State) {
			for i, s := range tc.items {
				st.Tasks[i].Status, st.Tasks[i].Evidence = s.status, s.evidence
			}
			if tc.side {
				st.Tasks = append(st.Tasks, core.Task{ID: st.NextID, Subject: "side", Status: core.Completed})
				st.NextID++
			}
		})
		reminder := core.Reminder(v.st, nil)
		if strings.Contains(tc.name, "open") || tc.name == "both" {
			if !strings.HasPrefix(reminder, "Plan check: ") {
				t.Fatalf("%s: no reminder for an open plan item: %q", tc.name, reminder)
			}
		}
		want := tc.want(reminder)
		if got := hookReason(v.st, "PLAN.md", v); got != want {
			t.Errorf("%s: hookReason =\n%q\nwant\n%q", tc.name, got, want)
		}
	}
}

// Drift joins the reason after the other parts, asks for the user's
// re-approval, and never tells the agent to approve.
func TestHookReasonDrift(t *testing.T) {
	const approved = "# Ship\n\n- one\n- two\n"
	const now = "# Ship\n\n- one\n- deux\x1b[2J\n- three\n"
	const want = "docs/PLAN.md has changed since the user approved it, so the work is not done against an approved plan. " +
		"Do not approve the plan yourself: tell the user what changed and ask them to review docs/PLAN.md and re-approve it:\n" +
		"- line 4: plan item #2 differs from the approved plan: re-approve to track the new text\n" +
		"- line 5: not in the approved plan: three (re-approve the plan to track it)\n"
	closed := analyzed(t, approved, now, func(st *core.State) {
		for i := range st.Tasks {
			st.Tasks[i].Status, st.Tasks[i].Evidence = core.Completed, "ok"
		}
	})
	if got := hookReason(closed.st, "docs/PLAN.md", closed); got != want {
		t.Errorf("drift only:\n%q\nwant\n%q", got, want)
	}
	same := analyzed(t, approved, approved, func(st *core.State) {
		for i := range st.Tasks {
			st.Tasks[i].Status, st.Tasks[i].Evidence = core.Completed, "ok"
		}
	})
	if got := hookReason(same.st, "docs/PLAN.md", same); got != "" {
		t.Errorf("no drift: %q", got)
	}
	open := analyzed(t, approved, now, func(st *core.State) { st.Tasks[1].Status = core.Completed })
	got := hookReason(open.st, "docs/PLAN.md", open)
	reminder := strings.TrimRight(core.Reminder(open.st, nil), "\n")
	unproven := "Plan items closed without proof (state.json edited by hand?); they count as open. " +
		"Close each with planls todo complete N --evidence ... or planls todo defer N --reason ...:\n" +
		"- plan item #2 is completed without evidence (state.json edited by hand?): two"
	if w := reminder + "\n\n" + unproven + "\n\n" + want; got != w {
		t.Errorf("all three:\n%q\nwant\n%q", got, w)
	}
	for _, bad := range []string{"run planls approve", "approve it yourself", "approve the plan with"} {
		if strings.Contains(got, bad) {
			t.Errorf("the reason suggests the agent approve: %q", bad)
		}
	}
}
