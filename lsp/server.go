package lsp

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/jsonrpc2"
)

// lifecycle is the session state of LSP §"Lifecycle Messages".
type lifecycle int

const (
	created lifecycle = iota
	initialized
	shutDown
)

// server is one client session (one connection). Requests that read
// (queries: hover, code actions, lenses, hints, symbols, planls/plan,
// pull diagnostics) are functions of the current session and its folders'
// snapshots, read without a lock (snapshot.go). Everything that changes
// state (notifications, file events, timers, commands, background
// refreshes) runs under mu, which guards every field below it, and ends by
// swapping in new snapshots. Nothing writes to the client while holding
// mu: messages go to the outbox, whose goroutine writes them.
type server struct {
	conn jsonrpc2.Conn
	wire *stream // conn's framing: notifications are written to it directly (send)
	out  *outbox
	grp  *group // the session's background work; stopped at shutdown
	// spare holds the buffer of the last publish written, for the next
	// (a 1,000-item plan's is 256 KB, a sixth of a keystroke's garbage).
	spare chan []byte
	// laterChange reports a queued didChange for a URI (nil in no session).
	laterChange func(uri string, version int32) bool
	log         *slog.Logger
	opts        options

	exitOnce sync.Once
	exited   chan struct{}

	state atomic.Int32 // a lifecycle; written under mu
	view  atomic.Pointer[session]
	trace atomic.Value // string: the $/logTrace level, "off" (or ""), "messages", "verbose"

	mu    sync.Mutex
	enc   encoding
	caps  clientCaps
	hints refresher
	// exitErr is Run's result once exited is closed: nil for an exit after
	// a successful shutdown (endSession).
	exitErr  error
	settings settings // pushed over the defaults; folderSettings adds what was pulled
	folders  []*folder
	// revisions counts the changes of every folder's planls/plan answer,
	// so that a folder made again never repeats a revision a sidebar saw.
	revisions int64
	docs      map[string]*document // by path key
	watcher   *fsWatcher
	clientFS  bool // the client watches files for us (dynamic registration)
	lenses    refresher
	pulls     refresher // workspace/diagnostic/refresh (pulldiag.go)
	editing   bool      // a didChange of the client is being applied (no diagnostic refresh for it)
	pullReady bool      // initialized was handled: the client may be asked for settings (config.go)
	pullSeq   uint64    // number of the latest workspace/configuration request (1-based)

	reg watchReg // not guarded by mu: it has its own
	// idle hears of each client message and new snapshot (idle.go).
	idle quiet
}

type document struct {
	uri     string // exactly as the client sent it
	key     string // keyOf its path
	version int32
	text    []byte // never changed in place: views share it
}

func newServer(ctx context.Context, conn jsonrpc2.Conn, wire *stream, out *outbox, log *slog.Logger, opts options) *server {
	return &server{
		conn: conn, wire: wire, out: out, grp: newGroup(ctx), log: log, opts: opts,
		exited:   make(chan struct{}),
		spare:    make(chan []byte, 1),
		idle:     newQuiet(),
		settings: defaultSettings(),
		docs:     map[string]*document{},
		lenses:   refresher{method: "workspace/codeLens/refresh"},
		hints:    refresher{method: "workspace/inlayHint/refresh"},
		pulls:    refresher{method: "workspace/diagnostic/refresh"},
	}
}

// endSession closes exited, once, with err as Run's result: at the first
// exit notification (nil when shutdown had succeeded before it, else
// ErrExitWithoutShutdown) or when the client's process died (ErrClientGone).
func (s *server) endSession(err error) {
	s.exitOnce.Do(func() {
		s.mu.Lock()
		s.exitErr = err
		s.mu.Unlock()
		close(s.exited)
	})
}

// close stops the session's background work (watchers, timers, pulls,
// prompts) after shutdown or when the connection ended; it does not wait
// for it (run does, once no handler can hold mu).
func (s *server) close() {
	s.grp.stop()
	s.mu.Lock()
	w := s.watcher
	s.watcher = nil
	s.mu.Unlock()
	if w != nil {
		w.close()
	}
}

// handle routes one message. Unknown requests get MethodNotFound whether or
// not the session is initialized (a method is unknown in every state);
// known ones before initialize get ServerNotInitialized, and every request
// after shutdown InvalidRequest (LSP §"Lifecycle Messages"). Unknown
// notifications (including $/ ones) are ignored (LSP §"$ Notifications").
func (s *server) handle(r *request) (any, error) {
	st := s.phase()
	q, query := queries[r.method]
	h, known := handlers[r.method]
	switch {
	case r.method == "exit" && st == shutDown:
		s.endSession(nil)
		return nil, nil
	case r.method == "exit":
		s.endSession(ErrExitWithoutShutdown)
		return nil, nil
	case st == shutDown:
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "server is shut down")
	case !known && !query && r.isCall:
		return nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "method not found: %s", r.method)
	case !known && !query:
		return nil, nil
	case st == created && r.method != "initialize":
		if r.isCall {
			return nil, jsonrpc2.NewError(jsonrpc2.ServerNotInitialized, "server not initialized")
		}
		return nil, nil
	}
	start := time.Now()
	if r.method == "planls/plan" {
		// A folder the session has is a query too; only one it does not
		// know yet is made on the worker.
		if _, err := planSnapshot(s.current(), r.params); err != errNotInSession {
			q, query = planQuery, true
		}
	}
	if query {
		// The session is taken here, in arrival order, so the answer sees
		// every change sent before the request; it is computed beside the
		// worker, which goes on with the next message (a pull behind a
		// planls/plan of a sidebar does not wait for it).
		v := s.current()
		run := func(context.Context) {
			defer r.recoverPanic(s.log)
			res, err := q(v, r.params)
			s.traceHandled(r, start, err)
			r.answer(res, err)
		}
		if s.grp.goFn(run) {
			return nil, errDetached
		}
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "server is shut down")
	}
	res, err := h(s, r)
	s.traceHandled(r, start, err)
	return res, err
}

