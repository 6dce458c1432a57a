package main

import (
	"strings"
	"testing"

	"github.com/planls/planls/core"
)

// hookReason appends the plan items closed without proof to the reminder,
// and stands alone when nothing is open; side tasks never count.
func TestHookReason(t *testing.T) {
	plan := &core.PlanRef{Title: "Ship"}
	task := func(id int, status core.Status, source, evidence string) core.Task {
		return core.Task{ID: id, Subject: "s" + string(rune('0'+id)), Status: status, Source: source, Evidence: evidence}
	}
	const unprovenHead = "Plan items closed without proof (state.json edited by hand?); they count as open. " +
		"Close each with planls todo complete N --evidence ... or planls todo defer N --reason ...:\n"
	for _, tc := range []struct {
		name  string
		tasks []core.Task
		want  func(reminder string) string
	}{
		{"all proven", []core.Task{task(1, core.Completed, "plan", "ok")}, func(string) string { return "" }},
		{"side task closed by hand", []core.Task{task(1, core.Completed, "", "")}, func(string) string { return "" }},
		{"open only", []core.Task{task(1, core.Pending, "plan", "")}, func(r string) string { return r }},
		{"unproven only", []core.Task{task(1, core.Completed, "plan", ""), task(2, core.Deferred, "plan", "")},
			func(string) string {
				return unprovenHead + "- #1 s1 (completed without evidence)\n- #2 s2 (deferred without a reason)\n"
			}},
		{"both", []core.Task{task(1, core.Pending, "plan", ""), task(2, core.Completed, "plan", " ")},
			func(r string) string {
				return strings.TrimRight(r, "\n") + "\n\n" + unprovenHead + "- #2 s2 (completed without evidence)\n"
			}},
	} {
		st := &core.State{Version: core.SchemaVersion, NextID: 10, Plan: plan, Tasks: tc.tasks}
		reminder := core.Reminder(st)
		if strings.Contains(tc.name, "open") || tc.name == "both" {
			if !strings.HasPrefix(reminder, "Plan check: ") {
				t.Fatalf("%s: no reminder for an open plan item: %q", tc.name, reminder)
			}
		}
		want := tc.want(reminder)
		if got := hookReason(st, "PLAN.md", nil); got != want {
			t.Errorf("%s: hookReason =\n%q\nwant\n%q", tc.name, got, want)
		}
	}
}

// Drift joins the reason after the other parts, asks for the user's
// re-approval, and never tells the agent to approve.
func TestHookReasonDrift(t *testing.T) {
	drift := []driftItem{
		{Kind: core.New, Subject: "three", Line: 5, Col: 1},
		{Kind: core.Changed, TaskID: 2, Subject: "deux\x1b[2J", Line: 4, Col: 1},
	}
	const want = "docs/PLAN.md has changed since the user approved it, so the work is not done against an approved plan. " +
		"Do not approve the plan yourself: tell the user what changed and ask them to review docs/PLAN.md and re-approve it:\n" +
		"- line 5: not in the approved plan: three\n- line 4: plan item #2 changed since approval: deux [2J\n"
	closed := &core.State{Version: core.SchemaVersion, NextID: 3, Plan: &core.PlanRef{Title: "Ship"},
		Tasks: []core.Task{{ID: 1, Subject: "s1", Status: core.Completed, Source: "plan", Evidence: "ok"}}}
	if got := hookReason(closed, "docs/PLAN.md", drift); got != want {
		t.Errorf("drift only:\n%q\nwant\n%q", got, want)
	}
	if got := hookReason(closed, "docs/PLAN.md", nil); got != "" {
		t.Errorf("no drift: %q", got)
	}
	open := &core.State{Version: core.SchemaVersion, NextID: 3, Plan: &core.PlanRef{Title: "Ship"},
		Tasks: []core.Task{{ID: 1, Subject: "s1", Status: core.Pending, Source: "plan"},
			{ID: 2, Subject: "s2", Status: core.Completed, Source: "plan"}}}
	got := hookReason(open, "docs/PLAN.md", drift)
	reminder := strings.TrimRight(core.Reminder(open), "\n")
	unproven := "Plan items closed without proof (state.json edited by hand?); they count as open. " +
		"Close each with planls todo complete N --evidence ... or planls todo defer N --reason ...:\n- #2 s2 (completed without evidence)"
	if w := reminder + "\n\n" + unproven + "\n\n" + want; got != w {
		t.Errorf("all three:\n%q\nwant\n%q", got, w)
	}
	for _, bad := range []string{"run planls approve", "approve it yourself", "approve the plan with"} {
		if strings.Contains(got, bad) {
			t.Errorf("the reason suggests the agent approve: %q", bad)
		}
	}
}
