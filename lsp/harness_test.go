package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/planls/planls/core"
	"github.com/planls/planls/store"
)

// waitTimeout bounds every wait on a protocol event. Tests never sleep: they
// wait for a message, and this is only how long before they give up. Under
// -race on the two loaded cores CI and developers share, a fresh server's
// first answer on a 600-item plan took over 10 s (TestEditsEqualFreshServer).
const waitTimeout = 30 * time.Second

// env is an in-memory editor talking to a real server over net.Pipe with
// real LSP framing (Content-Length).
type env struct {
	t    testing.TB
	conn jsonrpc2.Conn
	// stream is conn's framing; benchmarks write pre-encoded messages to
	// it so that the client's JSON encoding is not counted as the server's.
	stream *stream
	done   chan error // Run's result
	srv    *server    // for white-box checks only

	mu      sync.Mutex
	changed chan struct{} // closed and replaced on every recorded event
	diags   map[string][]protocol.Diagnostic
	rawDiag map[string]string // the last raw publishDiagnostics params by URI
	pubs    []protocol.PublishDiagnosticsParams
	notes   []note
	reqs    []note
	light   bool // record publishDiagnostics versions only (benchmarks)
	// keepLast records only the latest diagnostics per URI: no history of
	// notes or publishes (the soak's client must not grow).
	keepLast bool
	// answer replies to server→client requests; nil answers null.
	answer func(method string, params json.RawMessage) (any, error)
}

type note struct {
	method string
	params json.RawMessage
}

type envConfig struct {
	opts    options
	caps    map[string]any
	folders []string // root paths; default one temp dir
	initOpt any
	noInit  bool
}

func testOptions() options {
	o := defaultOptions()
	o.debounce = 5 * time.Millisecond
	o.retryDelay = 20 * time.Millisecond
	o.callTimeout = 5 * time.Second
	o.askTimeout = 5 * time.Second
	// The commit is newer than every plan item a test makes: its time is
	// not the moment of the lookup, which can fall in an earlier second
	// than the approval on a busy machine and then is never offered.
	o.gitHead = func(context.Context, string, string) headCommit {
		return headCommit{Line: "abc1234 Add the limiter", Hash: "abc1234", At: time.Now().Add(time.Hour)}
	}
	return o
}

// startServer runs the server on one end of a pipe and returns the client
// end; the server's logs go to the test log.
func startServer(t testing.TB, opts options) (net.Conn, chan error) {
	t.Helper()
	cs, ss := net.Pipe()
	done := make(chan error, 1)
	stopped := make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		defer close(stopped)
		done <- run(ctx, ss, slog.New(slog.NewTextHandler(testLog{t}, nil)), opts)
	}()
	t.Cleanup(func() {
		cancel()
		_ = cs.Close()
		select {
		case <-stopped:
		case <-time.After(waitTimeout):
			t.Error("server did not stop")
		}
	})
	return cs, done
}

// newEnv starts a server and a client and, unless cfg.noInit, initializes.
func newEnv(t testing.TB, cfg envConfig) *env {
	t.Helper()
	if cfg.opts.gitHead == nil {
		cfg.opts = testOptions()
	}
	srv := make(chan *server, 1)
	cfg.opts.onStart = func(s *server) { srv <- s }
	cs, done := startServer(t, cfg.opts)
	e := &env{t: t, done: done, changed: make(chan struct{}), srv: <-srv,
		diags: map[string][]protocol.Diagnostic{}, rawDiag: map[string]string{}}
	e.stream = newStream(cs, slog.New(slog.DiscardHandler))
	e.conn = jsonrpc2.NewConn(e.stream)
	e.conn.Go(context.Background(), e.handle)
	if !cfg.noInit {
		if cfg.folders == nil {
			cfg.folders = []string{t.TempDir()}
		}
		e.initialize(cfg)
	}
	return e
}

