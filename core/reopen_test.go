package core

import (
	"encoding/json"
	"strings"
	"testing"
)

// A person reopens a completed task with a reason; the todo tool still
// refuses it (the seed's status machine) and tells the agent what to do.
func TestReopen(t *testing.T) {
	st := ruleState(t) // #5 completed with "ok", #6 deferred, #7 deleted, #4 pending
	tests := []struct {
		name string
		op   ReopenOp
		text string
	}{
		{"completed", ReopenOp{ID: 5, Reason: " CI fails ", By: "Ann <ann@example.com>"}, "Reopened #5 (completed → pending): CI fails"},
		{"deferred", ReopenOp{ID: 6, Reason: "back in scope"}, "Reopened #6 (deferred → pending): back in scope"},
		{"completed plan item", ReopenOp{ID: 1, Reason: "x"}, "No change: #1 already matches the requested values (status: pending)"},
		{"no reason", ReopenOp{ID: 5, Reason: "  "}, "Error: reason required to reopen a task: say why it is not done (the journal keeps it with the evidence it had)"},
		{"unknown", ReopenOp{ID: 99, Reason: "x"}, "Error: #99 not found"},
		{"tombstone", ReopenOp{ID: 7, Reason: "x"}, "Error: #7 is deleted: restore brings it back (planls todo restore 7)"},
	}
	before := snapshot(t, st)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := Reopen(st, tc.op, testOpts())
			if got := res.Envelope.Text(); got != tc.text {
				t.Errorf("text %q, want %q", got, tc.text)
			}
			if snapshot(t, st) != before {
				t.Fatal("Reopen mutated its input")
			}
			if !res.Changed {
				if res.State != st {
					t.Error("an unchanged result is not the input state")
				}
				return
			}
			task := res.State.task(tc.op.ID)
			if task.Status != Pending || task.Evidence != "" || task.Reason != "" || task.Version != st.task(tc.op.ID).Version+1 {
				t.Errorf("reopened task %+v", task)
			}
			var p ReopenedParams
			if err := json.Unmarshal(res.Envelope.Details.Params, &p); err != nil {
				t.Fatal(err)
			}
			old := st.task(tc.op.ID)
			if p.Action != "reopen" || p.From != old.Status || p.Evidence != old.Evidence || p.Deferred != old.Reason || p.By != strings.TrimSpace(tc.op.By) {
				t.Errorf("params %+v", p)
			}
		})
	}
}

// The tool keeps completed final: the refusal is the seed's text, and a
// notice (the MCP server's second content block) says what to do.
func TestCompletedStaysFinalInTheTool(t *testing.T) {
	st := ruleState(t)
	for _, params := range []string{
		`{"action":"update","id":5,"status":"pending"}`,
		`{"ops":[{"action":"update","id":5,"status":"in_progress"}]}`,
	} {
		res := call(st, json.RawMessage(params), testOpts())
		if !strings.Contains(res.Envelope.Text(), "illegal transition completed → ") {
			t.Fatalf("%s: %s", params, res.Envelope.Text())
		}
		if len(res.Notices) != 1 || res.Notices[0].Code != CompletedFinalCode ||
			res.Notices[0].Text != `#5 is completed, and only a person can reopen a completed task. If its work is not done, tell the user why and ask them to reopen it: planls todo reopen 5 --reason "..." (or Reopen in the editor).` {
			t.Errorf("%s: notices %+v", params, res.Notices)
		}
	}
	if res := call(st, json.RawMessage(`{"action":"update","id":7,"status":"pending"}`), testOpts()); len(res.Notices) != 0 {
		t.Errorf("a tombstone's refusal got notices %+v", res.Notices)
	}
	if res := call(st, json.RawMessage(`{"action":"reopen","id":5,"reason":"x"}`), testOpts()); !res.Envelope.IsError() {
		t.Errorf("the tool accepts reopen: %s", res.Envelope.Text())
	}
}
