package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestStdioMalformedLinesBetweenRequests runs the real binary: every kind
// of bad line sent between real requests gets its exact JSON-RPC error
// reply, the requests around them are served, the state on disk holds what
// the calls did, and EOF still ends the server with status 0.
func TestStdioMalformedLinesBetweenRequests(t *testing.T) {
	root := newProject(t)
	p := startMCP(t, root, cleanEnv(), "--root", root)
	p.send(
		fmt.Sprintf(initMsg, "1"),
		"hello",
		initializedMsg,
		"",
		"   \r",
		"42",
		"\xff\xfe\x00garbage",
		`{"jsonrpc":"2.0","id":true,"method":"ping"}`,
		callMsg(2, `{"action":"create","subject":"a"}`),
		"[]",
		`{"jsonrpc":"1.0","id":77,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"m","method":["tools/call"]}`,
		callMsg(3, `{"action":"create","subject":"b"}`),
		`[7,{"jsonrpc":"2.0","id":8,"method":"ping"}]`,
		`[{"jsonrpc":"2.0","id":9,"method":"ping"}]`,
		`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"todo","arguments":{"action":"create","subject":"c"`,
		callMsg(4, `{"action":"list"}`),
	)
	// An unterminated last line is still a line.
	io.WriteString(p.stdin, "\x01\x02tail")
	p.stdin.Close()

	var lines []string
	for line := range p.lines {
		lines = append(lines, string(line))
	}
	<-p.exited
	if p.err != nil {
		t.Fatalf("exit: %v\n%s", p.err, p.stderr)
	}
	// The decoding errors are the SDK's own words, except where an id or a
	// method is not of its type (the guard reads those first); the session's
	// protocol (2025-06-18) has no batches.
	wantErrors := []string{
		errLine("null", -32700, "Parse error: invalid character 'h' looking for beginning of value"),
		errLine("null", -32600, "Invalid Request: a message must be a JSON object or a batch array"),
		errLine("null", -32700, "Parse error: the message is not valid UTF-8"),
		errLine("null", -32600, "Invalid Request: an id must be a string, a number or null, not true"),
		errLine("null", -32600, "Invalid Request: empty batch"),
		errLine("77", -32600, `Invalid Request: invalid message version tag "1.0"; expected "2.0"`),
		errLine(`"m"`, -32600, `Invalid Request: method must be a string`),
		errLine("null", -32600, "Invalid Request: batch element 0: a batch element must be a JSON object"),
		errLine("null", -32600, "Invalid Request: JSON-RPC batches are not part of MCP 2025-06-18 and later (this session: 2025-06-18)"),
		errLine("null", -32700, "Parse error: unexpected end of JSON input"),
		errLine("null", -32700, `Parse error: invalid character '\x01' looking for beginning of value`),
	}
	replies := map[string]message{}
	var gotErrors []string
	for _, l := range lines {
		if strings.HasPrefix(l, "[") || strings.Contains(l, `"error":{"code":-32`) {
			gotErrors = append(gotErrors, l)
			continue
		}
		m := decodeLine(t, []byte(l))
		replies[string(m.ID)] = m
	}
	sort.Strings(gotErrors)
	sort.Strings(wantErrors)
	if strings.Join(gotErrors, "\n") != strings.Join(wantErrors, "\n") {
		t.Fatalf("error replies\n got:\n%s\n want:\n%s", strings.Join(gotErrors, "\n"), strings.Join(wantErrors, "\n"))
	}
	if len(replies) != 4 || replies["1"].Result == nil {
		t.Fatalf("replies %v", keys(replies))
	}
	for id, want := range map[string]string{"2": "Created #1: a (pending)", "3": "Created #2: b (pending)"} {
		if text, isErr := toolText(t, replies[id]); isErr || text != want {
			t.Fatalf("call %s: %q", id, text)
		}
	}
	if text, _ := toolText(t, replies["4"]); !strings.Contains(text, "#1 a") || !strings.Contains(text, "#2 b") || strings.Contains(text, " c") {
		t.Fatalf("list after garbage: %q", text)
	}
	if st := readState(t, root); len(st.Tasks) != 2 || st.Tasks[0].Subject != "a" || st.Tasks[1].Subject != "b" {
		t.Fatalf("state on disk %+v", st.Tasks)
	}
	assertUnlocked(t, root)
	stderr := p.stderr.String()
	if strings.Count(stderr, "level=WARN msg=\"mcp: answered a malformed message\"") != len(wantErrors) || strings.Contains(stderr, "level=ERROR") {
		t.Fatalf("stderr:\n%s", stderr)
	}
}

