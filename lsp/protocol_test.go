package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
)

func init() {
	// Test-only methods: a request that runs until cancelled, and one that panics.
	handlers["test/slow"] = func(s *server, r *request) (any, error) {
		select {
		case <-r.ctx.Done():
			return nil, r.ctx.Err()
		case <-time.After(waitTimeout):
			return "not cancelled", nil
		}
	}
	handlers["test/panic"] = func(s *server, r *request) (any, error) {
		var items []int
		return items[len(r.method)], nil // index out of range: a runtime panic like any handler bug
	}
}

func rpcCode(err error) jsonrpc2.Code {
	var e *jsonrpc2.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return 0
}

// rawClient writes frames by hand, for traps the typed client cannot produce.
type rawClient struct {
	t  *testing.T
	c  net.Conn
	in *bufio.Reader
}

func newRaw(t *testing.T) *rawClient {
	cs, _ := startServer(t, testOptions())
	return &rawClient{t: t, c: cs, in: bufio.NewReader(cs)}
}

func (r *rawClient) send(header, body string) {
	r.t.Helper()
	if header == "" {
		header = fmt.Sprintf("Content-Length: %d", len(body))
	}
	_ = r.c.SetWriteDeadline(time.Now().Add(waitTimeout))
	if _, err := io.WriteString(r.c, header+"\r\n\r\n"+body); err != nil {
		r.t.Fatal(err)
	}
}

// next reads the next message as a generic object.
func (r *rawClient) next() map[string]any {
	r.t.Helper()
	_ = r.c.SetReadDeadline(time.Now().Add(waitTimeout))
	st := &stream{in: r.in, log: slog.New(slog.DiscardHandler)}
	body, _, err := st.readFrame()
	if err != nil {
		r.t.Fatalf("read: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		r.t.Fatalf("bad JSON %q: %v", body, err)
	}
	return m
}

// reply reads messages until the response with id, skipping notifications.
func (r *rawClient) reply(id any) map[string]any {
	r.t.Helper()
	want, _ := json.Marshal(id)
	for {
		m := r.next()
		got, _ := json.Marshal(m["id"])
		if _, isReq := m["method"]; !isReq && string(got) == string(want) {
			return m
		}
	}
}

func (r *rawClient) initialize() {
	r.send("", `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"capabilities":{}}}`)
	r.reply("init")
	r.send("", `{"jsonrpc":"2.0","method":"initialized","params":{}}`)
}

func errCode(m map[string]any) float64 {
	e, _ := m["error"].(map[string]any)
	c, _ := e["code"].(float64)
	return c
}

// Trap 1: numeric $/cancelRequest ids never cancelled with protocol.CancelHandler.
func TestCancelNumericAndStringIDs(t *testing.T) {
	r := newRaw(t)
	r.initialize()
	for _, id := range []string{`7`, `"seven"`} {
		start := time.Now()
		r.send("", `{"jsonrpc":"2.0","id":`+id+`,"method":"test/slow"}`)
		r.send("", `{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":`+id+`}}`)
		var want any
		_ = json.Unmarshal([]byte(id), &want)
		m := r.reply(want)
		if errCode(m) != -32800 {
			t.Errorf("id %s: reply %v, want RequestCancelled -32800", id, m)
		}
		if time.Since(start) >= waitTimeout {
			t.Errorf("id %s: cancel did not cut the request short", id)
		}
	}
}

// Trap 2 and 4: unknown methods get MethodNotFound (requests) or nothing
// (notifications), and no error closes the connection.
func TestUnknownMethodsAndErrorsKeepServing(t *testing.T) {
	e := newEnv(t, envConfig{})
	err := e.tryCall("textDocument/unknownThing", map[string]any{}, nil)
	if rpcCode(err) != jsonrpc2.MethodNotFound {
		t.Errorf("unknown request: %v, want MethodNotFound", err)
	}
	err = e.tryCall("$/unknownRequest", nil, nil)
	if rpcCode(err) != jsonrpc2.MethodNotFound {
		t.Errorf("unknown $/ request: %v, want MethodNotFound", err)
	}
	e.notify("$/setTrace", map[string]any{"value": "off"})
	e.notify("custom/whatever", []int{1, 2})
	err = e.tryCall("textDocument/hover", []int{1}, nil)
	if rpcCode(err) != jsonrpc2.InvalidParams {
		t.Errorf("bad params: %v, want InvalidParams", err)
	}
	e.barrier()
}

// A panic in a handler becomes an InternalError reply; the server keeps serving.
func TestHandlerPanicRecovered(t *testing.T) {
	e := newEnv(t, envConfig{})
	err := e.tryCall("test/panic", nil, nil)
	if rpcCode(err) != jsonrpc2.InternalError || !strings.Contains(err.Error(), "test/panic") {
		t.Errorf("panic reply: %v", err)
	}
	e.barrier()
	if err := e.shutdown(); err != nil {
		t.Errorf("shutdown after panic: %v", err)
	}
}

// Trap 8 and bad bodies: header names are case-insensitive; a body that is
// not JSON-RPC gets a ParseError with id null and the connection lives on.
func TestFramingRobust(t *testing.T) {
	r := newRaw(t)
	r.send("", `{"jsonrpc":"2.0","id":1,`)
	m := r.next()
	if errCode(m) != float64(jsonrpc2.ParseError) || m["id"] != nil {
		t.Errorf("garbage body: got %v, want ParseError with id null", m)
	}
	body := `{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"capabilities":{}}}`
	r.send(fmt.Sprintf("content-length: %d\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8", len(body)), body)
	if m := r.reply(2); m["result"] == nil {
		t.Errorf("lower-case header: %v", m)
	}
	r.send("X-Nothing: 1", "")
	r.send("", `{"jsonrpc":"2.0","id":3,"method":"shutdown"}`)
	if m := r.reply(3); m["error"] != nil {
		t.Errorf("shutdown after junk: %v", m)
	}
}

// LSP lifecycle: requests before initialize get -32002; a second initialize
// and requests after shutdown get InvalidRequest.
func TestLifecycle(t *testing.T) {
	e := newEnv(t, envConfig{noInit: true})
	err := e.tryCall("textDocument/hover", map[string]any{}, nil)
	if rpcCode(err) != jsonrpc2.ServerNotInitialized {
		t.Errorf("before initialize: %v", err)
	}
	e.notify("textDocument/didOpen", map[string]any{}) // dropped, no crash
	e.initialize(envConfig{folders: []string{t.TempDir()}})
	err = e.tryCall("initialize", map[string]any{"capabilities": map[string]any{}}, nil)
	if rpcCode(err) != jsonrpc2.InvalidRequest {
		t.Errorf("second initialize: %v", err)
	}
	e.call("shutdown", nil, nil)
	err = e.tryCall("textDocument/hover", map[string]any{}, nil)
	if rpcCode(err) != jsonrpc2.InvalidRequest {
		t.Errorf("after shutdown: %v", err)
	}
	e.notify("exit", nil)
	select {
	case err := <-e.done:
		if err != nil {
			t.Errorf("clean exit: %v", err)
		}
	case <-time.After(waitTimeout):
		t.Fatal("no exit")
	}
}

func TestExitWithoutShutdown(t *testing.T) {
	e := newEnv(t, envConfig{})
	e.notify("exit", nil)
	select {
	case err := <-e.done:
		if !errors.Is(err, ErrExitWithoutShutdown) {
			t.Errorf("exit without shutdown: %v", err)
		}
	case <-time.After(waitTimeout):
		t.Fatal("no exit")
	}
}

// Input ending mid-session ends Run with an error, not a hang.
func TestEOFEndsSession(t *testing.T) {
	cs, done := startServer(t, testOptions())
	_ = cs.Close()
	select {
	case err := <-done:
		if err == nil {
			t.Error("EOF without exit: want an error")
		}
	case <-time.After(waitTimeout):
		t.Fatal("no return on EOF")
	}
}

// Trap 10: untitled: and other non-file URIs never reach a panicking
// Filename(); every request on them answers empty.
func TestNonFileURIs(t *testing.T) {
	e := newEnv(t, envConfig{})
	for _, u := range []string{"untitled:Untitled-1", "git:/x/PLAN.md?ref", "file:", "%%%", ""} {
		e.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "version": 1, "text": "- a\n"}})
		e.change(u, 2, "- b\n")
		doc := map[string]any{"uri": u}
		pos := map[string]any{"line": 0, "character": 0}
		var out any
		e.call("textDocument/hover", map[string]any{"textDocument": doc, "position": pos}, &out)
		e.call("textDocument/documentSymbol", map[string]any{"textDocument": doc}, &out)
		e.call("textDocument/codeLens", map[string]any{"textDocument": doc}, &out)
		e.call("textDocument/codeAction", map[string]any{"textDocument": doc,
			"range": map[string]any{"start": pos, "end": pos}, "context": map[string]any{"diagnostics": []any{}}}, &out)
		e.notify("textDocument/didClose", map[string]any{"textDocument": doc})
	}
	e.barrier()
}

