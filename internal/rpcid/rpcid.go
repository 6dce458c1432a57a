// Package rpcid reads the id of a JSON-RPC 2.0 request exactly as the client
// wrote it, for the two servers (LSP and MCP) whose libraries keep ids in
// narrower types: go.lsp.dev/jsonrpc2 v0.10.0 holds a number as int32 and
// takes the empty string for the number 0, and the MCP SDK holds a number
// as int64 after a float64 (so 2^53+1 and 1.5 come back changed). JSON-RPC
// 2.0 (§4 Request object, §5 Response object) allows a string, a number or
// null and has the reply carry that id unchanged; these servers hand their
// library a stand-in id and put the one that was sent back into the reply.
package rpcid

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
)

// Valid reports whether raw, one JSON value without surrounding space, may be
// a request id: a string, a number or null (JSON-RPC 2.0 §4). raw must
// already be valid JSON (it comes out of a decoder).
func Valid(raw []byte) bool {
	if len(raw) == 0 {
		return false
	}
	switch c := raw[0]; {
	case c == '"', c == '-', c >= '0' && c <= '9':
		return true
	case c == 'n':
		return string(raw) == "null"
	}
	return false
}

// Key returns a string that is equal for two Valid ids exactly when they are
// the same JSON value, so that a cancellation's id finds its request however
// each was spelt: strings compare by their decoded characters ("\u0041" is
// "A"), numbers by value (1, 1.0 and 10e-1 are one number, -0 is 0), null
// only with null. Kinds never collide (the string "1" is not the number 1).
func Key(raw []byte) string {
	switch {
	case len(raw) == 0:
		return ""
	case raw[0] == 'n':
		return "null"
	case raw[0] == '"':
		if !bytes.Contains(raw, []byte(`\`)) {
			return "s" + string(raw[1:len(raw)-1])
		}
		// An escaped lone surrogate decodes to U+FFFD, which would make
		// different ids equal: such an id is keyed by its spelling.
		var s string
		if bytes.Contains(bytes.ToLower(raw), []byte(`\ud`)) || json.Unmarshal(raw, &s) != nil {
			return "r" + string(raw)
		}
		return "s" + s
	}
	return "n" + numberKey(string(raw))
}

// numberKey is a JSON number in one spelling per value: sign, significant
// digits without leading or trailing zeros, and a decimal exponent
// ("-12e-1" for -1.20). An exponent too large for an int keeps the
// spelling it came in.
func numberKey(lit string) string {
	s, sign := lit, ""
	if strings.HasPrefix(s, "-") {
		s, sign = s[1:], "-"
	}
	mant, exp := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(strings.TrimPrefix(s[i+1:], "+"))
		if err != nil {
			return lit
		}
		mant, exp = s[:i], e
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	digits := strings.TrimLeft(intPart+frac, "0")
	exp -= len(frac)
	if digits == "" {
		return "0"
	}
	trimmed := strings.TrimRight(digits, "0")
	exp += len(digits) - len(trimmed)
	return sign + trimmed + "e" + strconv.Itoa(exp)
}

// ErrNotObject is Members' error for a message that is valid JSON but not an
// object (an array, a string, a number...).
var ErrNotObject = errors.New("not a JSON object")

// Span is one top-level member of a JSON object: its value as written and
// the value's offsets [Start, End) in the object's bytes. Found is false
// when the object has no such member.
type Span struct {
	Val        []byte
	Start, End int
	Found      bool
}

// Members finds the top-level members names of the JSON object msg, one Span
// each in the order of names, so that a caller can read them or put another
// value in a member's place. The last one counts when a name repeats (as
// encoding/json reads it). err is a *json.SyntaxError when msg is not JSON
// and ErrNotObject when it is JSON but not an object.
func Members(msg []byte, names ...string) ([]Span, error) {
	spans := make([]Span, len(names))
	dec := json.NewDecoder(bytes.NewReader(msg))
	tok, err := dec.Token()
	if err != nil {
		return nil, syntaxErr(msg, err)
	}
	if tok != json.Delim('{') {
		if !json.Valid(msg) {
			return nil, syntaxErr(msg, nil)
		}
		return nil, ErrNotObject
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil, syntaxErr(msg, err)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, syntaxErr(msg, err)
		}
		for i, name := range names {
			if key == name {
				end := int(dec.InputOffset())
				spans[i] = Span{Val: v, Start: end - len(v), End: end, Found: true}
			}
		}
	}
	if _, err := dec.Token(); err != nil {
		return nil, syntaxErr(msg, err)
	}
	if dec.More() {
		return nil, syntaxErr(msg, nil)
	}
	return spans, nil
}

// syntaxErr is the *json.SyntaxError that json.Unmarshal gives for msg, so
// that messages say what a decoder would (err when it has none).
func syntaxErr(msg []byte, err error) error {
	if se, ok := errors.AsType[*json.SyntaxError](json.Unmarshal(msg, new(json.RawMessage))); ok {
		return se
	}
	if err == nil {
		err = errors.New("invalid JSON")
	}
	return err
}

// Replace returns msg with the span's value replaced by with, in a new slice.
func (sp Span) Replace(msg, with []byte) []byte {
	out := make([]byte, 0, len(msg)-(sp.End-sp.Start)+len(with))
	out = append(out, msg[:sp.Start]...)
	out = append(out, with...)
	return append(out, msg[sp.End:]...)
}

// ErrorReply is a JSON-RPC 2.0 error response (§5.1) carrying id as
// written (nil: null), code and message.
func ErrorReply(id json.RawMessage, code int, message string) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	type rpcError struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	data, _ := json.Marshal(struct {
		Version string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   rpcError        `json:"error"`
	}{"2.0", id, rpcError{code, message}})
	return data
}

// Shape checks the members of one message object that decide what it is
// (each as written, nil when absent) by JSON-RPC 2.0 §4 and §5: problem is
// what it breaks, to follow "Invalid Request: " ("" for none), name the
// method's, echo the id a refusal carries (nil, null, if the id is bad).
func Shape(id, method, result, errObj []byte) (name string, echo json.RawMessage, problem string) {
	if id != nil && !Valid(id) {
		return "", nil, "an id must be a string, a number or null, not " + Preview(id)
	}
	if method != nil && (method[0] != '"' || json.Unmarshal(method, &name) != nil) {
		return "", id, "method must be a string"
	}
	if method == nil && (id == nil || result == nil && errObj == nil) {
		return "", id, "neither a request (no method) nor a response (no id with a result or an error)"
	}
	return name, id, ""
}
