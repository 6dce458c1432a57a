package rpcid

import (
	"errors"
	"testing"
)

func TestValid(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		want bool
	}{
		{`""`, true}, {`"a"`, true}, {`0`, true}, {`-0`, true}, {`1.5`, true},
		{`9223372036854775808`, true}, {`1e400`, true}, {`null`, true},
		{`true`, false}, {`false`, false}, {`{}`, false}, {`[]`, false}, {``, false},
	} {
		if got := Valid([]byte(tc.raw)); got != tc.want {
			t.Errorf("Valid(%s) = %v, want %v", tc.raw, got, tc.want)
		}
	}
}

func TestKey(t *testing.T) {
	same := [][2]string{
		{`1`, `1.0`}, {`1`, `10e-1`}, {`1`, `0.1E1`}, {`1`, `1e+0`}, {`-0`, `0`}, {`0.0`, `0`},
		{`120`, `1.2e2`}, {`-1.20`, `-12e-1`}, {`"A"`, `"\u0041"`}, {`""`, `""`}, {`null`, `null`},
		{`9007199254740993`, `9007199254740993.0`},
	}
	for _, p := range same {
		if a, b := Key([]byte(p[0])), Key([]byte(p[1])); a != b {
			t.Errorf("Key(%s) = %q, Key(%s) = %q: want equal", p[0], a, p[1], b)
		}
	}
	differ := [][2]string{
		{`1`, `"1"`}, {`""`, `0`}, {`""`, `null`}, {`0`, `null`}, {`1`, `1.5`}, {`1.5`, `15`},
		{`9007199254740993`, `9007199254740992`}, {`9223372036854775807`, `-9223372036854775808`},
		{`"\ud800"`, `"\ud801"`}, {`"a"`, `"A"`}, {`1e400`, `1e401`},
	}
	for _, p := range differ {
		if a, b := Key([]byte(p[0])), Key([]byte(p[1])); a == b {
			t.Errorf("Key(%s) = Key(%s) = %q: want different", p[0], p[1], a)
		}
	}
	// An exponent beyond an int keeps its spelling rather than failing.
	if k := Key([]byte(`1e99999999999999999999`)); k != "n1e99999999999999999999" {
		t.Errorf("huge exponent: %q", k)
	}
}

func TestMembers(t *testing.T) {
	for _, tc := range []struct {
		msg, want string
		found     bool
	}{
		{`{"jsonrpc":"2.0","id":7,"method":"x"}`, `7`, true},
		{`{ "id" :  "a b" , "x":[1,{"id":2}]}`, `"a b"`, true},
		{`{"x":{"id":1}}`, ``, false},
		{`{"id":1,"id":null}`, `null`, true},
		{"{\"params\":{\"t\":\"}\"},\n\"id\":\t-0.5e3}", `-0.5e3`, true},
	} {
		spans, err := Members([]byte(tc.msg), "id", "absent")
		if err != nil {
			t.Errorf("Members(%s): %v", tc.msg, err)
			continue
		}
		sp := spans[0]
		if sp.Found != tc.found || string(sp.Val) != tc.want || spans[1].Found {
			t.Errorf("Members(%s) = %s, %v; want %s, %v", tc.msg, sp.Val, sp.Found, tc.want, tc.found)
			continue
		}
		if !sp.Found {
			continue
		}
		if tc.msg[sp.Start:sp.End] != tc.want {
			t.Errorf("Members(%s): offsets [%d,%d) hold %q", tc.msg, sp.Start, sp.End, tc.msg[sp.Start:sp.End])
		}
		got := string(sp.Replace([]byte(tc.msg), []byte(`"X"`)))
		if want := tc.msg[:sp.Start] + `"X"` + tc.msg[sp.End:]; got != want {
			t.Errorf("Replace: %s, want %s", got, want)
		}
	}
	for _, bad := range []string{`{"id":1`, `{"id":1} x`, `{"id":}`, `nope`} {
		if _, err := Members([]byte(bad), "id"); err == nil || errors.Is(err, ErrNotObject) {
			t.Errorf("Members(%s): err %v, want a syntax error", bad, err)
		}
	}
	for _, notObj := range []string{`[]`, `[{"id":1}]`, `"s"`, `1`} {
		if _, err := Members([]byte(notObj), "id"); !errors.Is(err, ErrNotObject) {
			t.Errorf("Members(%s): err %v, want ErrNotObject", notObj, err)
		}
	}
}

func TestShape(t *testing.T) {
	for _, tc := range []struct {
		id, method, result, errObj string // "" = absent
		name, echo, problem        string
	}{
		{id: `1`, method: `"ping"`, name: "ping", echo: `1`},
		{method: `"note"`, name: "note"},
		{id: `null`, result: `{}`, echo: `null`},
		{id: `"a"`, errObj: `{"code":1}`, echo: `"a"`},
		{id: `true`, method: `"x"`, problem: "an id must be a string, a number or null, not true"},
		{id: `2`, method: `7`, echo: `2`, problem: "method must be a string"},
		{id: `3`, echo: `3`, problem: "neither a request (no method) nor a response (no id with a result or an error)"},
		{result: `1`, problem: "neither a request (no method) nor a response (no id with a result or an error)"},
	} {
		raw := func(s string) []byte {
			if s == "" {
				return nil
			}
			return []byte(s)
		}
		name, echo, problem := Shape(raw(tc.id), raw(tc.method), raw(tc.result), raw(tc.errObj))
		if name != tc.name || string(echo) != tc.echo || problem != tc.problem {
			t.Errorf("Shape(%+v) = %q, %s, %q", tc, name, echo, problem)
		}
	}
}

func TestErrorReply(t *testing.T) {
	if got, want := string(ErrorReply(nil, -32600, "bad")), `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"bad"}}`; got != want {
		t.Errorf("ErrorReply = %s, want %s", got, want)
	}
	if got, want := string(ErrorReply([]byte(`"x"`), -32700, "a<b")), `{"jsonrpc":"2.0","id":"x","error":{"code":-32700,"message":"a\u003cb"}}`; got != want {
		t.Errorf("ErrorReply = %s, want %s", got, want)
	}
}
