package lsp

import (
	"encoding/json"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
)

// TestDecodeBigNote: the structural scan takes plain notifications only,
// with the same method and params the library would decode, and leaves
// every other body to jsonrpc2.DecodeMessage.
func TestDecodeBigNote(t *testing.T) {
	text := strings.Repeat(`- item \"q\" \\ 多 {[\n`, 4)
	tests := []struct {
		name   string
		body   string
		ok     bool
		method string
		params string
	}{
		{"didChange", `{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///p","version":2},"contentChanges":[{"text":"` + text + `"}]}}`,
			true, "textDocument/didChange", `{"textDocument":{"uri":"file:///p","version":2},"contentChanges":[{"text":"` + text + `"}]}`},
		{"spaces and order", " \r\n{ \"params\" : [1, {\"a\": \"]}\"}] ,\n\"method\":\"x/y\" } \n", true, "x/y", `[1, {"a": "]}"}]`},
		{"no params", `{"method":"exit"}`, true, "exit", ""},
		{"null params", `{"jsonrpc":"2.0","method":"exit","params":null}`, true, "exit", ""},
		{"other version", `{"jsonrpc":"1.0","method":"x"}`, false, "", ""},
		{"call", `{"jsonrpc":"2.0","id":1,"method":"x","params":{}}`, false, "", ""},
		{"response", `{"jsonrpc":"2.0","id":1,"result":{}}`, false, "", ""},
		{"no method", `{"params":{}}`, false, "", ""},
		{"empty method", `{"method":"","params":{}}`, false, "", ""},
		{"escaped method", `{"method":"a\/b"}`, false, "", ""},
		{"numeric method", `{"method":1}`, false, "", ""},
		{"duplicate params", `{"method":"x","params":{},"params":[]}`, false, "", ""},
		{"unknown member", `{"method":"x","extra":true}`, false, "", ""},
		{"escaped key", `{"meth\u006fd":"x"}`, false, "", ""},
		{"unbalanced", `{"method":"x","params":{"a":[}]}`, false, "", ""},
		{"unterminated string", `{"method":"x","params":"abc}`, false, "", ""},
		{"escaped quote at end", `{"method":"x","params":"abc\"}`, false, "", ""},
		{"escaped backslash", `{"method":"x","params":["a\\","b\\\""]}`, true, "x", `["a\\","b\\\""]`},
		{"trailing garbage", `{"method":"x"} x`, false, "", ""},
		{"trailing comma", `{"method":"x",}`, false, "", ""},
		{"missing colon", `{"method" "x"}`, false, "", ""},
		{"array body", `[{"method":"x"}]`, false, "", ""},
		{"empty object", `{}`, false, "", ""},
		{"empty", ``, false, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			msg, ok := decodeBigNote([]byte(tc.body))
			if ok != tc.ok {
				t.Fatalf("ok = %v, want %v", ok, tc.ok)
			}
			if !ok {
				return
			}
			req, isReq := msg.(jsonrpc2.Request)
			if !isReq {
				t.Fatalf("%T is not a jsonrpc2.Request", msg)
			}
			if _, call := msg.(*jsonrpc2.Call); call {
				t.Fatal("decoded as a call")
			}
			if req.Method() != tc.method || string(req.Params()) != tc.params {
				t.Errorf("got %q %s, want %q %s", req.Method(), req.Params(), tc.method, tc.params)
			}
			lib, err := jsonrpc2.DecodeMessage([]byte(tc.body))
			if err != nil {
				t.Fatalf("library refuses an accepted body: %v", err)
			}
			if lib.(jsonrpc2.Request).Method() != req.Method() || string(lib.(jsonrpc2.Request).Params()) != string(req.Params()) {
				t.Errorf("library decodes %q %s", lib.(jsonrpc2.Request).Method(), lib.(jsonrpc2.Request).Params())
			}
		})
	}
}

// FuzzDecodeBigNote: an accepted body that is valid JSON decodes, through
// the library, to the same notification.
func FuzzDecodeBigNote(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"a":["}",1]}}`))
	f.Add([]byte(`{"method":"x","params":"\"\\"}`))
	f.Add([]byte(`{"id":null,"method":"x"}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		msg, ok := decodeBigNote(body)
		if !ok || !json.Valid(body) {
			return
		}
		lib, err := jsonrpc2.DecodeMessage(body)
		if err != nil {
			t.Fatalf("library refuses %q: %v", body, err)
		}
		got, want := msg.(jsonrpc2.Request), lib.(jsonrpc2.Request)
		if got.Method() != want.Method() || string(got.Params()) != string(want.Params()) {
			t.Fatalf("%q: got %q %s, library %q %s", body, got.Method(), got.Params(), want.Method(), want.Params())
		}
	})
}
