package lsp

import (
	"encoding/json"
	"errors"

	"go.lsp.dev/jsonrpc2"

	"github.com/planls/planls/internal/rpcid"
)

// wireIDs carries request ids past go.lsp.dev/jsonrpc2 v0.10.0, whose ID
// type cannot hold them: it keeps a number as int32 (2^31 and 1.5 do not
// decode), reads the empty string as the number 0 and a null id as no id at
// all (a notification, never answered). JSON-RPC 2.0 §5 has the reply carry
// the id as sent, so the stream hands the library a stand-in string id for
// each incoming call and writes the id that was sent into its reply. The
// library still does the rest: the connection, replies, server→client calls.
type wireIDs struct {
	rpcid.Table[jsonrpc2.ID]
}

// admit returns a fresh stand-in for the client's id raw (rpcid.Valid),
// remembered until Take.
func (w *wireIDs) admit(raw json.RawMessage) jsonrpc2.ID {
	id := jsonrpc2.NewStringID(w.Name())
	w.Add(id, raw)
	return id
}

// decodeMessage turns one message body into a jsonrpc2 message whose call id
// is a stand-in from ids, or into the error reply owed instead (JSON-RPC 2.0
// §5.1): -32700 for a body that is not JSON, -32600 for JSON that is not a
// request or response (not an object, "jsonrpc" other than "2.0", an id that is not
// a string, number or null, a method that is not a string). The reply
// carries the message's id when it has a valid one, else null. A response
// whose id this server never sent yields neither (it is dropped).
func decodeMessage(body []byte, ids *wireIDs) (jsonrpc2.Message, []byte) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		if _, ok := errors.AsType[*json.UnmarshalTypeError](err); ok {
			return nil, rpcid.ErrorReply(nil, int(jsonrpc2.InvalidRequest), "invalid request: a message must be a JSON object (LSP has no batches)")
		}
		return nil, rpcid.ErrorReply(nil, int(jsonrpc2.ParseError), "parse error: "+err.Error())
	}
	if m == nil { // the body was null
		return nil, rpcid.ErrorReply(nil, int(jsonrpc2.InvalidRequest), "invalid request: a message must be a JSON object")
	}
	id, hasID := m["id"]
	method, echo, problem := rpcid.Shape(id, m["method"], m["result"], m["error"])
	if problem != "" {
		return nil, rpcid.ErrorReply(echo, int(jsonrpc2.InvalidRequest), "invalid request: "+problem)
	}
	// A message without "jsonrpc" is read as 2.0, as the library read it:
	// refusing a sloppy client helps nobody; a wrong version is refused.
	var version string
	if v, ok := m["jsonrpc"]; ok && (json.Unmarshal(v, &version) != nil || version != jsonrpc2.Version) {
		return nil, rpcid.ErrorReply(id, int(jsonrpc2.InvalidRequest), `invalid request: "jsonrpc" must be "2.0"`)
	}
	if _, ok := m["method"]; ok {
		if !hasID {
			n, err := jsonrpc2.NewNotification(method, m["params"])
			if err != nil {
				return nil, rpcid.ErrorReply(nil, int(jsonrpc2.ParseError), "parse error: "+err.Error())
			}
			return n, nil
		}
		standIn := ids.admit(id)
		c, err := jsonrpc2.NewCall(standIn, method, m["params"])
		if err != nil {
			ids.Take(standIn)
			return nil, rpcid.ErrorReply(id, int(jsonrpc2.ParseError), "parse error: "+err.Error())
		}
		return c, nil
	}
	result := m["result"]
	rawErr, hasErr := m["error"]
	// The server's own calls have the library's int32 ids; a reply with any
	// other id answers nothing it sent.
	var n int32
	if json.Unmarshal(id, &n) != nil {
		return nil, nil
	}
	var rpcErr error
	if hasErr {
		e := new(jsonrpc2.Error)
		if json.Unmarshal(rawErr, e) != nil {
			e = jsonrpc2.NewError(jsonrpc2.InternalError, "unreadable error object: "+rpcid.Preview(rawErr))
		}
		rpcErr = e
	}
	resp, err := jsonrpc2.NewResponse(jsonrpc2.NewNumberID(n), result, rpcErr)
	if err != nil {
		return nil, nil
	}
	return resp, nil
}

// encodeResponse is the reply resp with id (as the client sent it) in place
// of its stand-in. The error is the library's wire form, code 0 for an error
// that is not a *jsonrpc2.Error (dispatch's toRPCError leaves none).
func encodeResponse(id json.RawMessage, resp *jsonrpc2.Response) ([]byte, error) {
	out := struct {
		Version string           `json:"jsonrpc"`
		ID      json.RawMessage  `json:"id"`
		Result  *json.RawMessage `json:"result,omitempty"`
		Error   *jsonrpc2.Error  `json:"error,omitempty"`
	}{Version: jsonrpc2.Version, ID: id}
	if err := resp.Err(); err != nil {
		if !errors.As(err, &out.Error) {
			out.Error = &jsonrpc2.Error{Message: err.Error()}
		}
	} else {
		// The result is valid JSON already (jsonrpc2 encoded it): written
		// as it is, a planls/plan of 1,000 items is not scanned again.
		result := resp.Result()
		if len(result) == 0 {
			result = json.RawMessage("null")
		}
		data := make([]byte, 0, len(result)+len(id)+32)
		data = append(append(append(data, `{"jsonrpc":"2.0","id":`...), id...), `,"result":`...)
		return append(append(data, result...), '}'), nil
	}
	return json.Marshal(out)
}
