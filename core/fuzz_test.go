package core

import (
	"encoding/json"
	"testing"
)

// FuzzCall: arbitrary bytes as params never panic, never mutate the input,
// and always give a well-formed envelope; an accepted change leaves a valid
// state.
func FuzzCall(f *testing.F) {
	for _, s := range []string{
		`{}`, `[]`, `null`, `"x"`, `{"action":"list"}`, `{"ops":[]}`, `{"ops":[{"ops":[]}]}`,
		`{"action":"create","subject":"x","blockedBy":[1,2,1e308]}`,
		`{"action":"update","id":1,"status":"completed","evidence":"e","metadata":{"a":{"b":[1,null]}}}`,
		`{"action":"update","id":2,"addBlockedBy":[1,3],"removeBlockedBy":[-1]}`,
		`{"action":"list","item_status":"open","limit":1,"cursor":"MTox"}`,
		`{"action":"create","content":"x","due_at":"2026-02-30","owner_timezone":"Europe/Berlin"}`,
		`{"action":"restore","ids":[1,1,1]}`, `{"action":"delete_all","confirm_delete_all":true}`,
		`{"ops":[{"action":"update","id":2,"status":"deferred","reason":"r"},{"action":"get","id":2}]}`,
		`{"action":"update","id":9007199254740993}`, `{"action":"get","todo_id":"#-1"}`,
	} {
		f.Add([]byte(s))
	}
	base := planAState(f)
	base, _ = mustCall(f, base, `{"action":"create","subject":"agent","blockedBy":[1]}`)
	baseJSON := snapshot(f, base)
	f.Fuzz(func(t *testing.T, params []byte) {
		res := call(base, json.RawMessage(params), testOpts())
		if snapshot(t, base) != baseJSON {
			t.Fatal("input state mutated")
		}
		if len(res.Envelope.Content) != 1 || res.State == nil {
			t.Fatal("malformed envelope")
		}
		if _, err := json.Marshal(res.Envelope); err != nil {
			t.Fatalf("envelope does not marshal: %v", err)
		}
		if res.Envelope.IsError() && (res.Changed || res.State != base) {
			t.Fatal("rejected call changed the state")
		}
		if res.Changed {
			if errs, warnings := Validate(res.State); errs != nil || warnings != nil {
				t.Fatalf("invalid state after %s: %v %v", params, errs, warnings)
			}
		}
	})
}
