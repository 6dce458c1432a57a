package core

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// Tests of the public MCP todo tool's additions (docs/DEVELOPING.md).

func manyTasks(t *testing.T, n int) *State {
	t.Helper()
	var ops []string
	for i := 1; i <= n; i++ {
		ops = append(ops, fmt.Sprintf(`{"action":"create","subject":"task %d"}`, i))
	}
	st, _ := mustCall(t, Empty(), `{"ops":[`+strings.Join(ops, ",")+`]}`)
	return st
}

func TestListPaging(t *testing.T) {
	st := manyTasks(t, 45)
	var seen []string
	cursor := ""
	pages := 0
	for {
		params := `{"action":"list"}`
		if cursor != "" {
			params = fmt.Sprintf(`{"action":"list","cursor":%q}`, cursor)
		}
		_, res := mustCall(t, st, params)
		d := res.Envelope.Details
		if d.Total == nil || *d.Total != 45 {
			t.Fatalf("total %v", d.Total)
		}
		rows := strings.Split(res.Envelope.Text(), "\n")
		if d.NextCursor != "" {
			last := rows[len(rows)-1]
			if !strings.Contains(last, fmt.Sprintf("%q", d.NextCursor)) {
				t.Fatalf("no hint on a non-last page: %q", last)
			}
			rows = rows[:len(rows)-1]
		}
		seen = append(seen, rows...)
		pages++
		if d.NextCursor == "" {
			break
		}
		cursor = d.NextCursor
	}
	if pages != 3 || len(seen) != 45 || seen[0] != "[pending] #1 task 1" || seen[44] != "[pending] #45 task 45" {
		t.Fatalf("pages %d rows %d first %q", pages, len(seen), seen[0])
	}
	// limit bounds, and a cursor with other filters.
	_, res := mustCall(t, st, `{"action":"list","limit":200}`)
	if res.Envelope.Details.NextCursor != "" || strings.Count(res.Envelope.Text(), "\n") != 44 {
		t.Fatal("limit 200 should show all 45")
	}
	mustFail(t, st, `{"action":"list","limit":0}`, "limit must be between 1 and 200 (got 0)")
	mustFail(t, st, `{"action":"list","limit":201}`, "limit must be between 1 and 200 (got 201)")
	_, res = mustCall(t, st, `{"action":"list","limit":10}`)
	c := res.Envelope.Details.NextCursor
	mustFail(t, st, fmt.Sprintf(`{"action":"list","cursor":%q,"search":"task 1"}`, c),
		"cursor was made for other filters; list again without cursor, or with the filters of the first page")
	mustFail(t, st, `{"action":"list","cursor":"!!"}`, `cursor "!!" is not a cursor this server made; list again without cursor`)
	// The page size may change between pages.
	_, res = mustCall(t, st, fmt.Sprintf(`{"action":"list","cursor":%q,"limit":5}`, c))
	if !strings.HasPrefix(res.Envelope.Text(), "[pending] #11 task 11\n") {
		t.Fatalf("%q", res.Envelope.Text())
	}
}

func TestListFilters(t *testing.T) {
	st := ruleState(t)
	st, _ = mustCall(t, st, `{"action":"update","id":4,"status":"in_progress","due_at":"2026-01-10","description":"Needle in desc"}`)
	st, _ = mustCall(t, st, `{"action":"update","id":8,"due_at":"2026-03-01T00:00:00Z"}`)
	ids := func(params string) string {
		t.Helper()
		_, res := mustCall(t, st, params)
		var out []string
		for _, line := range strings.Split(res.Envelope.Text(), "\n") {
			if strings.HasPrefix(line, "[") {
				out = append(out, strings.Fields(line)[1])
			}
		}
		return strings.Join(out, " ")
	}
	tests := []struct{ params, want string }{
		{`{"action":"list","item_status":"open"}`, "#1 #2 #3 #4 #8"},
		{`{"action":"list","item_status":"in-progress"}`, "#4"},
		{`{"action":"list","item_status":"all"}`, "#1 #2 #3 #4 #5 #6 #8"},
		{`{"action":"list","item_status":"deleted"}`, "#7"},
		{`{"action":"list","status":"deferred","item_status":"deferred"}`, "#6"},
		{`{"action":"list","due_before":"2026-02-01"}`, "#4"},
		{`{"action":"list","due_before":"2026-03-01T00:00:01Z"}`, "#4 #8"},
		{`{"action":"list","search":"NEEDLE"}`, "#4"},
		{`{"action":"list","query":"flag --BETA"}`, "#2"},
		{`{"action":"list","search":"i","query":"i","item_status":"open"}`, "#1 #2 #4 #8"},
	}
	for _, tt := range tests {
		if got := ids(tt.params); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.params, got, tt.want)
		}
	}
	mustFail(t, st, `{"action":"list","status":"pending","item_status":"open"}`, `status "pending" and item_status "open" disagree: pass one of them`)
	mustFail(t, st, `{"action":"list","item_status":"later"}`, `item_status must be open, all, pending, in_progress, completed, deferred or deleted (got "later")`)
	mustFail(t, st, `{"action":"list","search":"a","query":"b"}`, `search "a" and query "b" disagree: pass one of them`)
	mustFail(t, st, `{"action":"create","subject":"x","search":"a"}`, "search only applies to list")
	mustFail(t, st, `{"action":"list","due_before":"soon"}`, `due_before "soon" is not an RFC 3339 time (2026-08-25T09:00:00Z) or a date (2026-08-25)`)
}

