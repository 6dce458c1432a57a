package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// The tests in this file run the real binary over stdio. It is built once
// per test run into a temp dir (or taken from $PLANLS_BIN when set, as the
// suite runners do).

var (
	binOnce sync.Once
	binPath string
	binErr  error
	binDir  string
)

// TestMain removes the binary built for the stdio tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// planlsBin returns the binary, skipping the test while `planls mcp` is not
// wired into the command line yet.
func planlsBin(t testing.TB) string {
	t.Helper()
	binOnce.Do(func() {
		if p := os.Getenv("PLANLS_BIN"); p != "" {
			binPath = p
			return
		}
		binDir, binErr = os.MkdirTemp("", "planls-mcp-test-")
		if binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "planls")
		build := exec.Command("go", "build", "-o", binPath, "github.com/planls/planls/cmd/planls")
		build.Env = append(os.Environ(), "CGO_ENABLED=0") // as the README builds it
		out, err := build.CombinedOutput()
		if err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	out, err := exec.Command(binPath, "mcp", "--help").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--read-only") {
		t.Skipf("`planls mcp` is not wired into the CLI yet (cmd/planls/root.go): %v %s", err, out)
	}
	return binPath
}

// cleanEnv is the test's environment without planls settings, so a
// developer's PLANLS_ROOT cannot leak into a test.
func cleanEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PLANLS_") {
			env = append(env, kv)
		}
	}
	return append(env, extra...)
}

// proc is a running `planls mcp` spoken to with raw JSON-RPC lines.
type proc struct {
	t      testing.TB
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan []byte // every stdout line, closed at EOF
	stderr *bytes.Buffer
	exited chan struct{}
	err    error // Wait's error, set before exited closes
	// roots, when set, is the client's answer to roots/list (a JSON
	// result); otherwise server requests get method-not-found.
	roots string
	// requests lists the methods of the requests the server sent us.
	requests []string
}

// startMCP runs `planls mcp args...` in dir (the working directory).
func startMCP(t testing.TB, dir string, env []string, args ...string) *proc {
	t.Helper()
	cmd := exec.Command(planlsBin(t), append([]string{"mcp"}, args...)...)
	cmd.Dir = dir
	cmd.Env = env
	p := &proc{t: t, cmd: cmd, lines: make(chan []byte, 1024), stderr: &bytes.Buffer{}, exited: make(chan struct{})}
	cmd.Stderr = p.stderr
	var err error
	if p.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			p.lines <- append([]byte(nil), sc.Bytes()...)
		}
		close(p.lines)
		p.err = cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() {
		p.stdin.Close()
		select {
		case <-p.exited:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-p.exited
		}
		if t.Failed() {
			t.Logf("planls mcp stderr:\n%s", p.stderr.String())
		}
	})
	return p
}

func (p *proc) send(msgs ...string) {
	p.t.Helper()
	for _, m := range msgs {
		if _, err := io.WriteString(p.stdin, m+"\n"); err != nil {
			p.t.Fatalf("write %s: %v", m, err)
		}
	}
}

// message is one JSON-RPC message read from the server.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	JSONRPC string `json:"jsonrpc"`
}

// decodeLine checks that a stdout line is exactly one JSON-RPC 2.0 message
// and decodes it.
func decodeLine(t testing.TB, line []byte) message {
	t.Helper()
	var m message
	dec := json.NewDecoder(bytes.NewReader(line))
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("stdout line is not JSON: %q: %v", line, err)
	}
	if dec.More() {
		t.Fatalf("stdout line holds more than one value: %q", line)
	}
	if m.JSONRPC != "2.0" {
		t.Fatalf("stdout line is not JSON-RPC 2.0: %q", line)
	}
	return m
}

// next returns the next response, answering server requests (roots/list)
// with method-not-found as a client without roots would.
func (p *proc) next(timeout time.Duration) (message, bool) {
	p.t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case line, ok := <-p.lines:
			if !ok {
				return message{}, false
			}
			m := decodeLine(p.t, line)
			if m.Method != "" && m.ID != nil {
				p.requests = append(p.requests, m.Method)
			}
			if m.Method == "roots/list" && m.ID != nil && p.roots != "" {
				p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, m.ID, p.roots))
				continue
			}
			if m.Method != "" && m.ID != nil {
				p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"no roots here"}}`, m.ID))
				continue
			}
			if m.Method != "" {
				continue // a server notification
			}
			return m, true
		case <-deadline:
			p.t.Fatalf("no response within %v; stderr:\n%s", timeout, p.stderr.String())
		}
	}
}

// drain reads responses until stdout closes.
func (p *proc) drain(timeout time.Duration) []message {
	p.t.Helper()
	var all []message
	for {
		m, ok := p.next(timeout)
		if !ok {
			return all
		}
		all = append(all, m)
	}
}

const initMsg = `{"jsonrpc":"2.0","id":%s,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw-test","version":"0"}}}`
const initializedMsg = `{"jsonrpc":"2.0","method":"notifications/initialized"}`

func callMsg(id any, args string) string {
	idJSON, _ := json.Marshal(id)
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"todo","arguments":%s}}`, idJSON, args)
}

// toolText decodes a tools/call result's text and isError.
func toolText(t testing.TB, m message) (string, bool) {
	t.Helper()
	if m.Error != nil {
		t.Fatalf("protocol error for a tool call: %+v", m.Error)
	}
	var r struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
		IsError bool `json:"isError"`
	}
	if err := json.Unmarshal(m.Result, &r); err != nil || len(r.Content) != 1 {
		t.Fatalf("tool result %s: %v", m.Result, err)
	}
	return r.Content[0].Text, r.IsError
}
