package core_test

import (
	"encoding/json"
	"testing"

	"github.com/planls/planls/core"
)

func TestRequestAction(t *testing.T) {
	for args, want := range map[string]string{
		`{"action":"list"}`:           "list",
		`{"ops":[{"action":"list"}]}`: "batch",
		`{}`:                          "batch",
		`not json`:                    "batch",
	} {
		if got := core.Decode(json.RawMessage(args)).Action(); got != want {
			t.Errorf("Action(%s) = %q, want %q", args, got, want)
		}
	}
}

func TestRequestReadsOnly(t *testing.T) {
	for args, want := range map[string]bool{
		`{"action":"list"}`:                                      true,
		`{"action":"get","id":1}`:                                true,
		`{"ops":[{"action":"list"},{"action":"get","id":2}]}`:    true,
		`{"action":"create","subject":"x"}`:                      false,
		`{"ops":[{"action":"list"},{"action":"delete","id":2}]}`: false,
		`{"action":"list","ops":[{"action":"list"}]}`:            false,
		`{"ops":[]}`:  false,
		`{"ops":[1]}`: false,
		`{"action":"delete_all","confirm_delete_all":true}`: false,
		`{}`: false,
		`[`:  false,
	} {
		if got := core.Decode(json.RawMessage(args)).ReadsOnly(); got != want {
			t.Errorf("ReadsOnly(%s) = %v, want %v", args, got, want)
		}
	}
}