func TestMutationKeyReplay(t *testing.T) {
	create := `{"action":"create","content":"Review the MCP scope matrix","client_mutation_id":"task-review-scope-001","due_at":"2026-08-25T09:00:00Z"}`
	st, first := mustCall(t, Empty(), create)
	if first.Envelope.Text() != "Created #1: Review the MCP scope matrix (pending)" || len(st.Mutations) != 1 {
		t.Fatalf("%q", first.Envelope.Text())
	}
	// The same call again (keys in another order): first text, nothing applied.
	again := call(st, json.RawMessage(`{"due_at":"2026-08-25T09:00:00Z","client_mutation_id":"task-review-scope-001","content":"Review the MCP scope matrix","action":"create"}`), testOpts())
	if again.Changed || again.State != st || again.Envelope.Text() != first.Envelope.Text() || len(again.State.Tasks) != 1 {
		t.Fatalf("replay applied again: %q", again.Envelope.Text())
	}
	mustFail(t, st, `{"action":"create","content":"Other","client_mutation_id":"task-review-scope-001"}`,
		`client_mutation_id "task-review-scope-001" was already used for a different create call; use a new key for a new change`)
	// An update keyed and replayed after the task moved on still answers the first text.
	st, up := mustCall(t, st, `{"action":"update","todo_id":"#1","status":"in_progress","client_mutation_id":"k2","expected_version":1}`)
	st, _ = mustCall(t, st, `{"action":"update","id":1,"status":"pending"}`)
	_, res := mustCall(t, st, `{"action":"update","todo_id":"#1","status":"in_progress","client_mutation_id":"k2","expected_version":1}`)
	if res.Changed || res.Envelope.Text() != up.Envelope.Text() || st.task(1).Status != Pending {
		t.Fatalf("%q", res.Envelope.Text())
	}
	// Keys in a batch are checked against the running state.
	_, res = mustCall(t, st, `{"ops":[{"action":"create","subject":"b","client_mutation_id":"k3"},{"action":"create","subject":"b","client_mutation_id":"k3"}]}`)
	if got := res.Envelope.Text(); got != lines("Applied 2 ops", "[0] Created #2: b (pending)", "[1] Created #2: b (pending)") || len(res.State.Tasks) != 2 {
		t.Fatalf("%q", got)
	}
	// Only the newest MaxMutationKeys keys are kept.
	st = Empty()
	for i := 0; i < MaxMutationKeys+5; i++ {
		st, _ = mustCall(t, st, fmt.Sprintf(`{"action":"create","subject":"s%d","client_mutation_id":"m%d"}`, i, i))
	}
	if len(st.Mutations) != MaxMutationKeys || st.Mutations[0].Key != "m5" {
		t.Fatalf("kept %d keys, oldest %q", len(st.Mutations), st.Mutations[0].Key)
	}
}

func TestExpectedVersion(t *testing.T) {
	st, _ := mustCall(t, Empty(), `{"action":"create","subject":"x"}`)
	st, _ = mustCall(t, st, `{"action":"update","id":1,"owner":"a","expected_version":1}`)
	st, _ = mustCall(t, st, `{"action":"update","id":1,"owner":"b"}`)
	st, _ = mustCall(t, st, `{"action":"update","id":1,"owner":"c"}`)
	mustFail(t, st, `{"action":"update","id":1,"owner":"d","expected_version":3}`, "#1 is at version 4, not 3 (expected_version); re-read it and retry")
	mustFail(t, st, `{"action":"delete","id":1,"expected_version":2}`, "#1 is at version 4, not 2 (expected_version); re-read it and retry")
	mustFail(t, st, `{"action":"update","id":1,"owner":"d","expected_version":0}`, "expected_version must be a positive integer (got 0)")
	// A No change does not raise the version.
	st, _ = mustCall(t, st, `{"action":"update","id":1,"owner":"c","expected_version":4}`)
	if st.task(1).Version != 4 {
		t.Fatalf("version %d", st.task(1).Version)
	}
}

