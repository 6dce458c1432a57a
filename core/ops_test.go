package core

import (
	"encoding/json"
	"slices"
	"testing"
)

// TestTypedOps runs each typed operation next to the same call as JSON: the
// texts, errors and states must be identical, and Affected/Shown name the
// tasks the call changed and rendered.
func TestTypedOps(t *testing.T) {
	str := func(s string) *string { return &s }
	st := planAState(t) // plan items #1..#3; todos #4, #5
	st, _ = mustCall(t, st, `{"action":"create","subject":"todo a"}`)
	st, _ = mustCall(t, st, `{"action":"create","subject":"todo b"}`)
	open, done, deferred := InProgress, Completed, Deferred
	cases := []struct {
		name     string
		typed    func(*State) Result
		json     string
		affected []int
		shown    []int
	}{
		{"create", func(s *State) Result { return Do(s, CreateOp{Subject: "new", BlockedBy: []int{4}}, testOpts()) },
			`{"action":"create","subject":"new","blockedBy":[4]}`, []int{6}, nil},
		{"create without subject", func(s *State) Result { return Do(s, CreateOp{}, testOpts()) },
			`{"action":"create","subject":""}`, nil, nil},
		{"complete", func(s *State) Result {
			return Do(s, UpdateOp{ID: 2, Status: &done, Evidence: str("go test ok")}, testOpts())
		},
			`{"action":"update","id":2,"status":"completed","evidence":"go test ok"}`, []int{2}, nil},
		{"complete without evidence", func(s *State) Result { return Do(s, UpdateOp{ID: 2, Status: &done, Evidence: str(" ")}, testOpts()) },
			`{"action":"update","id":2,"status":"completed","evidence":" "}`, nil, []int{2}},
		{"defer plan item", func(s *State) Result {
			return Do(s, UpdateOp{ID: 3, Status: &deferred, Reason: str("out of scope")}, testOpts())
		},
			`{"action":"update","id":3,"status":"deferred","reason":"out of scope"}`, []int{3}, nil},
		{"start", func(s *State) Result { return Do(s, UpdateOp{ID: 1, Status: &open}, testOpts()) },
			`{"action":"update","id":1,"status":"in_progress"}`, []int{1}, nil},
		{"update no change", func(s *State) Result { return Do(s, UpdateOp{ID: 4, Subject: str("todo a")}, testOpts()) },
			`{"action":"update","id":4,"subject":"todo a"}`, nil, []int{4}},
		{"update unknown", func(s *State) Result { return Do(s, UpdateOp{ID: 99, Status: &open}, testOpts()) },
			`{"action":"update","id":99,"status":"in_progress"}`, nil, []int{99}},
		{"delete", func(s *State) Result { return Do(s, DeleteOp{ID: 5}, testOpts()) },
			`{"action":"delete","id":5}`, []int{5}, nil},
		{"delete plan item", func(s *State) Result { return Do(s, DeleteOp{ID: 1}, testOpts()) },
			`{"action":"delete","id":1}`, nil, []int{1}},
		{"get", func(s *State) Result { return Do(s, GetOp{ID: 4}, testOpts()) }, `{"action":"get","id":4}`, nil, []int{4}},
		{"list", func(s *State) Result { return Do(s, ListOp{Limit: ptr(2)}, testOpts()) },
			`{"action":"list","limit":2}`, nil, []int{1, 2}},
		{"clear", func(s *State) Result { return Do(s, ClearOp{}, testOpts()) }, `{"action":"clear"}`, []int{4, 5}, nil},
		{"delete_all", func(s *State) Result { return Do(s, DeleteAllOp{}, testOpts()) },
			`{"action":"delete_all","confirm_delete_all":true}`, []int{4, 5}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := snapshot(t, st)
			got := c.typed(st)
			want := call(st, json.RawMessage(c.json), testOpts())
			if got.Envelope.Text() != want.Envelope.Text() || got.Envelope.Details.Error != want.Envelope.Details.Error {
				t.Fatalf("typed %q, JSON %q", got.Envelope.Text(), want.Envelope.Text())
			}
			if got.Changed != want.Changed || !jsonEqual(t, got.State, want.State) {
				t.Fatalf("typed and JSON states differ")
			}
			if !slices.Equal(got.Affected, c.affected) || !slices.Equal(want.Affected, c.affected) {
				t.Errorf("Affected typed %v, JSON %v, want %v", got.Affected, want.Affected, c.affected)
			}
			if !slices.Equal(got.Shown, c.shown) || !slices.Equal(want.Shown, c.shown) {
				t.Errorf("Shown typed %v, JSON %v, want %v", got.Shown, want.Shown, c.shown)
			}
			if snapshot(t, st) != before {
				t.Fatal("a typed op mutated its input")
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }
