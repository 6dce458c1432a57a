package core

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// ruleState is PLAN_A (#1–#3 plan items) plus agent todos:
// #4 pending, #5 completed, #6 deferred, #7 deleted, #8 blocked by #4.
func ruleState(t *testing.T) *State {
	t.Helper()
	st := planAState(t)
	for _, c := range []string{
		`{"action":"create","subject":"four"}`,
		`{"action":"create","subject":"five"}`,
		`{"action":"update","id":5,"status":"completed","evidence":"ok"}`,
		`{"action":"create","subject":"six"}`,
		`{"action":"update","id":6,"status":"deferred","reason":"later"}`,
		`{"action":"create","subject":"seven"}`,
		`{"action":"delete","id":7}`,
		`{"action":"create","subject":"eight","blockedBy":[4]}`,
	} {
		st, _ = mustCall(t, st, c)
	}
	return st
}

// TestUpdateCheckOrder walks the seed's status transitions:
// each row breaks the rule of its step and every later one, so the row only
// passes when that step is checked before all the later ones.
func TestUpdateCheckOrder(t *testing.T) {
	st := ruleState(t)
	tests := []struct {
		step   int
		params string
		msg    string
	}{
		{1, `{"action":"update","status":"bogus-is-refused-first"}`, `status must be one of pending, in_progress, completed, deferred, deleted (got "bogus-is-refused-first")`},
		{1, `{"action":"update","status":"deleted","evidence":"","addBlockedBy":[99]}`, "id required for update"},
		{2, `{"action":"update","id":99,"status":"deleted","evidence":""}`, "#99 not found"},
		{3, `{"action":"update","id":1,"addBlockedBy":[],"removeBlockedBy":[]}`, msgNoMutableField},
		{4, `{"action":"update","id":1,"subject":"other","status":"deleted","evidence":""}`, msgPlanText(1)},
		{4, `{"action":"update","id":1,"description":"","status":"deleted"}`, msgPlanText(1)},
		{5, `{"action":"update","id":5,"status":"in_progress","evidence":"x"}`, "illegal transition completed → in_progress"},
		{5, `{"action":"update","id":7,"status":"pending"}`, "illegal transition deleted → pending"},
		{6, `{"action":"update","id":1,"status":"deleted","evidence":"x","reason":"y"}`, msgPlanUndeletable(1)},
		{7, `{"action":"update","id":4,"status":"deferred","evidence":"x","reason":"y"}`, msgEvidenceOnly},
		{8, `{"action":"update","id":4,"status":"completed","reason":"y"}`, msgReasonOnly},
		{8, `{"action":"update","id":4,"reason":"y"}`, msgReasonOnly},
		{9, `{"action":"update","id":4,"status":"completed","evidence":" \t ","addBlockedBy":[4]}`, msgNeedEvidence},
		{9, `{"action":"update","id":5,"evidence":""}`, msgNeedEvidence},
		{10, `{"action":"update","id":4,"status":"deferred","addBlockedBy":[4]}`, msgNeedReason},
		{10, `{"action":"update","id":6,"reason":"  "}`, msgNeedReason},
		{11, `{"action":"update","id":4,"addBlockedBy":[4,99]}`, "cannot block #4 on itself"},
		{11, `{"action":"update","id":4,"addBlockedBy":[99,7]}`, "addBlockedBy: #99 not found"},
		{11, `{"action":"update","id":4,"addBlockedBy":[7,8]}`, "addBlockedBy: #7 is deleted"},
		{12, `{"action":"update","id":4,"addBlockedBy":[8]}`, msgCycle},
	}
	for i, tt := range tests {
		t.Run(fmt.Sprintf("step%02d_%d", tt.step, i), func(t *testing.T) {
			mustFail(t, st, tt.params, tt.msg)
		})
	}
}