func TestComplete(t *testing.T) {
	st := planAState(t)
	mustFail(t, st, `{"action":"complete","id":1}`, msgNeedEvidence)
	mustFail(t, st, `{"action":"complete"}`, "id required for complete")
	mustFail(t, st, `{"action":"complete","id":1,"status":"deferred","reason":"x"}`, `complete sets status completed; drop status "deferred" or use update`)
	st, res := mustCall(t, st, `{"action":"complete","todo_id":"2","evidence":" go test ok ","note":"done by bot"}`)
	if res.Envelope.Text() != "Updated #2 (pending → completed)" || res.Envelope.Details.Action != "complete" {
		t.Fatalf("%q", res.Envelope.Text())
	}
	if task := st.task(2); task.Evidence != "go test ok" || task.Note != "done by bot" {
		t.Fatalf("%+v", task)
	}
}

func TestAliases(t *testing.T) {
	st := Empty()
	mustFail(t, st, `{"action":"create","content":"a","title":"b"}`, `content "a" and title "b" disagree: pass one of them`)
	mustFail(t, st, `{"action":"create","subject":"a","title":"b"}`, `subject "a" and title "b" disagree: pass one of them`)
	st, _ = mustCall(t, st, `{"action":"create","title":"a","content":"a"}`)
	mustFail(t, st, `{"action":"get","id":1,"todo_id":"2"}`, `id 1 and todo_id "2" disagree: pass one of them`)
	mustFail(t, st, `{"action":"get","todo_id":"x1"}`, `todo_id "x1" is not a task id (use "3" or "#3")`)
	_, res := mustCall(t, st, `{"action":"get","todo_id":"#1","id":1}`)
	if res.Envelope.Text() != "#1 [pending] a" {
		t.Fatalf("%q", res.Envelope.Text())
	}
}

func TestPriorityAndDue(t *testing.T) {
	st := Empty()
	mustFail(t, st, `{"action":"create","subject":"x","priority":"asap"}`, `priority must be one of low, medium, high, urgent (got "asap")`)
	mustFail(t, st, `{"action":"create","subject":"x","due_at":"2026-08-25","owner_timezone":"Mars/Olympus"}`,
		`owner_timezone "Mars/Olympus" is not an IANA time zone name (e.g. "Europe/Berlin")`)
	mustFail(t, st, `{"action":"create","subject":"x","due_at":"25.08.2026"}`,
		`due_at "25.08.2026" is not an RFC 3339 time (2026-08-25T09:00:00Z) or a date (2026-08-25)`)
	tests := []struct {
		params string
		zone   *time.Location
		want   string
	}{
		{`{"action":"create","subject":"x","due_at":"2026-08-25T09:00:00Z"}`, nil, "2026-08-25T09:00:00Z"},
		{`{"action":"create","subject":"x","due_at":"2026-08-25T09:00:00.5-04:00"}`, nil, "2026-08-25T13:00:00.5Z"},
		{`{"action":"create","subject":"x","due_at":"2026-08-25"}`, nil, "2026-08-25T00:00:00Z"},
		{`{"action":"create","subject":"x","due_at":"2026-08-25","owner_timezone":"Asia/Shanghai"}`, nil, "2026-08-24T16:00:00Z"},
		{`{"action":"create","subject":"x","due_at":"2026-01-25"}`, time.FixedZone("X", -5*3600), "2026-01-25T05:00:00Z"},
		{`{"action":"create","subject":"x","due_at":"2026-08-25","owner_timezone":"Europe/Berlin"}`, time.FixedZone("X", -5*3600), "2026-08-24T22:00:00Z"},
	}
	for _, tt := range tests {
		opts := testOpts()
		opts.Zone = tt.zone
		res := call(Empty(), json.RawMessage(tt.params), opts)
		if res.Envelope.IsError() || res.State.Tasks[0].DueAt != tt.want {
			t.Errorf("%s: %q %v", tt.params, res.Envelope.Text(), res.State.Tasks)
		}
	}
	st, _ = mustCall(t, st, `{"action":"create","subject":"x","priority":"urgent","due_at":"2026-08-25"}`)
	st, _ = mustCall(t, st, `{"action":"update","id":1,"due_at":"","priority":"low"}`)
	if task := st.task(1); task.DueAt != "" || task.Priority != "low" {
		t.Fatalf("%+v", task)
	}
	mustFail(t, st, `{"action":"get","id":1,"priority":"low"}`, "priority only applies to create, update and complete")
}

