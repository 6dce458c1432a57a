package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/planls/planls/internal/rpcid"
)

// errDetached is returned by a handler that took ownership of its reply (it
// answers later from another goroutine, e.g. after asking the user).
var errDetached = errors.New("reply detached")

// request is one incoming message as the handlers see it.
type request struct {
	ctx    context.Context
	method string
	params json.RawMessage
	isCall bool
	id     jsonrpc2.ID // the stand-in for the client's id (wireid.go)
	wireID string      // the client's id as it was sent (JSON text)
	once   sync.Once
	reply  jsonrpc2.Replier
	// rawReply writes a result already encoded (json.RawMessage) as the
	// reply, past jsonrpc2, which would validate it again byte by byte: 6
	// ms for the 525 KB planls/plan of 1,000 items.
	rawReply func(id jsonrpc2.ID, result json.RawMessage)
	out      *outbox
	done     func() // forgets the cancel func of a call
	// change is a didChange's params, decoded as it was queued (queuedChange
	// reads its target); changeErr is why they did not decode.
	change    *didChangeParams
	changeErr error
}

// answer queues the reply of a call exactly once, behind what the session
// sent before it; later calls are ignored, which is what keeps jsonrpc2's
// "replied more than once" panic unreachable.
func (r *request) answer(result any, err error) {
	if !r.isCall {
		return
	}
	r.once.Do(func() {
		r.done()
		if raw, ok := result.(json.RawMessage); ok && err == nil && r.rawReply != nil {
			r.out.put("", func() { r.rawReply(r.id, raw) })
			return
		}
		ctx, rpcErr := context.WithoutCancel(r.ctx), toRPCError(err)
		r.out.put("", func() { _ = r.reply(ctx, result, rpcErr) })
	})
}

// recoverPanic, deferred, turns a panic while handling r into an
// InternalError reply (logged with its stack), so the session keeps serving.
func (r *request) recoverPanic(log *slog.Logger) {
	if p := recover(); p != nil {
		log.Error("handler panic", "method", r.method, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
		r.answer(nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "internal error in %s: %v", r.method, p))
	}
}

// toRPCError maps handler errors to JSON-RPC errors. A plain error would go
// out with code 0 (jsonrpc2 toError); here it becomes InternalError, and a
// cancelled context becomes RequestCancelled (LSP).
func toRPCError(err error) error {
	if err == nil {
		return nil
	}
	if rpc, ok := errors.AsType[*jsonrpc2.Error](err); ok {
		return rpc
	}
	if errors.Is(err, context.Canceled) {
		return protocol.ErrRequestCancelled
	}
	return jsonrpc2.NewError(jsonrpc2.InternalError, err.Error())
}

// dispatcher is the handler chain over jsonrpc2.Conn. The read loop only
// queues messages (so replies to our own server→client calls keep flowing
// while a handler waits on one) and handles $/cancelRequest at once; one
// worker runs queued messages in arrival order. It replaces
// protocol.ServerHandler and protocol.CancelHandler, which drop numeric
// cancel ids, send unknown methods to the wrong place and let a handler
// error close the connection, as gopls does.
type dispatcher struct {
	log    *slog.Logger
	out    *outbox
	ids    *wireIDs // the stream's: $/cancelRequest names a client's id
	handle func(*request) (any, error)
	// rawReply is the stream's replyRaw (nil: every reply goes through
	// jsonrpc2).
	rawReply func(id jsonrpc2.ID, result json.RawMessage)

	mu      sync.Mutex
	cond    *sync.Cond
	queue   []*request
	closed  bool
	cancels map[jsonrpc2.ID]context.CancelFunc
	// handled, when set, sees each message's method once its handler has
	// run and its reply is queued (options.onHandled; tests sync on it).
	handled func(method string)
	// ending is Run's result should the input end now, from the shutdown
	// request and exit notification read so far (endRead).
	ending   error
	exitRead bool
}

func newDispatcher(log *slog.Logger, out *outbox, ids *wireIDs, handle func(*request) (any, error)) *dispatcher {
	d := &dispatcher{log: log, out: out, ids: ids, handle: handle, cancels: map[jsonrpc2.ID]context.CancelFunc{}, ending: ErrClientClosed}
	d.cond = sync.NewCond(&d.mu)
	return d
}

