package mcp

import (
	"bytes"
	"encoding/json"
	"strconv"
	"sync"

	"github.com/planls/planls/internal/rpcid"
)

// The SDK keeps a request id as a string or an int64 reached through a
// float64 (2^63-1 comes back as -2^63, 2^53+1 as 2^53, 1.5 as 1, which then
// collides with request 1) and reads a null id as a notification, which
// gets no reply. JSON-RPC 2.0 §5 has a reply carry the id exactly as sent,
// so the stdio guard hands the SDK a stand-in string id for each request
// and writes the client's id into the reply; the SDK still does everything
// else with the message.

// idMap is what checkLine needs of the guard's ids: a fresh stand-in, and
// the stand-ins of the unanswered requests whose id is the same JSON value
// as raw.
type idMap interface {
	standIn() string
	inFlight(raw json.RawMessage) []string
}

// wireIDs is the guard's table of stand-ins (JSON text, e.g.
// "planls-in-7" in quotes) and the ids the client wrote for them.
type wireIDs struct {
	mu    sync.Mutex
	seq   uint64
	sent  map[string]json.RawMessage // stand-in → the client's id
	byKey map[string][]string        // rpcid.Key of a client's id → its stand-ins
}

func newWireIDs() wireIDs {
	return wireIDs{sent: map[string]json.RawMessage{}, byKey: map[string][]string{}}
}

// standIn returns a stand-in id no other request of the session has.
func (w *wireIDs) standIn() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.seq++
	return `"planls-in-` + strconv.FormatUint(w.seq, 10) + `"`
}

func (w *wireIDs) inFlight(raw json.RawMessage) []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.byKey[rpcid.Key(raw)]...)
}

// admit remembers a line's stand-ins until their replies are written.
func (w *wireIDs) admit(m map[string]json.RawMessage) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for stand, raw := range m {
		w.sent[stand] = raw
		k := rpcid.Key(raw)
		w.byKey[k] = append(w.byKey[k], stand)
	}
}

// forget drops the stand-ins of a line that the SDK will never see.
func (w *wireIDs) forget(m map[string]json.RawMessage) {
	for stand := range m {
		w.take(stand)
	}
}

// take returns and forgets the client's id behind stand-in stand.
func (w *wireIDs) take(stand string) (json.RawMessage, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	raw, ok := w.sent[stand]
	if !ok {
		return nil, false
	}
	delete(w.sent, stand)
	k := rpcid.Key(raw)
	rest := w.byKey[k][:0]
	for _, s := range w.byKey[k] {
		if s != stand {
			rest = append(rest, s)
		}
	}
	if len(rest) == 0 {
		delete(w.byKey, k)
	} else {
		w.byKey[k] = rest
	}
	return raw, true
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
func cancelsFor(msg []byte, params rpcid.Span, ids idMap) []cancel {
	if !params.Found {
		return nil
	}
	sp, err := rpcid.Members(params.Val, "requestId")
	if err != nil || !sp[0].Found || !rpcid.Valid(sp[0].Val) {
		return nil
	}
	var out []cancel
	for _, stand := range ids.inFlight(sp[0].Val) {
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

// preview is raw JSON cut to a length an error message holds.
func preview(raw []byte) string {
	const max = 80
	if len(raw) > max {
		return string(raw[:max]) + "…"
	}
	return string(raw)
}
