package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/planls/planls/store"
)

// The JSON-RPC conformance of both servers of the real binary (`planls
// serve` and `planls mcp`): every kind of request id comes back exactly as
// it was written (JSON-RPC 2.0 §5), an invalid request gets -32600 and an
// unknown method -32601 before and after initialize, and a cancellation
// cancels the request of exactly its id.

// conformanceIDs are the ids a client may send, each spelt as it goes on the
// wire; the reply must carry the same text.
var conformanceIDs = []string{
	`""`, `"a"`, `"0"`, `"1"`, `" "`, `"é"`, `"\u00e9"`, `0`, `-0`, `1`, `-1`,
	`2147483647`, `2147483648`, `9007199254740993`, `9223372036854775807`,
	`9223372036854775808`, `-9223372036854775809`, `1.5`, `1.0`, `0.1`, `1e400`, `-2E-3`, `null`,
}

// rpcPeer is one running server of the binary, written to and read from as
// raw JSON messages.
type rpcPeer struct {
	t     *testing.T
	name  string
	cmd   *exec.Cmd
	in    io.WriteCloser
	send  func(msg string)
	msgs  chan peerMsg // responses
	notes chan peerMsg // notifications (dropped when nobody reads them)
}

// peerMsg is one message the server wrote: its id as written, and enough of
// the rest to check it.
type peerMsg struct {
	raw    string
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func (m peerMsg) code() int {
	if m.Error == nil {
		return 0
	}
	return m.Error.Code
}

func startPeer(t *testing.T, root, name string) *rpcPeer {
	t.Helper()
	cmd := planlsCmd(root, name)
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &rpcPeer{t: t, name: name, cmd: cmd, in: in, msgs: make(chan peerMsg, 256), notes: make(chan peerMsg, 4096)}
	var mu sync.Mutex
	if name == "serve" {
		p.send = func(msg string) {
			mu.Lock()
			defer mu.Unlock()
			fmt.Fprintf(in, "Content-Length: %d\r\n\r\n%s", len(msg), msg)
		}
		go p.readFrames(bufio.NewReader(out))
	} else {
		p.send = func(msg string) {
			mu.Lock()
			defer mu.Unlock()
			fmt.Fprintf(in, "%s\n", msg)
		}
		go p.readLines(bufio.NewReader(out))
	}
	t.Cleanup(func() {
		in.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	return p
}

func (p *rpcPeer) deliver(body []byte) {
	var m peerMsg
	if err := json.Unmarshal(body, &m); err != nil {
		p.t.Errorf("%s wrote a message that is not JSON: %q", p.name, body)
		return
	}
	m.raw = string(body)
	if m.Method != "" && m.ID != nil {
		// A request of the server's own (registrations, configuration):
		// answered so that nothing waits on it.
		p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":null}`, m.ID))
		return
	}
	if m.Method != "" {
		select { // diagnostics, logs
		case p.notes <- m:
		default:
		}
		return
	}
	p.msgs <- m
}

func (p *rpcPeer) readFrames(r *bufio.Reader) {
	defer close(p.msgs)
	for {
		length := -1
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimSpace(line)
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
				length, _ = strconv.Atoi(v)
			}
		}
		body := make([]byte, length)
		if _, err := io.ReadFull(r, body); err != nil {
			return
		}
		p.deliver(body)
	}
}

func (p *rpcPeer) readLines(r *bufio.Reader) {
	defer close(p.msgs)
	for {
		line, err := r.ReadBytes('\n')
		if len(strings.TrimSpace(string(line))) > 0 {
			p.deliver(line)
		}
		if err != nil {
			return
		}
	}
}

// next is the next response the server wrote.
func (p *rpcPeer) next() peerMsg {
	p.t.Helper()
	select {
	case m, ok := <-p.msgs:
		if !ok {
			p.t.Fatalf("%s ended its output", p.name)
		}
		return m
	case <-time.After(30 * time.Second):
		p.t.Fatalf("%s: no response in 30s", p.name)
	}
	return peerMsg{}
}

// noResponse fails if a response arrives before the server has answered a
// request with id fence (sent after what must stay unanswered).
func (p *rpcPeer) noResponseBefore(fence string) {
	p.t.Helper()
	for {
		m := p.next()
		if string(m.ID) == fence {
			return
		}
		p.t.Errorf("%s: unexpected response %s", p.name, m.raw)
	}
}

func (p *rpcPeer) initialize(root string) {
	p.t.Helper()
	if p.name == "serve" {
		u := (&url.URL{Scheme: "file", Path: root}).String()
		p.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"rootUri":"` + u + `","capabilities":{}}}`)
		if m := p.next(); string(m.ID) != `"init"` || m.Error != nil {
			p.t.Fatalf("initialize: %s", m.raw)
		}
		p.send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
		return
	}
	p.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"conformance","version":"1"}}}`)
	if m := p.next(); string(m.ID) != `"init"` || m.Error != nil {
		p.t.Fatalf("initialize: %s", m.raw)
	}
	p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// knownRequest is a request the server answers with a result.
func (p *rpcPeer) knownRequest(id string) string {
	if p.name == "serve" {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"workspace/symbol","params":{"query":"x"}}`
	}
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`
}