// handle records what the server sends. It runs on the client's read loop,
// so it never blocks: server→client requests are answered on a goroutine.
func (e *env) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	e.mu.Lock()
	n := note{req.Method(), append(json.RawMessage(nil), req.Params()...)}
	if _, ok := req.(*jsonrpc2.Call); ok {
		e.reqs = append(e.reqs, n)
	} else if !e.keepLast {
		e.notes = append(e.notes, n)
	}
	if req.Method() == "textDocument/publishDiagnostics" && e.light {
		// Benchmarks: keep only the version, so the client's decoding of
		// megabytes of diagnostics is not counted as the server's time.
		e.pubs = append(e.pubs, protocol.PublishDiagnosticsParams{Version: versionOf(req.Params())})
	} else if req.Method() == "textDocument/publishDiagnostics" {
		var p protocol.PublishDiagnosticsParams
		if err := json.Unmarshal(req.Params(), &p); err != nil {
			e.t.Errorf("bad publishDiagnostics: %v", err)
		}
		e.diags[string(p.URI)] = p.Diagnostics
		e.rawDiag[string(p.URI)] = string(req.Params())
		if !e.keepLast {
			e.pubs = append(e.pubs, p)
		}
	}
	answer := e.answer
	close(e.changed)
	e.changed = make(chan struct{})
	e.mu.Unlock()
	if _, ok := req.(*jsonrpc2.Call); ok {
		go func() {
			var res any
			var err error
			if answer != nil {
				res, err = answer(req.Method(), req.Params())
			}
			_ = reply(context.Background(), res, err)
		}()
	}
	return nil
}

func (e *env) initialize(cfg envConfig) map[string]any {
	e.t.Helper()
	var wfs []protocol.WorkspaceFolder
	for _, f := range cfg.folders {
		wfs = append(wfs, protocol.WorkspaceFolder{URI: uriOf(f), Name: filepath.Base(f)})
	}
	caps := cfg.caps
	if caps == nil {
		caps = map[string]any{}
	}
	if _, ok := caps["textDocument"]; !ok {
		caps["textDocument"] = modernTextDocumentCaps()
	}
	params := map[string]any{"processId": os.Getpid(), "capabilities": caps, "workspaceFolders": wfs}
	if len(cfg.folders) > 0 {
		params["rootUri"] = uriOf(cfg.folders[0])
	}
	if cfg.initOpt != nil {
		params["initializationOptions"] = cfg.initOpt
	}
	var res map[string]any
	e.call("initialize", params, &res)
	e.notify("initialized", map[string]any{})
	return res
}

// call sends a request and fails the test on an error reply.
func (e *env) call(method string, params, result any) {
	e.t.Helper()
	if err := e.tryCall(method, params, result); err != nil {
		e.t.Fatalf("%s: %v", method, err)
	}
}

func (e *env) tryCall(method string, params, result any) error {
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	defer cancel()
	_, err := e.conn.Call(ctx, method, params, result)
	return err
}

func (e *env) notify(method string, params any) {
	e.t.Helper()
	if err := e.conn.Notify(context.Background(), method, params); err != nil {
		e.t.Fatalf("notify %s: %v", method, err)
	}
}

// barrier returns once the server has handled every earlier message and
// the client has everything the server queued so far: the queue is serial
// and a request's reply follows its predecessors' output. A change made
// off the worker (a debounced reload, a background refresh) queues its
// messages under the server's mu, and the reply of a query, answered
// without mu, could overtake those of one still running: taking mu first
// waits for it to end.
func (e *env) barrier() {
	e.t.Helper()
	e.srv.mu.Lock()
	//lint:ignore SA2001 an empty critical section: waiting for the holder is the point
	e.srv.mu.Unlock()
	var out any
	e.call("workspace/symbol", map[string]any{"query": "\x00never"}, &out)
}

// lastVersion is the version of the latest publishDiagnostics (0 when none).
func (e *env) lastVersion() uint32 {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.pubs) == 0 {
		return 0
	}
	return e.pubs[len(e.pubs)-1].Version
}

