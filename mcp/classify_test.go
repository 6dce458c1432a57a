package mcp

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// describe renders a parsed line for comparison: "msg" for a message the
// server gets, the encoded reply for an error, "batch:" in front of a batch.
func describe(p parsedLine) string {
	var parts []string
	for _, e := range p.elems {
		if e.err != nil {
			parts = append(parts, string(e.err.encode()))
		} else {
			parts = append(parts, "msg")
		}
	}
	s := strings.Join(parts, " ")
	if p.batch {
		s = "batch: " + s
	}
	return s
}

func errLine(id string, code int, msg string) string {
	m, _ := json.Marshal(msg)
	return `{"jsonrpc":"2.0","id":` + id + `,"error":{"code":` + itoa(code) + `,"message":` + string(m) + `}}`
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestParseLine: JSON-RPC 2.0 §4–6 and §5.1 for every kind of bad line, and
// good messages passed on.
func TestParseLine(t *testing.T) {
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	for _, tc := range []struct{ name, line, want string }{
		{"request", ping, "msg"},
		{"string id", `{"jsonrpc":"2.0","id":"a","method":"ping"}`, "msg"},
		{"notification", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, "msg"},
		{"null id is a notification", `{"jsonrpc":"2.0","id":null,"method":"x"}`, "msg"},
		{"response", `{"jsonrpc":"2.0","id":4,"result":{}}`, "msg"},
		{"error response", `{"jsonrpc":"2.0","id":4,"error":{"code":1,"message":"no"}}`, "msg"},
		{"leading space", `  ` + ping, "msg"},
		{"not json", `hello`, errLine("null", -32700, "Parse error: invalid character 'h' looking for beginning of value")},
		{"truncated", `{"jsonrpc":"2.0","id":1`, errLine("null", -32700, "Parse error: unexpected end of JSON input")},
		{"two values", ping + ping, errLine("null", -32700, "Parse error: invalid character '{' after top-level value")},
		{"nul byte", "\x00", errLine("null", -32700, `Parse error: invalid character '\x00' looking for beginning of value`)},
		{"invalid utf-8", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"p\xffing\"}", errLine("null", -32700, msgNotUTF8)},
		{"number", `42`, errLine("null", -32600, msgNotMessage)},
		{"string", `"x"`, errLine("null", -32600, msgNotMessage)},
		{"null", `null`, errLine("null", -32600, msgNotMessage)},
		{"empty batch", `[]`, errLine("null", -32600, msgEmptyBatch)},
		{"no jsonrpc", `{"id":1,"method":"ping"}`, errLine("1", -32600, msgVersion)},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":"x","method":"ping"}`, errLine(`"x"`, -32600, msgVersion)},
		{"jsonrpc number", `{"jsonrpc":2.0,"method":"ping"}`, errLine("null", -32600, msgVersion)},
		{"JSONRPC key case", `{"JSONRPC":"2.0","id":1,"method":"ping"}`, errLine("1", -32600, msgVersion)},
		{"bool id", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, errLine("null", -32600, msgIDType)},
		{"object id", `{"jsonrpc":"2.0","id":{},"method":"ping"}`, errLine("null", -32600, msgIDType)},
		{"method number", `{"jsonrpc":"2.0","id":2,"method":5}`, errLine("2", -32600, msgMethodType)},
		{"method null", `{"jsonrpc":"2.0","id":2,"method":null}`, errLine("2", -32600, msgMethodType)},
		{"empty object", `{}`, errLine("null", -32600, msgVersion)},
		{"no method no id", `{"jsonrpc":"2.0"}`, errLine("null", -32600, msgNoMethod)},
		{"response with null id", `{"jsonrpc":"2.0","id":null,"result":1}`, errLine("null", -32600, msgNoMethod)},
		{"too deep for the SDK", `{"jsonrpc":"2.0","method":"x","params":` + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + `}`,
			errLine("null", -32600, "Invalid Request: unmarshaling jsonrpc message: json: exceeded maximum nesting depth of 1000")},
		{"batch", `[` + ping + `,{"jsonrpc":"2.0","method":"n"}]`, "batch: msg msg"},
		{"batch of bad elements", `[1,{"jsonrpc":"2.0","id":5,"method":5},[]]`, "batch: " +
			errLine("null", -32600, msgNotObject) + " " + errLine("5", -32600, msgMethodType) + " " + errLine("null", -32600, msgNotObject)},
		{"mixed batch", `[` + ping + `,"x"]`, "batch: msg " + errLine("null", -32600, msgNotObject)},
		{"batch too big", `[` + strings.TrimSuffix(strings.Repeat(`{},`, maxBatch+1), ",") + `]`, errLine("null", -32600, "Invalid Request: a batch may hold at most 1000 messages")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := describe(parseLine([]byte(tc.line))); got != tc.want {
				t.Fatalf("parseLine(%.60q)\n got  %s\n want %s", tc.line, got, tc.want)
			}
		})
	}
}

