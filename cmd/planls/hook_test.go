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
		if got := hookReason(st); got != want {
			t.Errorf("%s: hookReason =\n%q\nwant\n%q", tc.name, got, want)
		}
	}
}