// A dependency tombstoned after the edge was made fails a re-add (§2 step 12
// note), while an edge that is already there and live is a No change.
func TestReAddingEdges(t *testing.T) {
	st := Empty()
	for _, c := range []string{
		`{"action":"create","subject":"a"}`, `{"action":"create","subject":"b","blockedBy":[1]}`,
	} {
		st, _ = mustCall(t, st, c)
	}
	_, res := mustCall(t, st, `{"action":"update","id":2,"addBlockedBy":[1]}`)
	if res.Envelope.Text() != "No change: #2 already matches the requested values (status: pending)" || res.Changed {
		t.Fatalf("%q", res.Envelope.Text())
	}
	st, _ = mustCall(t, st, `{"action":"delete","id":1}`)
	mustFail(t, st, `{"action":"update","id":2,"addBlockedBy":[1]}`, "addBlockedBy: #1 is deleted")
	// removeBlockedBy runs first, so remove+add moves the edge to the end.
	st, _ = mustCall(t, Empty(), `{"ops":[{"action":"create","subject":"a"},{"action":"create","subject":"b"},{"action":"create","subject":"c","blockedBy":[1,2]}]}`)
	st, _ = mustCall(t, st, `{"action":"update","id":3,"removeBlockedBy":[1],"addBlockedBy":[1]}`)
	if got := st.task(3).BlockedBy; !slices.Equal(got, []int{2, 1}) {
		t.Fatalf("blockedBy %v", got)
	}
}

func TestCreateCheckOrder(t *testing.T) {
	st := ruleState(t)
	tests := []struct{ params, msg string }{
		{`{"action":"create","subject":" ","blockedBy":[99]}`, "subject required for create"},
		{`{"action":"create","blockedBy":[99]}`, "subject required for create"},
		{`{"action":"create","subject":"WIRE  beta","blockedBy":[99]}`, "#2 is already a plan item; update it"},
		{`{"action":"create","subject":"x","blockedBy":[4,99,7]}`, "blockedBy: #99 not found"},
		{`{"action":"create","subject":"x","blockedBy":[7]}`, "blockedBy: #7 is deleted"},
	}
	for _, tt := range tests {
		mustFail(t, st, tt.params, tt.msg)
	}
}

func TestCreateFields(t *testing.T) {
	st, res := mustCall(t, Empty(), `{"action":"create","subject":"  spaced  ","description":"","activeForm":"doing","owner":"","status":"completed","evidence":"e","reason":"r","metadata":{"a":null,"b":1},"blockedBy":[]}`)
	task := st.Tasks[0]
	if res.Envelope.Text() != "Created #1:   spaced   (pending)" || task.Subject != "  spaced  " || task.Status != Pending {
		t.Fatalf("%q %+v", res.Envelope.Text(), task)
	}
	if task.Description != nil || task.Owner != nil || task.ActiveForm == nil || task.Evidence != "" || task.Reason != "" {
		t.Fatalf("create must store only non-empty text fields and ignore evidence/reason: %+v", task)
	}
	if len(task.Metadata) != 1 || task.BlockedBy != nil || task.Version != 1 || !task.CreatedAt.Equal(testNow) {
		t.Fatalf("%+v", task)
	}
}

func TestDeleteCheckOrder(t *testing.T) {
	st := ruleState(t)
	mustFail(t, st, `{"action":"delete"}`, "id required for delete")
	mustFail(t, st, `{"action":"delete","id":99}`, "#99 not found")
	mustFail(t, st, `{"action":"delete","id":7}`, "#7 is already deleted")
	mustFail(t, st, `{"action":"delete","id":2}`, msgPlanUndeletable(2))
	mustFail(t, st, `{"action":"get"}`, "id required for get")
	mustFail(t, st, `{"action":"get","id":99}`, "#99 not found")
}

