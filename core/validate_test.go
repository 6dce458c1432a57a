package core

import (
	"encoding/json"
	"testing"
)

func TestValidate(t *testing.T) {
	tests := []struct {
		name     string
		state    string
		errs     []string
		warnings []string
	}{
		{"empty", `{"version":1,"nextId":1,"tasks":[]}`, nil, nil},
		{"good", `{"version":1,"nextId":4,"tasks":[{"id":1,"subject":"a","status":"pending"},{"id":3,"subject":"b","status":"deleted","blockedBy":[1]}]}`, nil, nil},
		{"duplicate id", `{"version":1,"nextId":3,"tasks":[{"id":2,"subject":"a","status":"pending"},{"id":2,"subject":"b","status":"pending"}]}`,
			[]string{`duplicate task id #2: tasks[0] "a" and tasks[1] "b"; to keep both, set the "id" of tasks[1] to 3 and "nextId" to at least 4`}, nil},
		{"duplicate ids twice", `{"version":1,"nextId":9,"tasks":[{"id":2,"subject":"a","status":"pending"},{"id":5,"subject":"c","status":"pending"},{"id":2,"subject":"b","status":"pending"},{"id":5,"subject":"d","status":"pending"}]}`,
			[]string{
				`duplicate task id #2: tasks[0] "a" and tasks[2] "b"; to keep both, set the "id" of tasks[2] to 9 and "nextId" to at least 10`,
				`duplicate task id #5: tasks[1] "c" and tasks[3] "d"; to keep both, set the "id" of tasks[3] to 10 and "nextId" to at least 11`,
			}, nil},
		{"unknown status", `{"version":1,"nextId":2,"tasks":[{"id":1,"subject":"a","status":"done"}]}`,
			[]string{`#1: unknown status "done"`}, nil},
		{"id below 1", `{"version":1,"nextId":2,"tasks":[{"id":0,"subject":"a","status":"pending"},{"id":1,"subject":"b","status":"pending"}]}`,
			[]string{"task id 0 is below 1"}, nil},
		{"nextId not above", `{"version":1,"nextId":5,"tasks":[{"id":5,"subject":"a","status":"pending"}]}`,
			[]string{"nextId 5 is not above every task id (highest is #5)"}, nil},
		{"nextId zero", `{"version":1,"nextId":0,"tasks":[]}`,
			[]string{"nextId 0 is not above every task id (highest is #0)"}, nil},
		{"plan item without subject", `{"version":1,"nextId":2,"tasks":[{"id":1,"subject":"  ","status":"pending","source":"plan"}]}`,
			[]string{"#1: plan item without a subject"}, nil},
		{"newer schema", `{"version":2,"nextId":1,"tasks":[]}`,
			[]string{"state version 2 is newer than this planls understands (1)"}, nil},
		// Dangling edges and cycles are warnings that name the path.
		{"dangling", `{"version":1,"nextId":2,"tasks":[{"id":1,"subject":"a","status":"pending","blockedBy":[5]}]}`,
			nil, []string{"#1: blockedBy #5 not found"}},
		{"cycle", `{"version":1,"nextId":5,"tasks":[{"id":2,"subject":"b","status":"pending","blockedBy":[3]},{"id":3,"subject":"c","status":"pending","blockedBy":[2]},{"id":4,"subject":"d","status":"pending","blockedBy":[4]}]}`,
			nil, []string{"cycle: #2 → #3 → #2", "cycle: #4 → #4"}},
		{"unsorted ids still checked", `{"version":1,"nextId":9,"tasks":[{"id":8,"subject":"b","status":"pending","blockedBy":[1]},{"id":1,"subject":"c","status":"pending","blockedBy":[8]}]}`,
			nil, []string{"cycle: #1 → #8 → #1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var st State
			if err := json.Unmarshal([]byte(tt.state), &st); err != nil {
				t.Fatal(err)
			}
			before := snapshot(t, &st)
			errs, warnings := Validate(&st)
			if !jsonEqual(t, errs, tt.errs) || !jsonEqual(t, warnings, tt.warnings) {
				t.Fatalf("errs %q warnings %q, want %q %q", errs, warnings, tt.errs, tt.warnings)
			}
			if snapshot(t, &st) != before {
				t.Fatal("Validate changed the state")
			}
		})
	}
	if errs, _ := Validate(nil); len(errs) != 1 {
		t.Fatal("nil state must be an error")
	}
}