func TestJSONRPCIDConformance(t *testing.T) {
	for _, server := range []string{"serve", "mcp"} {
		t.Run(server, func(t *testing.T) {
			root := newProject(t)
			p := startPeer(t, root, server)
			unknown := func(phase string) {
				for _, id := range conformanceIDs {
					p.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"no/such/method","params":{}}`)
					m := p.next()
					if string(m.ID) != id || m.code() != -32601 {
						t.Errorf("%s, unknown method, id %s: got %s, want that id and -32601", phase, id, m.raw)
					}
				}
			}
			unknown("before initialize")
			p.initialize(root)
			unknown("after initialize")
			for _, id := range conformanceIDs {
				p.send(p.knownRequest(id))
				m := p.next()
				if string(m.ID) != id || m.Error != nil || m.Result == nil {
					t.Errorf("known method, id %s: got %s, want a result with that id", id, m.raw)
				}
			}
			for _, tc := range []struct{ msg, id string }{
				{`{"jsonrpc":"2.0","id":true,"method":"ping"}`, `null`},
				{`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, `null`},
				{`{"jsonrpc":"2.0","id":[1],"method":"ping"}`, `null`},
				{`{"jsonrpc":"1.0","id":5,"method":"ping"}`, `5`},
				{`{"jsonrpc":"2.0","id":"m","method":7}`, `"m"`},
				{`{"jsonrpc":"2.0","id":"n","method":null}`, `"n"`},
				{`{"jsonrpc":"2.0","id":"r"}`, `"r"`},
				{`[]`, `null`},
				{`"a string"`, `null`},
				{`42`, `null`},
			} {
				p.send(tc.msg)
				m := p.next()
				if string(m.ID) != tc.id || m.code() != -32600 {
					t.Errorf("invalid request %s: got %s, want id %s and -32600", tc.msg, m.raw, tc.id)
				}
			}
			p.send(`{"jsonrpc":"2.0","id":1,"method":`)
			if m := p.next(); string(m.ID) != "null" || m.code() != -32700 {
				t.Errorf("unparsable message: got %s, want id null and -32700", m.raw)
			}
			// Still serving, and nothing else was answered on the way.
			p.send(p.knownRequest(`"last"`))
			p.noResponseBefore(`"last"`)
		})
	}
}

// TestJSONRPCCancelExactID: a request waiting on the state lock is
// cancelled by its own id and by no id the libraries would have confused
// with it ("" with 0, 2^53+1 with 2^53, 1.5 with 1).
func TestJSONRPCCancelExactID(t *testing.T) {
	for _, server := range []string{"serve", "mcp"} {
		t.Run(server, func(t *testing.T) {
			root := newProject(t)
			planls(t, root, "todo", "create", "seed")
			unlock, err := store.Open(root, "test").Lock(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			defer func() { unlock() }()
			p := startPeer(t, root, server)
			p.initialize(root)
			for i, c := range []struct{ id, near string }{
				{`""`, `0`}, {`9007199254740993`, `9007199254740992`}, {`1.5`, `1`}, {`"7"`, `7`},
			} {
				args := fmt.Sprintf(`{"action":"create","subject":"cancelled %d"}`, i)
				if server == "serve" {
					p.send(`{"jsonrpc":"2.0","id":` + c.id + `,"method":"workspace/executeCommand","params":{"command":"planls.todo","arguments":[{"params":` + args + `}]}}`)
				} else {
					p.send(`{"jsonrpc":"2.0","id":` + c.id + `,"method":"tools/call","params":{"name":"todo","arguments":` + args + `}}`)
				}
				cancel := func(id string) {
					if server == "serve" {
						p.send(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":` + id + `}}`)
					} else {
						p.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + id + `,"reason":"test"}}`)
					}
				}
				cancel(c.near)
				fence := fmt.Sprintf(`"fence-%d"`, i)
				p.send(p.knownRequest(fence))
				p.noResponseBefore(fence) // the near id cancelled nothing
				cancel(c.id)
				if server == "serve" {
					m := p.next()
					if string(m.ID) != c.id || m.code() != -32800 {
						t.Errorf("cancel %s: got %s, want RequestCancelled with that id", c.id, m.raw)
					}
					continue
				}
				// MCP: the SDK answers a cancelled tools/call with the tool's
				// error (the spec lets it say nothing); the next call runs
				// once the cancelled one has ended, the lock still held.
				after := fmt.Sprintf(`"after-%d"`, i)
				p.send(`{"jsonrpc":"2.0","id":` + after + `,"method":"tools/call","params":{"name":"todo","arguments":{"action":"list"}}}`)
				for m := p.next(); string(m.ID) != after; m = p.next() {
					if string(m.ID) != c.id || !strings.Contains(m.raw, `"isError":true`) {
						t.Errorf("cancel %s: got %s, want at most an error reply to that id before %s", c.id, m.raw, after)
					}
				}
			}
			unlock()
			unlock = func() error { return nil }
			for _, task := range readState(t, root).Tasks {
				if strings.HasPrefix(task.Subject, "cancelled") {
					t.Errorf("a cancelled request created %q", task.Subject)
				}
			}
		})
	}
}