// TestParseLineKeepsTheMessage: what passes is the message as sent.
func TestParseLineKeepsTheMessage(t *testing.T) {
	p := parseLine([]byte(`{"jsonrpc":"2.0","id":"q7","method":"tools/call","params":{"name":"todo","arguments":{"action":"list"}}}`))
	req, ok := p.elems[0].msg.(*jsonrpc.Request)
	if !ok || req.Method != "tools/call" || req.ID.Raw() != "q7" || string(req.Params) != `{"name":"todo","arguments":{"action":"list"}}` {
		t.Fatalf("got %#v", p.elems[0].msg)
	}
}

// FuzzParseLine: any line yields messages the SDK decodes (checked on whole
// lines; batch elements take the same path) or error replies
// that are single JSON-RPC 2.0 error objects with a null, string or number
// id; a line that is not a JSON object or array never reaches the server.
func FuzzParseLine(f *testing.F) {
	for _, s := range []string{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, `[{"jsonrpc":"2.0","id":1,"method":"a"},1]`,
		`{"jsonrpc":"2.0","id":1e400,"method":"x"}`, `{"jsonrpc":"2.0","id":"\ud800","method":"x"}`, "\xEF\xBB\xBF{}",
		`{"jsonrpc":"2.0","id":1,"result":{},"method":"x"}`, `{"jsonrpc":"2.0","jsonrpc":"1.0","method":"x"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		p := parseLine(line)
		if len(p.elems) == 0 {
			t.Fatalf("%q yields nothing", line)
		}
		for _, e := range p.elems {
			if (e.msg == nil) == (e.err == nil) {
				t.Fatalf("%q: element with msg %v and err %v", line, e.msg, e.err)
			}
			if e.msg != nil {
				if p.batch {
					continue
				}
				if _, err := jsonrpc.DecodeMessage(line); err != nil {
					t.Fatalf("%q: passed a message the SDK does not decode: %v", line, err)
				}
				if _, err := jsonrpc.EncodeMessage(e.msg); err != nil {
					t.Fatalf("%q: passed message does not encode: %v", line, err)
				}
				continue
			}
			var reply struct {
				JSONRPC string          `json:"jsonrpc"`
				ID      json.RawMessage `json:"id"`
				Error   *struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			data := e.err.encode()
			if err := json.Unmarshal(data, &reply); err != nil || reply.JSONRPC != "2.0" || reply.Error == nil ||
				(reply.Error.Code != -32700 && reply.Error.Code != -32600) || reply.Error.Message == "" {
				t.Fatalf("%q: bad error reply %s (%v)", line, data, err)
			}
			if id := string(reply.ID); id != "null" && id[0] != '"' && id[0] != '-' && (id[0] < '0' || id[0] > '9') {
				t.Fatalf("%q: reply id %s", line, id)
			}
		}
	})
}
