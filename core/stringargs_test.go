package core

import (
	"encoding/json"
	"testing"
)

// TestStringArguments covers string arguments: some agent clients send every
// argument as a string. A string is read as the value it unambiguously
// spells (a decimal integer, true/false, a JSON array or object), with the
// same result as the typed call; anything else keeps its type error.
func TestStringArguments(t *testing.T) {
	base := planAState(t) // plan items #1..#3
	base, _ = mustCall(t, base, `{"action":"create","subject":"todo"}`)
	base, _ = mustCall(t, base, `{"action":"update","id":4,"status":"deleted"}`)
	for _, c := range []struct{ asStrings, typed string }{
		{`{"action":"complete","id":"2","evidence":"go test ok"}`, `{"action":"complete","id":2,"evidence":"go test ok"}`},
		{`{"action":"update","id":" 2 ","status":"in_progress"}`, `{"action":"update","id":2,"status":"in_progress"}`},
		{`{"action":"list","limit":"2"}`, `{"action":"list","limit":2}`},
		{`{"action":"list","includeDeleted":"true"}`, `{"action":"list","includeDeleted":true}`},
		{`{"action":"list","includeDeleted":"false"}`, `{"action":"list","includeDeleted":false}`},
		{`{"action":"create","subject":"x","blockedBy":["2"]}`, `{"action":"create","subject":"x","blockedBy":[2]}`},
		{`{"action":"create","subject":"x","blockedBy":"[2, \"3\"]"}`, `{"action":"create","subject":"x","blockedBy":[2,3]}`},
		{`{"action":"update","id":"1","addBlockedBy":["2"],"expected_version":"1"}`, `{"action":"update","id":1,"addBlockedBy":[2],"expected_version":1}`},
		{`{"action":"create","subject":"x","metadata":"{\"k\":1}"}`, `{"action":"create","subject":"x","metadata":{"k":1}}`},
		{`{"action":"restore","ids":"[4]"}`, `{"action":"restore","ids":[4]}`},
		{`{"ops":"[{\"action\":\"get\",\"id\":\"1\"},{\"action\":\"list\",\"limit\":\"1\"}]"}`, `{"ops":[{"action":"get","id":1},{"action":"list","limit":1}]}`},
		{`{"ops":["{\"action\":\"get\",\"id\":1}"]}`, `{"ops":[{"action":"get","id":1}]}`},
		{`{"action":"delete_all","confirm_delete_all":"true"}`, `{"action":"delete_all","confirm_delete_all":true}`},
	} {
		got := call(base, json.RawMessage(c.asStrings), testOpts())
		want := call(base, json.RawMessage(c.typed), testOpts())
		if got.Envelope.IsError() || got.Envelope.Text() != want.Envelope.Text() || !jsonEqual(t, got.State, want.State) {
			t.Errorf("%s:\n got  %q\n want %q", c.asStrings, got.Envelope.Text(), want.Envelope.Text())
		}
	}
	for _, c := range []struct{ params, msg string }{
		{`{"action":"get","id":"two"}`, "id must be an integer"},
		{`{"action":"get","id":"2.5"}`, "id must be an integer"},
		{`{"action":"get","id":""}`, "id must be an integer"},
		{`{"action":"get","id":"1e3"}`, "id must be an integer"},
		{`{"action":"get","id":"[2]"}`, "id must be an integer"},
		{`{"action":"list","limit":"five"}`, "limit must be an integer"},
		{`{"action":"list","includeDeleted":"yes"}`, "includeDeleted must be true or false"},
		{`{"action":"list","includeDeleted":"True"}`, "includeDeleted must be true or false"},
		{`{"action":"create","subject":"x","blockedBy":"2"}`, "blockedBy must be an array of task ids"},
		{`{"action":"create","subject":"x","blockedBy":"[2"}`, "blockedBy must be an array of task ids"},
		{`{"action":"create","subject":"x","blockedBy":["#2"]}`, "blockedBy must be an array of task ids"},
		{`{"action":"create","subject":"x","metadata":"k=1"}`, "metadata must be an object"},
		{`{"ops":"not json"}`, "ops must be an array of op objects"},
		{`{"ops":"{\"action\":\"list\"}"}`, "ops must be an array of op objects"},
		// A string field keeps a string, even one that looks like JSON.
	} {
		mustFail(t, base, c.params, c.msg)
	}
	st, _ := mustCall(t, base, `{"action":"create","subject":"[1,2]"}`)
	if got := st.Tasks[len(st.Tasks)-1].Subject; got != "[1,2]" {
		t.Errorf("a subject that looks like JSON became %q", got)
	}
}
