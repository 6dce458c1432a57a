package core

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestListShape covers list's row fields and plan-group filter: the seed's rows by default, one-line rows under CompactRows,
// named fields either way, each cut at FieldBytes, and group by heading.
func TestListShape(t *testing.T) {
	st := planAState(t) // Work: #1 Add the Widget, #2 Wire beta (plan text); Verification: #3
	st, _ = mustCall(t, st, `{"action":"update","id":1,"status":"completed","evidence":"`+strings.Repeat("e", 50)+`"}`)
	st, _ = mustCall(t, st, `{"action":"create","subject":"todo","note":"handoff"}`)
	compact := Options{Now: testNow, CompactRows: true, FieldBytes: 10}
	header := "Plan: Add widgets -- 2/3 plan items open\n"
	for _, c := range []struct {
		params string
		opts   Options
		want   string
	}{
		{`{"action":"list","item_status":"all"}`, testOpts(),
			header + "[completed] #1 Add the Widget [plan: Work]\n    evidence: " + strings.Repeat("e", 50) + "\n[pending] #2 Wire beta [plan: Work]\n    - flag --beta\n[pending] #3 make test passes [plan: Verification]\n[pending] #4 todo"},
		{`{"action":"list","item_status":"all"}`, compact,
			header + "[completed] #1 Add the Widget [plan: Work]\n[pending] #2 Wire beta [plan: Work]\n[pending] #3 make test passes [plan: Verification]\n[pending] #4 todo"},
		{`{"action":"list","item_status":"all","fields":"evidence, note"}`, compact,
			header + "[completed] #1 Add the Widget [plan: Work]\n    evidence: eeeeeee…\n[pending] #2 Wire beta [plan: Work]\n[pending] #3 make test passes [plan: Verification]\n[pending] #4 todo\n    note: handoff"},
		{`{"action":"list","fields":["all"],"group":" WORK "}`, testOpts(),
			header + "[completed] #1 Add the Widget [plan: Work]\n    evidence: " + strings.Repeat("e", 50) + "\n[pending] #2 Wire beta [plan: Work]\n    - flag --beta"},
		{`{"action":"list","fields":[],"group":"verification"}`, testOpts(),
			header + "[pending] #3 make test passes [plan: Verification]"},
		{`{"action":"list","group":"Nowhere"}`, testOpts(), header + "No tasks"},
	} {
		res := call(st, json.RawMessage(c.params), c.opts)
		if got := res.Envelope.Text(); got != c.want {
			t.Errorf("%s:\n got  %q\n want %q", c.params, got, c.want)
		}
	}
	mustFail(t, st, `{"action":"list","fields":["evidense"]}`, `fields: "evidense" is not a row field; use planText, description, note, evidence, reason, or "all"`)
	mustFail(t, st, `{"action":"list","fields":7}`, `fields must be an array of field names (planText, description, note, evidence, reason, or "all")`)
	mustFail(t, st, `{"action":"list","group":"  "}`, "group must name a plan group (a heading of the plan)")
	mustFail(t, st, `{"action":"get","id":1,"fields":["evidence"]}`, "fields only applies to list")
	if got := Clip("héllo wörld", 6); got != "h…" && got != "hé…" {
		t.Errorf("Clip cut inside a rune: %q", got)
	}
}