// A workspace folder given as a non-file URI is skipped, not fatal.
func TestInitializeOddParams(t *testing.T) {
	e := newEnv(t, envConfig{noInit: true})
	var res map[string]any
	e.call("initialize", map[string]any{"capabilities": map[string]any{"general": "nonsense"},
		"workspaceFolders": []any{map[string]any{"uri": "untitled:x", "name": "x"}}}, &res)
	if err := e.tryCall("initialize", nil, nil); rpcCode(err) != jsonrpc2.InvalidRequest {
		t.Errorf("second initialize: %v", err)
	}
	_ = filepath.Join
}

// Trap 9: no logger is required; a nil log writer discards.
func TestRunWithNilLog(t *testing.T) {
	cs, ss := net.Pipe()
	done := make(chan error, 1)
	go func() { done <- run(context.Background(), ss, nil, testOptions()) }()
	r := &rawClient{t: t, c: cs, in: bufio.NewReader(cs)}
	r.send("", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`)
	r.reply(1)
	r.send("", `{"jsonrpc":"2.0","id":2,"method":"shutdown"}`)
	r.reply(2)
	r.send("", `{"jsonrpc":"2.0","method":"exit"}`)
	if err := <-done; err != nil {
		t.Errorf("run: %v", err)
	}
	_ = cs.Close()
}

// Cancelling a command while its prompt is open answers RequestCancelled and
// changes nothing.
func TestCancelWhileAsking(t *testing.T) {
	root, plan := workspace(t, basicPlan(t))
	cliApprove(t, root)
	r := newRaw(t)
	r.send("", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"`+uriOf(root)+`","capabilities":{"window":{"showMessage":{}}}}}`)
	r.reply(1)
	r.send("", `{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	r.send("", `{"jsonrpc":"2.0","id":2,"method":"workspace/executeCommand","params":{"command":"planls.complete","arguments":[{"id":1,"uri":"`+uriOf(plan)+`"}]}}`)
	for {
		m := r.next()
		if m["method"] == "window/showMessageRequest" {
			break // the prompt is open; never answer it
		}
	}
	r.send("", `{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":2}}`)
	if m := r.reply(2); errCode(m) != -32800 {
		t.Errorf("reply %v, want RequestCancelled", m)
	}
	if findTask(readState(t, root), 1).Status != "pending" {
		t.Error("a cancelled command changed the item")
	}
}