// onMessage is the jsonrpc2.Handler given to Conn.Go. It never returns an
// error: a non-nil error would close the connection.
func (d *dispatcher) onMessage(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	if req.Method() == "$/cancelRequest" {
		d.cancel(req.Params())
		return nil
	}
	r := &request{ctx: ctx, method: req.Method(), params: req.Params(), reply: reply, rawReply: d.rawReply, out: d.out, done: func() {}}
	if r.method == "textDocument/didChange" {
		r.change = new(didChangeParams)
		if r.changeErr = decode(r.params, r.change); r.changeErr != nil {
			r.change = nil // a bad object is InvalidParams
		}
	}
	d.mu.Lock()
	if call, ok := req.(*jsonrpc2.Call); ok {
		var cancel context.CancelFunc
		r.isCall, r.id, r.wireID = true, call.ID(), d.ids.Text(call.ID())
		r.ctx, cancel = context.WithCancel(ctx)
		d.cancels[r.id] = cancel
		r.done = func() {
			d.mu.Lock()
			delete(d.cancels, r.id)
			d.mu.Unlock()
			cancel()
		}
	}
	switch {
	case d.exitRead:
	case r.method == "shutdown":
		d.ending = ErrClosedAfterShutdown
	case r.method == "exit" && d.ending == ErrClosedAfterShutdown:
		d.ending, d.exitRead = nil, true
	case r.method == "exit":
		d.ending, d.exitRead = ErrExitWithoutShutdown, true
	}
	d.queue = append(d.queue, r)
	d.cond.Signal()
	d.mu.Unlock()
	return nil
}

// endRead is Run's result for input that ends after the messages read so
// far: nil after shutdown then exit, ErrExitWithoutShutdown after an exit
// first, ErrClosedAfterShutdown after a shutdown only, else ErrClientClosed.
func (d *dispatcher) endRead() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.ending
}

// cancel cancels the context of each unanswered request whose id is the
// same JSON value as $/cancelRequest's (a string, or a number of any size:
// rpcid.Key), and of no other.
func (d *dispatcher) cancel(params json.RawMessage) {
	var p struct {
		ID json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal(params, &p); err != nil || !rpcid.Valid(p.ID) {
		d.log.Debug("bad $/cancelRequest", "params", rpcid.Preview(params), "err", err)
		return
	}
	for _, id := range d.ids.Lookup(p.ID) {
		d.mu.Lock()
		cancel := d.cancels[id]
		d.mu.Unlock()
		if cancel != nil {
			cancel()
		}
	}
}

// run executes queued messages one at a time until stop is called.
func (d *dispatcher) run() {
	for {
		d.mu.Lock()
		for len(d.queue) == 0 && !d.closed {
			d.cond.Wait()
		}
		if d.closed {
			d.mu.Unlock()
			return
		}
		r := d.queue[0]
		d.queue[0] = nil
		d.queue = d.queue[1:]
		d.mu.Unlock()
		d.exec(r)
	}
}

// queuedChange reports whether a didChange for uri with a version above
// version waits in the queue: the current one can then skip its
// diagnostics, which the later one recomputes (typing in a large plan stays
// responsive).
func (d *dispatcher) queuedChange(uri string, version int32) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, r := range d.queue {
		if r.method != "textDocument/didChange" {
			continue
		}
		if c := r.change; c != nil && string(c.TextDocument.URI) == uri && c.TextDocument.Version > version {
			return true
		}
	}
	return false
}

func (d *dispatcher) stop() {
	d.mu.Lock()
	d.closed = true
	d.cond.Broadcast()
	d.mu.Unlock()
}

// exec runs one handler, recovering a panic into an InternalError reply so
// the session keeps serving.
func (d *dispatcher) exec(r *request) {
	defer r.recoverPanic(d.log)
	if r.ctx.Err() != nil && r.isCall {
		r.answer(nil, r.ctx.Err())
		return
	}
	res, err := d.handle(r)
	if d.handled != nil {
		defer d.handled(r.method)
	}
	if errors.Is(err, errDetached) {
		return
	}
	if err != nil && !r.isCall {
		d.log.Warn("notification failed", "method", r.method, "err", err)
	}
	r.answer(res, err)
}