// waitFor waits until cond (called under e.mu) holds.
func (e *env) waitFor(what string, cond func() bool) {
	e.t.Helper()
	deadline := time.After(waitTimeout)
	for {
		e.mu.Lock()
		ok := cond()
		ch := e.changed
		e.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-ch:
		case <-deadline:
			e.t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// waitDiags waits until the last diagnostics of uri satisfy pred.
func (e *env) waitDiags(uri string, what string, pred func([]protocol.Diagnostic) bool) []protocol.Diagnostic {
	e.t.Helper()
	var got []protocol.Diagnostic
	e.waitFor(what, func() bool {
		d, ok := e.diags[uri]
		got = d
		return ok && pred(d)
	})
	// The swap that queued these diagnostics makes its snapshot readable
	// right after, under the server's mu: wait for it, so a request the test
	// sends next is answered from the snapshot the diagnostics came from.
	e.srv.mu.Lock()
	//lint:ignore SA2001 an empty critical section: waiting for the holder is the point
	e.srv.mu.Unlock()
	return got
}

func (e *env) lastDiags(uri string) ([]protocol.Diagnostic, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	d, ok := e.diags[uri]
	return d, ok
}

func (e *env) notesOf(method string) []note {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []note
	for _, n := range e.notes {
		if n.method == method {
			out = append(out, n)
		}
	}
	return out
}

func (e *env) open(path, text string) string {
	e.t.Helper()
	u := uriOf(path)
	e.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": u, "languageId": "markdown", "version": 1, "text": text}})
	return u
}

func (e *env) change(u string, version int, text string) {
	e.t.Helper()
	e.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": u, "version": version},
		"contentChanges": []any{map[string]any{"text": text}}})
}

// exec runs a planls command and returns its envelope.
func (e *env) exec(cmd string, arg any) (map[string]any, error) {
	var res map[string]any
	err := e.tryCall("workspace/executeCommand", map[string]any{"command": cmd, "arguments": []any{arg}}, &res)
	return res, err
}

func (e *env) shutdown() error {
	e.t.Helper()
	if err := e.tryCall("shutdown", nil, nil); err != nil {
		return err
	}
	e.notify("exit", nil)
	select {
	case err := <-e.done:
		return err
	case <-time.After(waitTimeout):
		e.t.Fatal("server did not exit")
	}
	return nil
}

// codes lists "code@line" of diagnostics, for compact assertions.
func codes(ds []protocol.Diagnostic) string {
	var parts []string
	for _, d := range ds {
		parts = append(parts, fmt.Sprintf("%v@%d", d.Code, d.Range.Start.Line))
	}
	return strings.Join(parts, " ")
}

func countCode(ds []protocol.Diagnostic, code string) int {
	n := 0
	for _, d := range ds {
		if d.Code == code {
			n++
		}
	}
	return n
}

// testLog routes server logs to t.Log.
type testLog struct{ t testing.TB }

func (w testLog) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// writeFile writes a file, creating its directory.
func writeFile(t testing.TB, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// serverOf returns the session's server for white-box checks.
func serverOf(t testing.TB, e *env) *server {
	t.Helper()
	return e.srv
}

func (s *server) watcherOrNil() *fsWatcher {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.watcher
}

// readState reads a root's state through the store.
func readState(t testing.TB, root string) *core.State {
	t.Helper()
	st, err := store.Open(root, "test").Read()
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// versionOf reads "version" from the head of publishDiagnostics params (the
// server writes uri, then version, then the list).
func versionOf(params []byte) uint32 {
	head := params[:min(len(params), 4096)]
	i := bytes.Index(head, []byte(`"version":`))
	if i < 0 {
		return 0
	}
	var v uint32
	for _, c := range head[i+len(`"version":`):] {
		if c < '0' || c > '9' {
			break
		}
		v = v*10 + uint32(c-'0')
	}
	return v
}

// settle waits until the background refresh of the folder of uri has
// landed (planls/plan no longer pending: HEAD known, completed items
// verified) and returns that answer.
func (e *env) settle(uri string) planResult {
	e.t.Helper()
	for {
		e.mu.Lock()
		seen := e.countLocked("planls/stateChanged")
		e.mu.Unlock()
		var res planResult
		e.call("planls/plan", map[string]any{"uri": uri}, &res)
		if !res.Pending {
			e.barrier() // the planls/stateChanged of the swap that answered is in
			return res
		}
		e.waitFor("the background refresh", func() bool { return e.countLocked("planls/stateChanged") > seen })
	}
}
