package lsp

import (
	"bytes"
	"encoding/json"

	"go.lsp.dev/jsonrpc2"
)

// bigNote is the size (bytes) from which a notification body skips
// jsonrpc2.DecodeMessage: its full validating parse of a 1 MB didChange (or
// publishDiagnostics, on a client) costs more than everything the server
// then does with it. Smaller messages keep the library's exact behaviour.
const bigNote = 32 << 10

// rawNotification is a notification whose params are a slice of the frame,
// found by a structural scan. It embeds *jsonrpc2.Notification so that it is
// a jsonrpc2.Request (whose marker methods are unexported); only Params
// differs. The handler's own decode still validates the params, so a bad
// params object is still refused, as InvalidParams instead of ParseError.
type rawNotification struct {
	*jsonrpc2.Notification
	params json.RawMessage
}

// Params implements jsonrpc2.Request.
func (n rawNotification) Params() json.RawMessage { return n.params }

// decodeBigNote returns body as a notification when it is a JSON object
// with a plain string "method", optional "params" and "jsonrpc" members and
// nothing else (no "id": calls always take the library's path). ok is false
// for anything else, including malformed JSON, which the caller then hands
// to jsonrpc2.DecodeMessage for its usual answer.
func decodeBigNote(body []byte) (msg jsonrpc2.Message, ok bool) {
	var method, params []byte
	i := skipSpace(body, 0)
	if i >= len(body) || body[i] != '{' {
		return nil, false
	}
	i = skipSpace(body, i+1)
	for first := true; ; first = false {
		if i < len(body) && body[i] == '}' && first {
			i++
			break
		}
		if i >= len(body) || body[i] != '"' {
			return nil, false
		}
		kEnd := skipString(body, i)
		if kEnd < 0 {
			return nil, false
		}
		key := body[i+1 : kEnd-1]
		i = skipSpace(body, kEnd)
		if i >= len(body) || body[i] != ':' {
			return nil, false
		}
		i = skipSpace(body, i+1)
		vEnd := skipValue(body, i)
		if vEnd < 0 {
			return nil, false
		}
		val := body[i:vEnd]
		switch string(key) {
		case "method":
			if method != nil || val[0] != '"' || len(val) < 3 || !plainASCII(val[1:len(val)-1]) {
				return nil, false
			}
			method = val[1 : len(val)-1]
		case "params":
			if params != nil {
				return nil, false
			}
			params = val
			if string(val) == "null" {
				params = []byte{} // the library decodes null params as none
			}
		case "jsonrpc":
			if string(val) != `"2.0"` {
				return nil, false // the library's version check answers
			}
		default:
			return nil, false
		}
		i = skipSpace(body, vEnd)
		if i < len(body) && body[i] == ',' {
			i = skipSpace(body, i+1)
			continue
		}
		if i >= len(body) || body[i] != '}' {
			return nil, false
		}
		i++
		break
	}
	if method == nil || skipSpace(body, i) != len(body) {
		return nil, false
	}
	n, err := jsonrpc2.NewNotification(string(method), nil)
	if err != nil {
		return nil, false
	}
	if len(params) == 0 {
		params = nil
	}
	return rawNotification{Notification: n, params: params}, true
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index after the string starting at b[i] == '"',
// or -1 when it is unterminated. It jumps between quotes and backslashes
// (bytes.IndexByte is vectorised): a 1 MB didChange is one string. Control
// characters are left to the decoder of the params.
func skipString(b []byte, i int) int {
	q := -1 // absolute index of the next quote at or after i, once found
	for i++; i < len(b); {
		if q < i {
			n := bytes.IndexByte(b[i:], '"')
			if n < 0 {
				return -1
			}
			q = i + n
		}
		bs := bytes.IndexByte(b[i:q], '\\')
		if bs < 0 {
			return q + 1
		}
		i += bs + 2 // the escaped byte, whatever it is
	}
	return -1
}

// skipValue returns the index after the value starting at b[i]: strings,
// and objects and arrays by bracket depth (their inside is validated later,
// by whoever decodes them), or a run of literal characters. -1 when the
// value is unterminated or starts with a stray character.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		var stack []byte
		for ; i < len(b); i++ {
			switch c := b[i]; c {
			case '"':
				end := skipString(b, i)
				if end < 0 {
					return -1
				}
				i = end - 1
			case '{', '[':
				stack = append(stack, c)
			case '}', ']':
				if len(stack) == 0 || stack[len(stack)-1] != c-2 {
					return -1 // '}' is '{'+2 and ']' is '['+2
				}
				stack = stack[:len(stack)-1]
				if len(stack) == 0 {
					return i + 1
				}
			}
		}
		return -1
	case ',', '}', ']', ':':
		return -1
	}
	j := i
	for j < len(b) && !endsLiteral(b[j]) {
		j++
	}
	return j
}

func endsLiteral(c byte) bool {
	switch c {
	case ',', '}', ']', ' ', '\t', '\r', '\n':
		return true
	}
	return false
}

// plainASCII reports printable ASCII without escapes: a method name both
// decoders read the same way.
func plainASCII(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c > 0x7e || c == '\\' {
			return false
		}
	}
	return true
}
