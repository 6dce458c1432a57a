package mcp

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// lspDiag is the part of an LSP diagnostic this test reads.
type lspDiag struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Data    struct {
		ID int `json:"id"`
	} `json:"data"`
}

// lspClient is a minimal LSP client of `planls serve` over stdio
// (Content-Length framing), enough to watch diagnostics.
type lspClient struct {
	t     *testing.T
	cmd   *exec.Cmd
	stdin io.WriteCloser

	mu      sync.Mutex
	nextID  int
	pending map[int]chan json.RawMessage
	diags   map[string][]lspDiag
	changed chan struct{}
}

func startServe(t *testing.T, root string) *lspClient {
	t.Helper()
	cmd := exec.Command(planlsBin(t), "serve")
	cmd.Dir = root
	cmd.Env = cleanEnv()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &lspClient{t: t, cmd: cmd, stdin: stdin, pending: map[int]chan json.RawMessage{},
		diags: map[string][]lspDiag{}, changed: make(chan struct{}, 1)}
	go c.readLoop(bufio.NewReader(stdout))
	t.Cleanup(func() {
		stdin.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(3 * time.Second):
			cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("planls serve stderr:\n%s", stderr.String())
		}
	})
	return c
}

func (c *lspClient) write(msg map[string]any) {
	msg["jsonrpc"] = "2.0"
	b, _ := json.Marshal(msg)
	fmt.Fprintf(c.stdin, "Content-Length: %d\r\n\r\n%s", len(b), b)
}

func (c *lspClient) readLoop(r *bufio.Reader) {
	for {
		n := -1
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimSpace(line)
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length:"); ok {
				n, _ = strconv.Atoi(strings.TrimSpace(v))
			}
		}
		if n < 0 {
			return
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			return
		}
		var m struct {
			ID     *json.RawMessage `json:"id"`
			Method string           `json:"method"`
			Params json.RawMessage  `json:"params"`
			Result json.RawMessage  `json:"result"`
			Error  json.RawMessage  `json:"error"`
		}
		if json.Unmarshal(body, &m) != nil {
			continue
		}
		switch {
		case m.Method == "textDocument/publishDiagnostics":
			var p struct {
				URI         string    `json:"uri"`
				Diagnostics []lspDiag `json:"diagnostics"`
			}
			json.Unmarshal(m.Params, &p)
			c.mu.Lock()
			c.diags[p.URI] = p.Diagnostics
			c.mu.Unlock()
			select {
			case c.changed <- struct{}{}:
			default:
			}
		case m.Method != "" && m.ID != nil:
			c.write(map[string]any{"id": m.ID, "result": nil}) // registerCapability, configuration, ...
		case m.ID != nil:
			id, _ := strconv.Atoi(string(*m.ID))
			c.mu.Lock()
			ch := c.pending[id]
			delete(c.pending, id)
			c.mu.Unlock()
			if ch != nil {
				if len(m.Error) > 0 && string(m.Error) != "null" {
					ch <- append(json.RawMessage(`{"error":`), append(m.Error, '}')...)
				} else {
					ch <- append(json.RawMessage(`{"result":`), append(orNull(m.Result), '}')...)
				}
			}
		}
	}
}

func orNull(b json.RawMessage) json.RawMessage {
	if len(b) == 0 {
		return json.RawMessage("null")
	}
	return b
}

// request sends a request and returns its raw {"result":...} or
// {"error":...}; ok is false on timeout.
func (c *lspClient) request(method string, params any, timeout time.Duration) (json.RawMessage, bool) {
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	ch := make(chan json.RawMessage, 1)
	c.pending[id] = ch
	c.mu.Unlock()
	c.write(map[string]any{"id": id, "method": method, "params": params})
	select {
	case r := <-ch:
		return r, true
	case <-time.After(timeout):
		return nil, false
	}
}

// waitDiags waits until pred holds for uri's latest diagnostics.
func (c *lspClient) waitDiags(uri, what string, pred func([]lspDiag) bool) []lspDiag {
	c.t.Helper()
	deadline := time.After(15 * time.Second)
	for {
		c.mu.Lock()
		d, ok := c.diags[uri]
		c.mu.Unlock()
		if ok && pred(d) {
			return d
		}
		select {
		case <-c.changed:
		case <-deadline:
			c.t.Fatalf("diagnostics never showed %s; last %+v", what, d)
		}
	}
}

