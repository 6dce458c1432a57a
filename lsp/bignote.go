package lsp

import (
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
	ok = members(body, func(key, val []byte) bool {
		switch string(key) {
		case "method":
			if method != nil || val[0] != '"' || len(val) < 3 || !plainASCII(val[1:len(val)-1]) {
				return false
			}
			method = val[1 : len(val)-1]
		case "params":
			if params != nil {
				return false
			}
			params = val
			if string(val) == "null" {
				params = []byte{} // the library decodes null params as none
			}
		case "jsonrpc":
			return string(val) == `"2.0"` // else the library's version check answers
		default:
			return false
		}
		return true
	})
	if !ok || method == nil {
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