func TestUpdateStoresFields(t *testing.T) {
	st := ruleState(t)
	// description/activeForm/owner are stored exactly on update, "" included.
	st, res := mustCall(t, st, `{"action":"update","id":4,"description":"","owner":"","activeForm":""}`)
	task := st.task(4)
	if res.Envelope.Text() != "Updated #4" || task.Description == nil || *task.Description != "" || task.Version != 2 {
		t.Fatalf("%q %+v", res.Envelope.Text(), task)
	}
	// Reopening a deferred task drops its reason; evidence is never dropped.
	st, _ = mustCall(t, st, `{"action":"update","id":6,"status":"in_progress"}`)
	if st.task(6).Reason != "" {
		t.Fatal("reason kept after reopening")
	}
	st, _ = mustCall(t, st, `{"action":"delete","id":5}`)
	if st.task(5).Evidence != "ok" || st.task(5).DeletedFrom != Completed {
		t.Fatalf("%+v", st.task(5))
	}
	// An agent todo deferred gets no plan suffix; re-deferring a plan item is plain.
	st, res = mustCall(t, st, `{"action":"update","id":4,"status":"deferred","reason":"r"}`)
	if res.Envelope.Text() != "Updated #4 (pending → deferred)" || len(res.Notices) != 0 {
		t.Fatalf("%q %v", res.Envelope.Text(), res.Notices)
	}
	// Changed timestamps and versions only on change.
	if task := st.task(4); task.Version != 3 || !task.UpdatedAt.Equal(testNow) {
		t.Fatalf("%+v", task)
	}
}

func TestClear(t *testing.T) {
	st := ruleState(t)
	st, res := mustCall(t, st, `{"action":"clear"}`)
	want := "Cleared 5 tasks; kept 3 plan items (complete them with evidence or defer them with a reason)"
	if res.Envelope.Text() != want || len(st.Tasks) != 3 || st.NextID != 9 || st.Plan == nil {
		t.Fatalf("%q tasks %d nextId %d", res.Envelope.Text(), len(st.Tasks), st.NextID)
	}
	// Nothing left to clear is a no-op.
	_, res = mustCall(t, st, `{"action":"clear"}`)
	if res.Changed || res.Envelope.Text() != "Cleared 0 tasks; kept 3 plan items (complete them with evidence or defer them with a reason)" {
		t.Fatalf("%q %v", res.Envelope.Text(), res.Changed)
	}
	_, res = mustCall(t, Empty(), `{"action":"clear"}`)
	if res.Changed || res.Envelope.Text() != "Cleared 0 tasks" {
		t.Fatalf("%q", res.Envelope.Text())
	}
}

func TestBatchMalformed(t *testing.T) {
	st := ruleState(t)
	tests := []struct{ params, msg string }{
		{`{"ops":[{"action":"list"}],"action":"list"}`, msgOpsCombined},
		{`{"ops":[{"action":"list"}],"bogus":1}`, msgOpsCombined},
		{`{"ops":[]}`, msgOpsEmpty},
		{`{"ops":{}}`, "ops must be an array of op objects"},
		{`{"ops":[1]}`, "ops[0]: op must be a JSON object"},
		{`{"ops":[{"action":"list"},{"subject":"x"}]}`, "ops[1]: action required"},
		{`{"ops":[{"action":"list"},{"action":"list","ops":[]}]}`, "ops[1]: ops can't be nested"},
		{`{"ops":[{"action":"create","subject":"x"},{"action":"nope"}]}`, `ops[1]: unknown action "nope": use create, update, complete, list, get, delete, clear, delete_all, restore`},
		{`{"ops":[{"action":"create","subject":"x"},{"action":"update","id":"1.5"}]}`, "ops[1]: id must be an integer"},
		{`{"ops":[{"action":"create","subject":"x","colour":"red"}]}`, `ops[0]: unknown field "colour": see the todo tool's parameters`},
		{`{"ops":[{"action":"create","subject":"x"},{"action":"list","project_id":"p"}]}`, `ops[1]: project_id "p" is not this project: this server has no project id, leave project_id out`},
		// A failing read throws away every mutation of the batch.
		{`{"ops":[{"action":"create","subject":"x"},{"action":"get","id":99}]}`, "ops[1]: #99 not found"},
		{`{"ops":[{"action":"get","id":4},{"action":"delete","id":2}]}`, "ops[1]: " + msgPlanUndeletable(2)},
	}
	for _, tt := range tests {
		mustFail(t, st, tt.params, tt.msg)
	}
}

func TestBatchOutcomes(t *testing.T) {
	st := planAState(t)
	// Reads see the final state whatever their position; creates follow the
	// running nextId so later ops can address them.
	st2, res := mustCall(t, st, `{"ops":[{"action":"get","id":4},{"action":"create","subject":"x"},{"action":"update","id":4,"status":"in_progress"}]}`)
	want := lines("Applied 3 ops", "[0] #4 [in_progress] x", "[1] Created #4: x (pending)",
		"[2] Updated #4 (pending → in_progress)", "Plan: Add widgets -- 3/3 plan items open")
	if res.Envelope.Text() != want || res.Envelope.Details.Action != "batch" || !res.Changed {
		t.Fatalf("%q", res.Envelope.Text())
	}
	if st2.task(4).Version != 2 {
		t.Fatalf("version %d", st2.task(4).Version)
	}
	// Repeated deferral: one notice with the final reason.
	_, res = mustCall(t, st, `{"ops":[{"action":"update","id":2,"status":"deferred","reason":"a"},{"action":"update","id":2,"reason":"b"}]}`)
	if len(res.Notices) != 1 || res.Notices[0].Text != "Plan item deferred: #2 Wire beta -- b" {
		t.Fatalf("%v", res.Notices)
	}
	// Ops that cancel out persist nothing (with plan items kept, clear keeps
	// nextId, so only an empty state returns to where it was).
	empty := Empty()
	res = call(empty, []byte(`{"ops":[{"action":"create","subject":"t"},{"action":"clear"}]}`), testOpts())
	if res.Changed || res.State != empty {
		t.Fatalf("net no-op batch changed the state: %s", res.Envelope.Text())
	}
	// A read-only batch changes nothing.
	res = call(st, []byte(`{"ops":[{"action":"list"}]}`), testOpts())
	if res.Changed || res.State != st || res.Envelope.Text() != lines("Applied 1 ops",
		"[0] Plan: Add widgets -- 3/3 plan items open", "[pending] #1 Add the Widget [plan: Work]",
		"[pending] #2 Wire beta [plan: Work]", "    - flag --beta", "[pending] #3 make test passes [plan: Verification]",
		"Plan: Add widgets -- 3/3 plan items open") {
		t.Fatalf("%q", res.Envelope.Text())
	}
}

func TestStatusMachine(t *testing.T) {
	all := []Status{Pending, InProgress, Completed, Deferred, Deleted}
	allowed := map[Status]string{
		Pending: "in_progress completed deferred deleted", InProgress: "pending completed deferred deleted",
		Completed: "deleted", Deferred: "pending in_progress deleted", Deleted: "",
	}
	for _, from := range all {
		for _, to := range all {
			want := from == to || strings.Contains(" "+allowed[from]+" ", " "+string(to)+" ")
			if got := canMove(from, to); got != want {
				t.Errorf("%s → %s: %v, want %v", from, to, got, want)
			}
		}
	}
}

func TestRenderSanitizes(t *testing.T) {
	st, _ := mustCall(t, Empty(), `{"action":"create","subject":"a\u001b[31mred\nline\u202etxt","activeForm":"x\ty"}`)
	st, _ = mustCall(t, st, `{"action":"update","id":1,"status":"in_progress"}`)
	_, res := mustCall(t, st, `{"action":"list"}`)
	if res.Envelope.Text() != "[in_progress] #1 a [31mred line txt (x y)" {
		t.Fatalf("%q", res.Envelope.Text())
	}
	if st.Tasks[0].Subject != "a\u001b[31mred\nline\u202etxt" {
		t.Fatal("stored text changed")
	}
}