func (s *server) phase() lifecycle { return lifecycle(s.state.Load()) }

// queries maps the requests that only read to their function of the
// session (snapshot.go): no lock, no git, no disk.
var queries = map[string]func(*session, json.RawMessage) (any, error){
	"textDocument/codeAction":     query(codeAction),
	"textDocument/hover":          query(hover),
	"textDocument/documentSymbol": query(documentSymbol),
	"textDocument/codeLens":       query(codeLens),
	"workspace/symbol":            query(workspaceSymbol),
	"textDocument/inlayHint":      query(inlayHints),
	"textDocument/diagnostic":     query(diagnostic),
}

// handlers maps the other methods to their handler, which changes the
// session under mu.
var handlers = map[string]func(*server, *request) (any, error){
	"initialize":                          (*server).initialize,
	"initialized":                         (*server).initializedNote,
	"shutdown":                            (*server).shutdownReq,
	"textDocument/didOpen":                handle((*server).didOpen),
	"textDocument/didChange":              (*server).didChange,
	"textDocument/didSave":                handle((*server).didSave),
	"textDocument/didClose":               handle((*server).didClose),
	"workspace/didChangeWatchedFiles":     handle((*server).didChangeWatchedFiles),
	"workspace/didChangeConfiguration":    handle((*server).didChangeConfiguration),
	"workspace/didChangeWorkspaceFolders": handle((*server).didChangeWorkspaceFolders),
	"workspace/executeCommand":            handle((*server).executeCommand),
	"planls/plan":                         handle((*server).planRequest),
	"$/setTrace":                          handle((*server).setTrace),
}

// handle is fn as a handlers entry, with the request's params decoded as
// query decodes them.
func handle[P any](fn func(*server, *request, *P) (any, error)) func(*server, *request) (any, error) {
	return func(s *server, r *request) (any, error) {
		p := new(P)
		if err := decode(r.params, p); err != nil {
			return nil, err
		}
		return fn(s, r, p)
	}
}

// query is fn as a queries entry: it gets the request's params decoded
// (decode), so a bad params object is InvalidParams, never a panic.
func query[P any](fn func(*session, *P) (any, error)) func(*session, json.RawMessage) (any, error) {
	return func(v *session, params json.RawMessage) (any, error) {
		p := new(P)
		if err := decode(params, p); err != nil {
			return nil, err
		}
		return fn(v, p)
	}
}

// decode unmarshals params into v; empty params leave v zero.
func decode(params json.RawMessage, v any) error {
	if len(params) == 0 || string(params) == "null" {
		return nil
	}
	if err := json.Unmarshal(params, v); err != nil {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: %v", err)
	}
	return nil
}

func (s *server) shutdownReq(r *request) (any, error) {
	s.mu.Lock()
	s.state.Store(int32(shutDown))
	s.mu.Unlock()
	s.close()
	return nil, nil
}

// notify queues a server→client notification; a failure is logged (a
// notification has nobody to report to).
func (s *server) notify(method string, params any) {
	s.out.put("", func() { s.send(method, params) })
}

// send writes one notification, encoded by encoding/json in one pass.
// jsonrpc2's Conn.Notify encodes the params, then re-validates them twice
// more (NewNotification, Notification.MarshalJSON) before the stream's
// encoder does a third time: for a publish of 1,000 diagnostics that was
// 2.1 of the 8.3 ms a keystroke cost (BenchmarkInProcessKeystroke profile).
func (s *server) send(method string, params any) {
	data, err := json.Marshal(notification{Version: "2.0", Method: method, Params: params})
	if err != nil {
		s.log.Debug("notify failed", "method", method, "err", err)
		return
	}
	s.write(data)
}

func (s *server) write(data []byte) {
	if _, err := s.wire.writeRaw(data); err != nil {
		s.log.Debug("write failed", "err", err)
	}
}

type notification struct {
	Version string `json:"jsonrpc"`
	Method  string `json:"method"`
	Params  any    `json:"params"`
}

// callClient sends a server→client request bounded by timeout and by ctx
// (the group's context ends it at shutdown); jsonrpc2's Conn.Call would
// otherwise wait forever on a dead connection. Its callers run on group
// goroutines and never hold mu across it.
func (s *server) callClient(ctx context.Context, timeout time.Duration, method string, params, result any) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	_, err := s.conn.Call(ctx, method, params, result)
	return err
}