func openItemIDs(d []lspDiag) map[int]bool {
	ids := map[int]bool{}
	for _, x := range d {
		if x.Code == "open-item" {
			ids[x.Data.ID] = true
		}
	}
	return ids
}

// TestMCPChangeReachesServe runs both real processes on one workspace: a
// change made through `planls mcp` must reach `planls serve`'s diagnostics
// through the state file alone.
func TestMCPChangeReachesServe(t *testing.T) {
	root := newProject(t)
	plan, err := os.ReadFile("../testdata/mcp/PLAN.md")
	if err != nil {
		t.Fatal(err)
	}
	planPath := filepath.Join(root, "PLAN.md")
	if err := os.WriteFile(planPath, plan, 0o644); err != nil {
		t.Fatal(err)
	}
	rootURI := (&url.URL{Scheme: "file", Path: root}).String()
	planURI := (&url.URL{Scheme: "file", Path: planPath}).String()

	lsp := startServe(t, root)
	res, ok := lsp.request("initialize", map[string]any{
		"processId": os.Getpid(), "rootUri": rootURI,
		"workspaceFolders": []any{map[string]any{"uri": rootURI, "name": "ws"}},
		"capabilities":     map[string]any{"textDocument": map[string]any{"publishDiagnostics": map[string]any{}}},
	}, 10*time.Second)
	if !ok || !strings.HasPrefix(string(res), `{"result":{`) {
		t.Skipf("planls serve does not answer initialize yet (%s); skipping the MCP → LSP check", res)
	}
	lsp.write(map[string]any{"method": "initialized", "params": map[string]any{}})
	lsp.write(map[string]any{"method": "textDocument/didOpen", "params": map[string]any{
		"textDocument": map[string]any{"uri": planURI, "languageId": "markdown", "version": 1, "text": string(plan)}}})
	lsp.waitDiags(planURI, "plan-not-approved", func(d []lspDiag) bool {
		for _, x := range d {
			if x.Code == "plan-not-approved" {
				return true
			}
		}
		return false
	})
	if r, ok := lsp.request("workspace/executeCommand", map[string]any{"command": "planls.approve",
		"arguments": []any{map[string]any{"uri": planURI}}}, 10*time.Second); !ok || strings.HasPrefix(string(r), `{"error"`) {
		t.Fatalf("planls.approve: %s", r)
	}
	lsp.waitDiags(planURI, "7 open items", func(d []lspDiag) bool { return len(openItemIDs(d)) == 7 })

	p := startMCP(t, root, cleanEnv(), "--root", root)
	p.send(fmt.Sprintf(initMsg, "1"), initializedMsg,
		callMsg(2, `{"action":"update","id":1,"status":"completed","evidence":"go test ./internal/ratelimit: ok"}`))
	p.next(10 * time.Second)
	m, _ := p.next(10 * time.Second)
	if text, isErr := toolText(t, m); isErr || text != "Updated #1 (pending → completed)" {
		t.Fatalf("complete #1 through MCP: %q", text)
	}
	lsp.waitDiags(planURI, "#1 closed by MCP", func(d []lspDiag) bool {
		ids := openItemIDs(d)
		return len(ids) == 6 && !ids[1]
	})
	p.send(callMsg(3, `{"action":"update","id":5,"status":"deferred","reason":"covered by the load test"}`))
	m, _ = p.next(10 * time.Second)
	if text, isErr := toolText(t, m); isErr || !strings.HasPrefix(text, "Updated #5 (pending → deferred). Tell the user") {
		t.Fatalf("defer #5 through MCP: %q", text)
	}
	lsp.waitDiags(planURI, "#5 deferred by MCP", func(d []lspDiag) bool {
		ids := openItemIDs(d)
		return len(ids) == 5 && !ids[5]
	})
	p.stdin.Close()
	<-p.exited
	lsp.request("shutdown", nil, 5*time.Second)
	lsp.write(map[string]any{"method": "exit"})
}
