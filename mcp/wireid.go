package mcp

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/planls/planls/internal/rpcid"
)

// The SDK keeps a request id as a string or an int64 reached through a
// float64 (2^63-1 comes back as -2^63, 2^53+1 as 2^53, 1.5 as 1, which then
// collides with request 1) and reads a null id as a notification, which
// gets no reply. JSON-RPC 2.0 §5 has a reply carry the id exactly as sent,
// so the stdio guard hands the SDK a stand-in string id for each request
// and writes the client's id into the reply; the SDK still does everything
// else with the message.

// wireIDs is the guard's table of stand-ins (JSON text, e.g.
// "planls-in-7" in quotes) and the ids the client wrote for them.
type wireIDs struct {
	rpcid.Table[string]
}

// standIn returns a stand-in id no other request of the session has.
func (w *wireIDs) standIn() string { return strconv.Quote(w.Name()) }

// admit remembers a line's stand-ins until their replies are written.
func (w *wireIDs) admit(m map[string]json.RawMessage) {
	for stand, raw := range m {
		w.Add(stand, raw)
	}
}

// forget drops the stand-ins of a line that the SDK will never see.
func (w *wireIDs) forget(m map[string]json.RawMessage) {
	for stand := range m {
		w.Take(stand)
	}
}

// cancelledMethod is MCP's cancellation notification; its params.requestId
// names the request to cancel.
const cancelledMethod = "notifications/cancelled"

// cancel is one cancellation as the SDK is to get it: the request's
// stand-in and the notification naming it.
type cancel struct {
	target string
	note   []byte
}

// cancelsFor is a cancellation notification msg (params at params) as one
// notification per unanswered request of that id, each naming its
// stand-in; none when no request of that id is in flight (the SDK would
// find none).
func cancelsFor(msg []byte, params rpcid.Span, ids *wireIDs) []cancel {
	if !params.Found {
		return nil
	}
	sp, err := rpcid.Members(params.Val, "requestId")
	if err != nil || !sp[0].Found || !rpcid.Valid(sp[0].Val) {
		return nil
	}
	var out []cancel
	for _, stand := range ids.Lookup(sp[0].Val) {
		out = append(out, cancel{stand, params.Replace(msg, sp[0].Replace(params.Val, []byte(stand)))})
	}
	return out
}

// servedMethods are the requests the SDK (v1.8.0) has a handler for (its
// server method table). Before initialize the SDK answers a method it does
// not know with a code-0 error ("invalid during session initialization"),
// so the guard answers a request for any other method with -32601 itself,
// before and after initialize alike; the SDK still decides for these
// (some of them are "method not found" for this server too).
// TestServedMethodsMatchSDK asks the SDK which methods it serves.
var servedMethods = map[string]bool{
	"initialize": true, "ping": true, "server/discover": true,
	"tools/list": true, "tools/call": true,
	"prompts/list": true, "prompts/get": true,
	"resources/list": true, "resources/templates/list": true, "resources/read": true,
	"resources/subscribe": true, "resources/unsubscribe": true, "subscriptions/listen": true,
	"completion/complete": true, "logging/setLevel": true,
}

// joinBatch is msgs as one JSON array.
func joinBatch[M ~[]byte](msgs []M) []byte {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, m := range msgs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(m)
	}
	b.WriteByte(']')
	return b.Bytes()
}