// A hand-edited state whose nextId fell behind, or whose tasks are out of
// order, still never gets duplicate ids from a call.
func TestCallOnDamagedState(t *testing.T) {
	st := &State{Version: 1, NextID: 1, Tasks: []Task{{ID: 3, Subject: "c", Status: Pending}, {ID: 1, Subject: "a", Status: Pending}}}
	before := snapshot(t, st)
	res := call(st, json.RawMessage(`{"action":"create","subject":"x"}`), testOpts())
	if res.Envelope.Text() != "Created #4: x (pending)" || res.State.NextID != 5 {
		t.Fatalf("%q", res.Envelope.Text())
	}
	if errs, _ := Validate(res.State); errs != nil {
		t.Fatalf("%v", errs)
	}
	if snapshot(t, st) != before {
		t.Fatal("input mutated")
	}
	// Reads on it answer in id order and leave the input alone.
	res = call(st, json.RawMessage(`{"action":"list"}`), testOpts())
	if res.Envelope.Text() != "[pending] #1 a\n[pending] #3 c" || res.State != st {
		t.Fatalf("%q", res.Envelope.Text())
	}
	if res := call(nil, json.RawMessage(`{"action":"list"}`), testOpts()); res.Envelope.Text() != "No tasks" {
		t.Fatalf("%q", res.Envelope.Text())
	}
}

func TestReminder(t *testing.T) {
	if Reminder(Empty(), nil) != "" || Reminder(nil, nil) != "" {
		t.Fatal("no reminder without a plan")
	}
	st := planAState(t)
	for _, c := range []string{
		`{"action":"update","id":1,"status":"completed","evidence":"e"}`,
		`{"action":"update","id":2,"status":"deferred","reason":"r"}`,
	} {
		st, _ = mustCall(t, st, c)
	}
	want := "Plan check: the approved plan \"Add widgets\" still has 1/3 items open. Do not tell the user the work is done.\nOpen plan items:\n- #3 [Verification] make test passes\nThese already exist as todos: update them by id (complete with evidence, or defer with a reason). Do not create new todos for them.\nKeep working on them now. For any item you can't finish in this run: if it is actually done, complete it with evidence; otherwise set status deferred with a reason. Then tell the user exactly which plan items are still open or deferred, and why.\nDeferred plan items (tell the user):\n- #2 [Work] Wire beta -- r"
	if got := Reminder(st, nil); got != want {
		t.Fatalf("%q", got)
	}
	st, _ = mustCall(t, st, `{"action":"update","id":3,"status":"deferred","reason":"x"}`)
	if Reminder(st, nil) != "" {
		t.Fatal("reminder with every plan item closed")
	}
	// No group: the [group] part is left out.
	st = Approve(Empty(), handPlan("T", item(nil, "loose", "")), []byte("t"), "PLAN.md", testOpts()).State
	if got := Reminder(st, nil); got != "Plan check: the approved plan \"T\" still has 1/1 items open. Do not tell the user the work is done.\nOpen plan items:\n- #1 loose\nThese already exist as todos: update them by id (complete with evidence, or defer with a reason). Do not create new todos for them.\nKeep working on them now. For any item you can't finish in this run: if it is actually done, complete it with evidence; otherwise set status deferred with a reason. Then tell the user exactly which plan items are still open or deferred, and why." {
		t.Fatalf("%q", got)
	}
}