func TestDeleteAllAndRestore(t *testing.T) {
	st := ruleState(t) // #4 pending, #5 completed, #6 deferred, #7 deleted, #8 pending
	mustFail(t, st, `{"action":"delete_all"}`, "delete_all needs confirm_delete_all: true (it soft-deletes every task that is not a plan item; restore brings them back)")
	mustFail(t, st, `{"action":"delete_all","confirm_delete_all":false}`, "delete_all needs confirm_delete_all: true (it soft-deletes every task that is not a plan item; restore brings them back)")
	opts := testOpts()
	opts.NoDeleteAll = true
	if res := call(st, json.RawMessage(`{"action":"delete_all","confirm_delete_all":true}`), opts); res.Envelope.Text() != "Error: delete_all is disabled on this server" {
		t.Fatalf("%q", res.Envelope.Text())
	}
	mustFail(t, st, `{"action":"restore"}`, "ids required for restore (there is no delete_all or clear to undo)")

	del, res := mustCall(t, st, `{"action":"delete_all","confirm_delete_all":true}`)
	if res.Envelope.Text() != `Deleted 4 tasks: #4–#6, #8. Undo with {"action":"restore","ids":[4,5,6,8]}` {
		t.Fatalf("%q", res.Envelope.Text())
	}
	for _, task := range del.Tasks {
		if task.isPlan() == (task.Status == Deleted) {
			t.Fatalf("after delete_all: %+v", task)
		}
	}
	mustFail(t, del, `{"action":"restore","ids":[4,1]}`, "restore: #1 is not deleted")
	mustFail(t, del, `{"action":"restore","ids":[99]}`, "restore: #99 not found")
	mustFail(t, del, `{"action":"restore","ids":[]}`, "ids required for restore")

	back, res := mustCall(t, del, `{"action":"restore","ids":[6,5]}`)
	if res.Envelope.Text() != "Restored 2 tasks: #6 (deferred), #5 (completed)" || back.task(6).Reason != "later" {
		t.Fatalf("%q", res.Envelope.Text())
	}
	// Without ids: the rest of the last delete_all.
	back, res = mustCall(t, back, `{"action":"restore"}`)
	if res.Envelope.Text() != "Restored 2 tasks: #4 (pending), #8 (pending)" {
		t.Fatalf("%q", res.Envelope.Text())
	}
	for i := range back.Tasks {
		b, s := back.Tasks[i], st.Tasks[i]
		if b.Status != s.Status || !slices.Equal(b.BlockedBy, s.BlockedBy) || b.DeletedFrom != s.DeletedFrom {
			t.Fatalf("restore did not undo delete_all: %+v vs %+v", b, s)
		}
	}
	// #7 was deleted by delete (not delete_all): restore by id brings it back.
	back, res = mustCall(t, back, `{"action":"restore","ids":[7]}`)
	if res.Envelope.Text() != "Restored 1 task: #7 (pending)" {
		t.Fatalf("%q", res.Envelope.Text())
	}
	mustFail(t, back, `{"action":"delete_all","confirm_delete_all":true,"ids":[1]}`, "ids only applies to restore")
}

func TestReadOnly(t *testing.T) {
	st := ruleState(t)
	opts := testOpts()
	opts.ReadOnly = true
	for _, a := range []string{"create", "update", "complete", "delete", "clear", "delete_all", "restore"} {
		res := call(st, json.RawMessage(fmt.Sprintf(`{"action":%q,"id":4,"subject":"x"}`, a)), opts)
		want := fmt.Sprintf("Error: read-only: this server only reads (planls mcp --read-only): list and get work, %s does not; ask the user to make the change, or to serve planls without --read-only", a)
		if res.Envelope.Text() != want || res.Changed || res.State != st {
			t.Errorf("%s: %q", a, res.Envelope.Text())
		}
	}
	res := call(st, json.RawMessage(`{"ops":[{"action":"list"},{"action":"update","id":4,"owner":"x"}]}`), opts)
	if res.Envelope.Text() != "Error: ops[1]: read-only: this server only reads (planls mcp --read-only): list and get work, update does not; ask the user to make the change, or to serve planls without --read-only" {
		t.Fatalf("%q", res.Envelope.Text())
	}
	for _, p := range []string{`{"action":"list"}`, `{"action":"get","id":4}`, `{"ops":[{"action":"list"}]}`} {
		if res := call(st, json.RawMessage(p), opts); res.Envelope.IsError() {
			t.Errorf("%s: %q", p, res.Envelope.Text())
		}
	}
}

