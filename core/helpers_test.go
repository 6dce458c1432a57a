package core

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/planls/planls/planparse"
)

// testNow is the fixed clock of the tests.
var testNow = time.Date(2026, 11, 30, 5, 0, 0, 0, time.UTC)

func testOpts() Options { return Options{Now: testNow} }

// item is a hand-built plan item: scope is the heading path, group its last.
func item(scope []string, subject, planText string) planparse.Item {
	group := ""
	if len(scope) > 0 {
		group = scope[len(scope)-1]
	}
	return planparse.Item{Subject: subject, PlanText: planText, Group: group, Scope: scope}
}

func handPlan(title string, items ...planparse.Item) *planparse.Plan {
	return &planparse.Plan{Title: title, Items: items}
}

func scope(s ...string) []string { return s }

// planAMarkdown and planA are the PLAN_A fixture of testdata/core/vectors.json.
const planAMarkdown = "# Add widgets\n\n## Work\n- Add the Widget\n- Wire beta\n  - flag --beta\n\n## Verification\n- make test passes\n"

func planA() *planparse.Plan {
	return handPlan("Add widgets",
		item(scope("Work"), "Add the Widget", ""),
		item(scope("Work"), "Wire beta", "- flag --beta"),
		item(scope("Verification"), "make test passes", ""),
	)
}

func planAState(t testing.TB) *State {
	t.Helper()
	res := Approve(Empty(), planA(), []byte(planAMarkdown), "PLAN.md", testOpts())
	if !res.Changed {
		t.Fatalf("approving PLAN_A changed nothing: %s", res.Envelope.Text())
	}
	return res.State
}

// call runs one `todo` tool call's JSON as every caller does: decoded
// once, then run.
func call(in *State, raw json.RawMessage, opts Options) Result {
	return Run(in, Decode(raw), opts)
}

// mustCall runs a call that must succeed and returns the new state.
func mustCall(t testing.TB, st *State, params string) (*State, Result) {
	t.Helper()
	res := call(st, json.RawMessage(params), testOpts())
	if res.Envelope.IsError() {
		t.Fatalf("%s: unexpected error %q", params, res.Envelope.Text())
	}
	return res.State, res
}

// mustFail runs a call that must be rejected with exactly msg and change nothing.
func mustFail(t testing.TB, st *State, params, msg string) {
	t.Helper()
	before := snapshot(t, st)
	res := call(st, json.RawMessage(params), testOpts())
	if got := res.Envelope.Text(); got != "Error: "+msg {
		t.Fatalf("%s:\n got  %q\n want %q", params, got, "Error: "+msg)
	}
	if res.Envelope.Details.Error != msg {
		t.Fatalf("%s: details.error %q, want %q", params, res.Envelope.Details.Error, msg)
	}
	if res.Changed || res.State != st {
		t.Fatalf("%s: a rejected call changed the state", params)
	}
	if d := res.Envelope.Details; st != nil && (!jsonEqual(t, d.Tasks, st.Tasks) || d.NextID != st.NextID) {
		t.Fatalf("%s: details of a rejected call is not the unchanged state", params)
	}
	if d := res.Envelope.Details; json.Valid([]byte(params)) && string(d.Params) != params {
		t.Fatalf("%s: details.params %s", params, d.Params)
	}
	if after := snapshot(t, st); after != before {
		t.Fatalf("%s: a rejected call mutated its input", params)
	}
}

// snapshot is st as JSON, to detect any mutation of an input.
func snapshot(t testing.TB, st *State) string {
	t.Helper()
	b, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// vectorFields are the task fields rpiv has; planls's own additions
// (version, timestamps, planScope, planOrder, deletedFrom, ...) are left out
// when comparing with testdata/core/vectors.json.
var vectorFields = []string{"id", "subject", "status", "description", "activeForm", "owner", "blockedBy",
	"metadata", "source", "planGroup", "planText", "evidence", "reason"}

// rpivView renders tasks as testdata/core/vectors.json writes them.
func rpivView(t testing.TB, tasks []Task) []map[string]any {
	t.Helper()
	out := make([]map[string]any, 0, len(tasks))
	for _, task := range tasks {
		b, err := json.Marshal(task)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		keep := map[string]any{}
		for _, f := range vectorFields {
			if v, ok := m[f]; ok {
				keep[f] = v
			}
		}
		out = append(out, keep)
	}
	return out
}

func jsonEqual(t testing.TB, got, want any) bool {
	t.Helper()
	norm := func(v any) any {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var x any
		if err := json.Unmarshal(b, &x); err != nil {
			t.Fatal(err)
		}
		return x
	}
	return reflect.DeepEqual(norm(got), norm(want))
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// stateFromVector loads a testdata/core/vectors.json state. Plan items get PlanScope [planGroup]:
// planls keys items by full scope, which for these one-level plans is the group.
func stateFromVector(t testing.TB, raw json.RawMessage) *State {
	t.Helper()
	var v struct {
		Tasks  []Task   `json:"tasks"`
		NextID int      `json:"nextId"`
		Plan   *PlanRef `json:"plan"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	st := &State{Version: SchemaVersion, NextID: v.NextID, Tasks: v.Tasks, Plan: v.Plan}
	for i := range st.Tasks {
		task := &st.Tasks[i]
		task.Version = 1
		if task.Source == "plan" && task.PlanGroup != "" {
			task.PlanScope = []string{task.PlanGroup}
		}
	}
	return st
}

func lines(s ...string) string { return strings.Join(s, "\n") }

// MatchPlan is matchLive over the live plan items of in: the matching
// Analyze does, for the tests and benchmarks that match without analysing.
func MatchPlan(in *State, plan *planparse.Plan) (matches []ItemMatch, missing []int) {
	return matchLive(liveKeysOf(in), plan)
}