// TestStdioHugeLine: a 50 MB line is answered with an error and skipped
// without the server holding it in memory; the next call is served. The
// limit measures the program, not the race detector: the binary is a plain
// build (PLANLS_BIN or planlsBin's go build) even under go test -race; a
// -race build of it peaks at about 136 MiB.
func TestStdioHugeLine(t *testing.T) {
	root := newProject(t)
	p := startMCP(t, root, cleanEnv(), "--root", root)
	p.send(fmt.Sprintf(initMsg, "1"), initializedMsg)
	if m, _ := p.next(10 * time.Second); string(m.ID) != "1" {
		t.Fatalf("init reply %s", m.ID)
	}
	huge := callMsg(2, `{"action":"create","subject":"`+strings.Repeat("x", 50<<20)+`"}`)
	p.send(huge, callMsg(3, `{"action":"create","subject":"small"}`))
	m, _ := p.next(30 * time.Second)
	if m.Error == nil || string(m.ID) != "null" || m.Error.Code != -32600 || m.Error.Message != "Invalid Request: the message is longer than 16777216 bytes" {
		t.Fatalf("reply to the huge line: id %s error %+v", m.ID, m.Error)
	}
	m, _ = p.next(10 * time.Second)
	if text, isErr := toolText(t, m); isErr || text != "Created #1: small (pending)" {
		t.Fatalf("call after the huge line: %q", text)
	}
	if hwm := peakRSS(t, p.cmd.Process.Pid); hwm > 64<<20 {
		t.Fatalf("peak resident memory %d MiB after a 50 MB line; the line must not be held", hwm>>20)
	} else {
		t.Logf("peak resident memory %d MiB", hwm>>20)
	}
	p.stdin.Close()
	<-p.exited
	if p.err != nil {
		t.Fatalf("exit: %v", p.err)
	}
	if st := readState(t, root); len(st.Tasks) != 1 {
		t.Fatalf("%d tasks", len(st.Tasks))
	}
}

// peakRSS is a process's peak resident set in bytes (Linux VmHWM).
func peakRSS(t *testing.T, pid int) int64 {
	t.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[0] == "VmHWM:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Skip("no VmHWM")
	return 0
}

// TestStdioGoSDKClient: the go-sdk client over CommandTransport still
// works end to end with the line transport, and the server exits 0 when the
// client closes.
func TestStdioGoSDKClient(t *testing.T) {
	root := newProject(t)
	cmd := exec.Command(planlsBin(t), "mcp", "--root", root)
	cmd.Env = cleanEnv()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := sdk.NewClient(&sdk.Implementation{Name: "planls-test", Version: "0"}, nil)
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if cs.InitializeResult().ServerInfo.Name != "planls" {
		t.Fatalf("server info %+v", cs.InitializeResult().ServerInfo)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 1 || tools.Tools[0].Name != toolName {
		t.Fatalf("tools/list: %v %v", tools, err)
	}
	if r := call(t, cs, `{"action":"create","subject":"from the sdk"}`); r.IsError || r.Text != "Created #1: from the sdk (pending)" {
		t.Fatalf("create: %+v", r)
	}
	if r := call(t, cs, `{"action":"get","id":1}`); r.IsError || len(r.Details.Tasks) != 1 || r.Details.Tasks[0].Subject != "from the sdk" {
		t.Fatalf("get: %+v", r)
	}
	if err := cs.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	if cmd.ProcessState == nil || !cmd.ProcessState.Success() {
		t.Fatalf("server exit %v; stderr:\n%s", cmd.ProcessState, stderr.String())
	}
	if strings.Contains(stderr.String(), "level=WARN") || strings.Contains(stderr.String(), "level=ERROR") {
		t.Fatalf("a well-behaved client caused warnings:\n%s", stderr.String())
	}
}

// errLine is the JSON-RPC error reply the server writes for a bad line.
func errLine(id string, code int, msg string) string {
	m, _ := json.Marshal(msg)
	c, _ := json.Marshal(code)
	return `{"jsonrpc":"2.0","id":` + id + `,"error":{"code":` + string(c) + `,"message":` + string(m) + `}}`
}

// TestStdioBatchOnOldProtocol: a 2025-03-26 session still has JSON-RPC
// batches; a batch's calls come back as one array, in the batch's order.
func TestStdioBatchOnOldProtocol(t *testing.T) {
	root := newProject(t)
	p := startMCP(t, root, cleanEnv(), "--root", root)
	p.send(strings.Replace(fmt.Sprintf(initMsg, "1"), "2025-06-18", "2025-03-26", 1), initializedMsg,
		"["+callMsg(2, `{"action":"create","subject":"a"}`)+`,{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}},{"jsonrpc":"2.0","id":3,"method":"ping"}]`)
	p.stdin.Close()
	var batch string
	for line := range p.lines {
		if strings.HasPrefix(string(line), "[") {
			batch = string(line)
		}
	}
	<-p.exited
	var replies []message
	if err := json.Unmarshal([]byte(batch), &replies); err != nil || len(replies) != 2 {
		t.Fatalf("batch reply %q: %v", batch, err)
	}
	if string(replies[0].ID) != "2" || string(replies[1].ID) != "3" {
		t.Fatalf("batch reply order: %s", batch)
	}
	if text, isErr := toolText(t, replies[0]); isErr || text != "Created #1: a (pending)" {
		t.Fatalf("call in batch: %q", text)
	}
}