func TestProjectID(t *testing.T) {
	st := Empty()
	opts := testOpts()
	opts.ProjectID = "proj-1"
	if res := call(st, json.RawMessage(`{"action":"list","project_id":"proj-2"}`), opts); res.Envelope.Text() != `Error: project_id "proj-2" is not this project ("proj-1")` {
		t.Fatalf("%q", res.Envelope.Text())
	}
	if res := call(st, json.RawMessage(`{"action":"create","subject":"x","project_id":"proj-1"}`), opts); res.Envelope.IsError() || !res.Changed {
		t.Fatalf("%q", res.Envelope.Text())
	}
	mustFail(t, st, `{"action":"list","project_id":"proj-1"}`, `project_id "proj-1" is not this project: this server has no project id, leave project_id out`)
}

func TestUnknownAndMistypedFields(t *testing.T) {
	st := Empty()
	tests := []struct{ params, msg string }{
		{`{"action":"create","subject":"x","subjcet":"y"}`, `unknown field "subjcet": see the todo tool's parameters`},
		{`{"action":"create","subject":5}`, "subject must be a string"},
		{`{"action":"list","includeDeleted":"yes"}`, "includeDeleted must be true or false"},
		{`{"action":"update","id":1.5}`, "id must be an integer"},
		{`{"action":"create","subject":"x","blockedBy":["one"]}`, "blockedBy must be an array of task ids"},
		{`{"action":"create","subject":"x","metadata":[1]}`, "metadata must be an object"},
		{`{"action":7}`, "action must be a string"},
		{`{"action":"frobnicate"}`, `unknown action "frobnicate": use create, update, complete, list, get, delete, clear, delete_all, restore`},
		{`{"action":"defer","id":5,"reason":"later"}`, `unknown action "defer": defer with {"action":"update","id":5,"status":"deferred","reason":"..."}`},
		{`{"action":"defer"}`, `unknown action "defer": defer with {"action":"update","id":N,"status":"deferred","reason":"..."}`},
		{`[1,2]`, "params must be a JSON object"},
		{`{"action":"update","id":1,"confirm_delete_all":true}`, "confirm_delete_all only applies to delete_all"},
		{`{"action":"list","expected_version":2}`, "expected_version only applies to update, complete and delete"},
		{`{"action":"get","id":1,"client_mutation_id":"k"}`, "client_mutation_id only applies to create, update and complete"},
		{`{"action":"update","ids":[1]}`, "ids only applies to restore"},
	}
	for _, tt := range tests {
		mustFail(t, st, tt.params, tt.msg)
	}
	// null is an absent field; 1.0 is the integer 1.
	st, _ = mustCall(t, st, `{"action":"create","subject":"x","description":null}`)
	_, res := mustCall(t, st, `{"action":"get","id":1.0}`)
	if res.Envelope.Text() != "#1 [pending] x" {
		t.Fatalf("%q", res.Envelope.Text())
	}
}

// Params sent as a JSON string holding the object (as some agent clients
// send a tool's arguments) are that object, details.params included; a
// string holding anything else is still not an object.
func TestParamsInString(t *testing.T) {
	st, res := mustCall(t, Empty(), ` "{\"action\":\"create\",\"subject\":\"x\"}"`)
	if res.Envelope.Text() != "Created #1: x (pending)" || string(res.Envelope.Details.Params) != `{"action":"create","subject":"x"}` {
		t.Fatalf("text %q, params %s", res.Envelope.Text(), res.Envelope.Details.Params)
	}
	mustFail(t, st, `"[1]"`, "params must be a JSON object")
}

// Rejection is the engine's own rejection envelope, over no tasks when
// there is no state.
func TestRejection(t *testing.T) {
	res := Rejection(nil, "approve", json.RawMessage(`{"path":"x"}`), "nope")
	d := res.Envelope.Details
	if res.Envelope.Text() != "Error: nope" || d.Error != "nope" || d.Action != "approve" || string(d.Params) != `{"path":"x"}` || d.Tasks == nil || res.Changed {
		t.Fatalf("%+v", res)
	}
}
