package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/planls/planls/store"
)

// TestServedMethodsMatchSDK asks the SDK itself, without the guard in
// front, which of MCP's client requests it serves once initialized: each
// one it answers with anything but "method not found" must be in
// servedMethods, or the guard would refuse a method the server has.
func TestServedMethodsMatchSDK(t *testing.T) {
	candidates := []string{
		"initialize", "ping", "server/discover", "tools/list", "tools/call", "prompts/list", "prompts/get",
		"resources/list", "resources/templates/list", "resources/read", "resources/subscribe",
		"resources/unsubscribe", "subscriptions/listen", "completion/complete", "logging/setLevel",
		"tasks/get", "tasks/list", "tasks/cancel", "tasks/result", "elicitation/create", "sampling/createMessage",
		"roots/list", "no/such/method",
	}
	ctx := t.Context()
	srv := newServer(Options{Root: newProject(t)}, slog.New(slog.DiscardHandler))
	st, ct := sdk.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	conn, err := ct.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	call := func(id int64, method, params string) *jsonrpc.Response {
		t.Helper()
		rid, _ := jsonrpc.MakeID(float64(id))
		if err := conn.Write(ctx, &jsonrpc.Request{ID: rid, Method: method, Params: json.RawMessage(params)}); err != nil {
			t.Fatal(err)
		}
		for {
			msg, err := conn.Read(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if r, ok := msg.(*jsonrpc.Response); ok && r.ID.Raw() == id {
				return r
			}
		}
	}
	if r := call(1, "initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}`); r.Error != nil {
		t.Fatal(r.Error)
	}
	if err := conn.Write(ctx, &jsonrpc.Request{Method: "notifications/initialized", Params: json.RawMessage(`{}`)}); err != nil {
		t.Fatal(err)
	}
	for i, m := range candidates {
		done := make(chan *jsonrpc.Response, 1)
		go func() { done <- call(int64(100+i), m, `{}`) }()
		var r *jsonrpc.Response
		select {
		case r = <-done:
		case <-time.After(2 * time.Second):
			// A request the SDK holds open (subscriptions/listen) is one it
			// serves.
			if !servedMethods[m] {
				t.Errorf("the SDK holds %s open, but the guard refuses it", m)
			}
			return
		}
		var rpcErr *jsonrpc.Error
		unknown := errors.As(r.Error, &rpcErr) && rpcErr.Code == jsonrpc.CodeMethodNotFound &&
			strings.Contains(rpcErr.Message, "method not found")
		if !unknown && !servedMethods[m] {
			t.Errorf("the SDK serves %s (%v), but the guard refuses it", m, r.Error)
		}
	}
}

// TestStdioCancelQueuedCall: a tools/call still waiting in the guard's
// queue behind another one, when cancelled, is dropped there: never run and
// never answered (MCP: a cancelled request gets no response). The call
// before it is untouched and the next call is answered with its own id.
func TestStdioCancelQueuedCall(t *testing.T) {
	root := newProject(t)
	unlock, err := store.Open(root, "test").Lock(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	locked := true
	defer func() {
		if locked {
			unlock()
		}
	}()
	p := startMCP(t, root, cleanEnv("PLANLS_LOCK_TIMEOUT=60s"), "--root", root)
	p.send(fmt.Sprintf(initMsg, `"i"`), initializedMsg)
	if m, ok := p.next(10 * time.Second); !ok || string(m.ID) != `"i"` {
		t.Fatalf("initialize: %+v", m)
	}
	p.send(
		callMsg(1, `{"action":"create","subject":"first"}`),
		callMsg(1.5, `{"action":"create","subject":"queued"}`),
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1.5}}`,
		`{"jsonrpc":"2.0","id":"p","method":"ping"}`,
	)
	if m, ok := p.next(10 * time.Second); !ok || string(m.ID) != `"p"` {
		t.Fatalf("ping: %+v", m)
	}
	unlock()
	locked = false
	p.send(callMsg("after", `{"action":"list"}`))
	var order []string
	for {
		m, ok := p.next(20 * time.Second)
		if !ok {
			t.Fatalf("replies so far %v", order)
		}
		order = append(order, string(m.ID))
		if string(m.ID) == "1" {
			if text, isErr := toolText(t, m); isErr || text != "Created #1: first (pending)" {
				t.Errorf("call 1: %q", text)
			}
		}
		if string(m.ID) == `"after"` {
			break
		}
	}
	if strings.Join(order, " ") != `1 "after"` {
		t.Errorf("replies %v, want 1 then \"after\" (none to the cancelled 1.5)", order)
	}
	if st := readState(t, root); len(st.Tasks) != 1 {
		t.Errorf("state: %+v", st.Tasks)
	}
}
