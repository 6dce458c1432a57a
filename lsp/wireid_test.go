package lsp

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
)

// TestDecodeMessage: how each kind of body reaches the library, or which
// error reply it gets instead (the binary's end-to-end table is
// cmd/planls TestJSONRPCIDConformance).
func TestDecodeMessage(t *testing.T) {
	ids := &wireIDs{}
	for _, tc := range []struct {
		body string
		kind string // "call", "note", "response", "dropped", or the reply's code and id
	}{
		{`{"jsonrpc":"2.0","id":"","method":"m"}`, "call"},
		{`{"jsonrpc":"2.0","id":null,"method":"m"}`, "call"},
		{`{"jsonrpc":"2.0","id":1e400,"method":"m","params":{"a":[1]}}`, "call"},
		{`{"id":3,"method":"m"}`, "call"}, // no "jsonrpc": read as 2.0
		{`{"jsonrpc":"2.0","method":"m"}`, "note"},
		{`{"jsonrpc":"2.0","id":4,"result":{"x":1}}`, "response"},
		{`{"jsonrpc":"2.0","id":5,"error":{"code":-32601,"message":"no"}}`, "response"},
		{`{"jsonrpc":"2.0","id":"s","result":null}`, "dropped"},        // never an id of ours
		{`{"jsonrpc":"2.0","id":4294967296,"result":null}`, "dropped"}, // beyond int32
		{`{"jsonrpc":"2.0","id":6}`, "-32600 6"},
		{`{"jsonrpc":"2.0","result":1}`, "-32600 null"},
		{`{"jsonrpc":"2.1","id":"v","method":"m"}`, `-32600 "v"`},
		{`{"jsonrpc":"2.0","id":false,"method":"m"}`, "-32600 null"},
		{`{"jsonrpc":"2.0","id":7,"method":null}`, "-32600 7"},
		{`null`, "-32600 null"},
		{`[{"jsonrpc":"2.0","id":1,"method":"m"}]`, "-32600 null"},
		{`{"jsonrpc":"2.0","id":8,"method":"m"`, "-32700 null"},
		{"\xff", "-32700 null"},
	} {
		msg, reply := decodeMessage([]byte(tc.body), ids)
		var got string
		switch m := msg.(type) {
		case *jsonrpc2.Call:
			got = "call"
			if raw, ok := ids.Take(m.ID()); !ok || !strings.Contains(tc.body, `"id":`+string(raw)) {
				t.Errorf("%s: stand-in maps to %s", tc.body, raw)
			}
		case *jsonrpc2.Notification:
			got = "note"
		case *jsonrpc2.Response:
			got = "response"
		case nil:
			got = "dropped"
			if reply != nil {
				var r struct {
					ID    json.RawMessage `json:"id"`
					Error struct{ Code int }
				}
				if err := json.Unmarshal(reply, &r); err != nil {
					t.Fatalf("%s: reply %s: %v", tc.body, reply, err)
				}
				got = strings.TrimSpace(strings.Join([]string{itoa(r.Error.Code), string(r.ID)}, " "))
			}
		}
		if got != tc.kind {
			t.Errorf("%s: %s (reply %s), want %s", tc.body, got, reply, tc.kind)
		}
	}
	// Every stand-in made so far (they are numbered) is released.
	n, _ := strconv.Atoi(strings.TrimPrefix(ids.Name(), "planls-in-"))
	for i := 1; i < n; i++ {
		if raw := ids.Text(jsonrpc2.NewStringID("planls-in-" + strconv.Itoa(i))); raw != "" {
			t.Errorf("stand-in %d left after release: %s", i, raw)
		}
	}
}

// TestWireIDsReuse: a client that reuses an id while the first request is
// unanswered gets each reply with that id, and a cancellation finds both.
func TestWireIDsReuse(t *testing.T) {
	ids := &wireIDs{}
	a, b := ids.admit(json.RawMessage(`1`)), ids.admit(json.RawMessage(`1.0`))
	if a == b {
		t.Fatal("one stand-in for two requests")
	}
	if got := ids.Lookup(json.RawMessage(`10e-1`)); len(got) != 2 {
		t.Errorf("lookup found %v", got)
	}
	if got := ids.Lookup(json.RawMessage(`"1"`)); len(got) != 0 {
		t.Errorf(`"1" found %v`, got)
	}
	if raw, _ := ids.Take(b); string(raw) != `1.0` {
		t.Errorf("release: %s", raw)
	}
	if got := ids.Lookup(json.RawMessage(`1`)); len(got) != 1 || got[0] != a {
		t.Errorf("after one reply: %v", got)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