func TestGetRendering(t *testing.T) {
	st := ruleState(t)
	st, _ = mustCall(t, st, `{"action":"update","id":4,"description":"d","activeForm":"af","owner":"o","addBlockedBy":[1,2],"priority":"high","due_at":"2026-08-25T09:00:00+02:00","note":"n"}`)
	st, _ = mustCall(t, st, `{"action":"update","id":1,"status":"completed","evidence":"ev"}`)
	_, res := mustCall(t, st, `{"action":"get","id":4}`)
	want := lines("#4 [pending] four", "  description: d", "  activeForm: af", "  blockedBy: #1, #2", "  blocks: #8",
		"  owner: o", "  priority: high", "  due: 2026-08-25T07:00:00Z", "  note: n")
	if res.Envelope.Text() != want {
		t.Fatalf("%q", res.Envelope.Text())
	}
	_, res = mustCall(t, st, `{"action":"get","id":1}`)
	if res.Envelope.Text() != lines("#1 [completed] Add the Widget", "  blocks: #4", "  plan item: Work", "  evidence: ev") {
		t.Fatalf("%q", res.Envelope.Text())
	}
	_, res = mustCall(t, st, `{"action":"get","id":6}`)
	if res.Envelope.Text() != lines("#6 [deferred] six", "  deferred: later") {
		t.Fatalf("%q", res.Envelope.Text())
	}
	_, res = mustCall(t, st, `{"action":"list","item_status":"pending"}`)
	// #1 is completed: only the open #2 still holds #4.
	if !strings.Contains(res.Envelope.Text(), "[pending] #4 four ⛓ #2 [priority: high] [due: 2026-08-25T07:00:00Z]") {
		t.Fatalf("%q", res.Envelope.Text())
	}
}

// clear keeps plan items but drops their edges to the todos it removes, so
// no blockedBy dangles afterwards.
func TestClearDropsEdgesToClearedTodos(t *testing.T) {
	st := planAState(t)
	st, _ = mustCall(t, st, `{"action":"create","subject":"helper"}`)
	st, _ = mustCall(t, st, `{"action":"update","id":1,"addBlockedBy":[4,2]}`)
	st, _ = mustCall(t, st, `{"action":"clear"}`)
	if got := st.task(1); !slices.Equal(got.BlockedBy, []int{2}) || got.Version != 3 {
		t.Fatalf("%+v", got)
	}
	if errs, warnings := Validate(st); errs != nil || warnings != nil {
		t.Fatalf("%v %v", errs, warnings)
	}
}

// update to deleted drops the reason, so restoring a deferred task
// deleted that way brings it back pending; delete keeps it, so it comes back deferred.
func TestRestoreDeferred(t *testing.T) {
	st, _ := mustCall(t, Empty(), `{"ops":[{"action":"create","subject":"a"},{"action":"create","subject":"b"},{"action":"update","id":1,"status":"deferred","reason":"r"},{"action":"update","id":2,"status":"deferred","reason":"r"},{"action":"update","id":1,"status":"deleted"},{"action":"delete","id":2}]}`)
	if st.task(1).Reason != "" || st.task(2).Reason != "r" {
		t.Fatalf("%+v", st.Tasks)
	}
	_, res := mustCall(t, st, `{"action":"restore","ids":[1,2]}`)
	if res.Envelope.Text() != "Restored 2 tasks: #1 (pending), #2 (deferred)" {
		t.Fatalf("%q", res.Envelope.Text())
	}
}

func TestApproveReadOnly(t *testing.T) {
	st := Empty()
	opts := testOpts()
	opts.ReadOnly = true
	res := Approve(st, planA(), []byte(planAMarkdown), "PLAN.md", opts)
	if res.Envelope.Text() != "Error: read-only: this server only reads (planls mcp --read-only): list and get work, approve does not; ask the user to make the change, or to serve planls without --read-only" || res.Changed || res.State != st {
		t.Fatalf("%q", res.Envelope.Text())
	}
}

// The plan header shows even when the filter leaves no row (§6 "list").
func TestListHeaderWithNoRows(t *testing.T) {
	_, res := mustCall(t, planAState(t), `{"action":"list","status":"completed"}`)
	if res.Envelope.Text() != "Plan: Add widgets -- 3/3 plan items open\nNo tasks" {
		t.Fatalf("%q", res.Envelope.Text())
	}
	// A plan whose items were all removed shows no header.
	st := Approve(planAState(t), handPlan("Empty"), []byte("empty"), "PLAN.md", testOpts()).State
	_, res = mustCall(t, st, `{"action":"list"}`)
	if res.Envelope.Text() != "No tasks" {
		t.Fatalf("%q", res.Envelope.Text())
	}
}
