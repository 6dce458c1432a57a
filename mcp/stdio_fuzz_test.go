package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// FuzzStdioLine splits any input into lines as the stdio guard does (with a
// small cap) and checks each: a line is never longer than the cap, and
// checkLine either hands the SDK only what its decoder takes (every
// notification and the rest of a batch decode) or answers with a JSON-RPC
// error code and a message.
func FuzzStdioLine(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`, `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"n"}]`,
		"[]", "42", "\xff", `{"jsonrpc":"1.0","id":7,"method":"x"}`, `[1,{"jsonrpc":"2.0","id":1,"method":"a"}]`,
		`[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","id":1,"method":"b"}]`, "a\r\nb\n\n" + string(bytes.Repeat([]byte("x"), 100)),
	} {
		f.Add([]byte(s))
	}
	const max = 64
	f.Fuzz(func(t *testing.T, in []byte) {
		r := bufio.NewReaderSize(bytes.NewReader(in), 16)
		for {
			line, tooLong, err := readLine(r, max)
			if len(line) > max || (tooLong && line != nil) {
				t.Fatalf("line of %d bytes (tooLong %v)", len(line), tooLong)
			}
			if len(bytes.TrimSpace(line)) > 0 {
				checkOne(t, bytes.TrimSpace(line))
			}
			if err != nil {
				return
			}
		}
	})
}

func checkOne(t *testing.T, data []byte) {
	var ids wireIDs
	ln, id, code, msg := checkLine(data, &ids)
	if msg != "" {
		if code != -32700 && code != -32600 && code != -32601 && code != -32602 {
			t.Fatalf("%q: code %d", data, code)
		}
		if id != nil && !json.Valid(id) {
			t.Fatalf("%q: reply id %q", data, id)
		}
		return
	}
	parts := ln.notes
	if ln.data != nil {
		parts = append(parts, ln.data)
	}
	for _, p := range parts {
		if p[0] == '[' {
			var elems []json.RawMessage
			if json.Unmarshal(p, &elems) != nil || len(elems) == 0 {
				t.Fatalf("%q: batch handed on %q", data, p)
			}
			for _, e := range elems {
				if _, err := jsonrpc.DecodeMessage(e); err != nil {
					t.Fatalf("%q: handed on %q: %v", data, e, err)
				}
			}
			continue
		}
		if _, err := jsonrpc.DecodeMessage(p); err != nil {
			t.Fatalf("%q: handed on %q: %v", data, p, err)
		}
	}
}

// TestResponseID: the guard learns which request a written line answers
// from its leading keys only.
func TestResponseID(t *testing.T) {
	for msg, want := range map[string]string{
		`{"jsonrpc":"2.0","id":3,"result":{"big":[1,2,3]}}`:                  "3",
		`{"jsonrpc":"2.0","id":"a b","error":{"code":-32601,"message":"x"}}`: `"a b"`,
		`{"jsonrpc":"2.0","id":4,"method":"roots/list"}`:                     "",
		`{"jsonrpc":"2.0","method":"notifications/x"}`:                       "",
		`{"result":{},"id":5}`:                                               "5",
		`{"jsonrpc":"2.0","id":6}`:                                           "",
		`not json`:                                                           "",
	} {
		sp, ok := responseID([]byte(msg))
		got := string(sp.Val)
		if !ok {
			got = ""
		} else if msg[sp.Start:sp.End] != got {
			t.Errorf("responseID(%s): span [%d,%d) holds %q", msg, sp.Start, sp.End, msg[sp.Start:sp.End])
		}
		if got != want {
			t.Errorf("responseID(%s) = %q, want %q", msg, got, want)
		}
	}
}
