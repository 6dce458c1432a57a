package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gofrs/flock"

	"github.com/planls/planls/core"
	"github.com/planls/planls/store"
)

// TestStdioPurity: whatever goes wrong on disk, every
// stdout line is one JSON-RPC message; every request gets exactly one
// reply carrying its id with its original JSON type; notifications get none.
func TestStdioPurity(t *testing.T) {
	for name, setup := range map[string]func(t *testing.T, root string){
		"corrupt state and binary plan": func(t *testing.T, root string) {
			os.MkdirAll(filepath.Join(root, ".planls"), 0o755)
			os.WriteFile(filepath.Join(root, ".planls", "state.json"), []byte("{\"tasks\": [tru"), 0o644)
			os.WriteFile(filepath.Join(root, "PLAN.md"), []byte("# T\n\x00\xff\xfe- [ ] `unclosed\n```\n"), 0o644)
		},
		"missing state and plan": func(t *testing.T, root string) {},
		"state is a directory": func(t *testing.T, root string) {
			os.MkdirAll(filepath.Join(root, ".planls", "state.json"), 0o755)
		},
	} {
		t.Run(name, func(t *testing.T) {
			root := newProject(t)
			setup(t, root)
			p := startMCP(t, root, cleanEnv(), "--root", root)
			p.send(
				fmt.Sprintf(initMsg, `"init-a"`),
				initializedMsg,
				`{"jsonrpc":"2.0","id":0,"method":"ping"}`,
				`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
				`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}`,
				callMsg(3, `{"action":"list"}`),
				callMsg("four", `{"action":"create","subject":"a"}`),
				callMsg(5.0, `{"action":"get","id":1}`),
				`{"jsonrpc":"2.0","id":6,"method":"no/such/method"}`,
			)
			p.stdin.Close()
			got := map[string]message{}
			for _, m := range p.drain(10 * time.Second) {
				key := string(m.ID)
				if _, dup := got[key]; dup {
					t.Fatalf("two replies for id %s", key)
				}
				got[key] = m
			}
			want := []string{`"init-a"`, `0`, `2`, `3`, `"four"`, `5`, `6`}
			if len(got) != len(want) {
				t.Fatalf("got replies for %v, want exactly %v", keys(got), want)
			}
			for _, id := range want {
				if _, ok := got[id]; !ok {
					t.Fatalf("no reply with id %s (ids must keep their JSON type); got %v", id, keys(got))
				}
			}
			var init struct {
				Capabilities map[string]json.RawMessage     `json:"capabilities"`
				ServerInfo   struct{ Name, Version string } `json:"serverInfo"`
			}
			if err := json.Unmarshal(got[`"init-a"`].Result, &init); err != nil || init.ServerInfo.Name != "planls" || init.ServerInfo.Version == "" {
				t.Fatalf("initialize result %s: %v", got[`"init-a"`].Result, err)
			}
			if _, ok := init.Capabilities["tools"]; !ok || len(init.Capabilities) != 1 {
				t.Fatalf("capabilities %s; want tools only", got[`"init-a"`].Result)
			}
			if got["6"].Error == nil {
				t.Fatal("unknown method did not get an error reply")
			}
			for _, id := range []string{"3", `"four"`, "5"} {
				if got[id].Error != nil {
					t.Fatalf("tool call %s got a protocol error %+v; tool failures must be results", id, got[id].Error)
				}
			}
			if name == "missing state and plan" {
				if text, isErr := toolText(t, got[`"four"`]); isErr || text != "Created #1: a (pending)" {
					t.Fatalf("create: %q %v", text, isErr)
				}
			} else {
				for _, id := range []string{"3", `"four"`} {
					if text, isErr := toolText(t, got[id]); !isErr || !strings.Contains(text, "state.json") {
						t.Fatalf("call %s on a broken state: %q isError %v", id, text, isErr)
					}
				}
			}
			<-p.exited
			if p.err != nil {
				t.Fatalf("exit: %v", p.err)
			}
		})
	}
}

func keys(m map[string]message) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}

// TestStdioEOFExitsAndFreesLock: stdin EOF ends the
// server promptly with status 0 and no lock held.
func TestStdioEOFExitsAndFreesLock(t *testing.T) {
	root := newProject(t)
	p := startMCP(t, root, cleanEnv(), "--root", root)
	p.send(fmt.Sprintf(initMsg, "1"), initializedMsg, callMsg(2, `{"action":"create","subject":"a"}`))
	p.next(10 * time.Second)
	if m, _ := p.next(10 * time.Second); string(m.ID) != "2" {
		t.Fatalf("reply %s", m.ID)
	}
	closed := time.Now()
	p.stdin.Close()
	select {
	case <-p.exited:
	case <-time.After(time.Second):
		t.Fatal("server still running 1 s after stdin closed")
	}
	t.Logf("exited %v after EOF", time.Since(closed))
	if p.err != nil {
		t.Fatalf("exit status: %v", p.err)
	}
	assertUnlocked(t, root)
}

// TestStdioImmediateEOF is `planls mcp </dev/null`.
func TestStdioImmediateEOF(t *testing.T) {
	root := newProject(t)
	p := startMCP(t, root, cleanEnv(), "--root", root)
	p.stdin.Close()
	select {
	case <-p.exited:
	case <-time.After(time.Second):
		t.Fatal("server still running 1 s after an empty stdin closed")
	}
	if p.err != nil {
		t.Fatalf("exit status: %v", p.err)
	}
	if _, err := os.Stat(filepath.Join(root, ".planls")); !os.IsNotExist(err) {
		t.Fatalf("a session with no calls created .planls: %v", err)
	}
}

// assertUnlocked checks no process holds the state lock.
func assertUnlocked(t *testing.T, root string) {
	t.Helper()
	lock := filepath.Join(root, ".planls", "state.lock")
	if _, err := os.Stat(lock); os.IsNotExist(err) {
		return
	}
	fl := flock.New(lock)
	ok, err := fl.TryLock()
	if err != nil || !ok {
		t.Fatalf("state lock still held after exit: %v", err)
	}
	fl.Unlock()
}

// TestStdioAnswersRequestsReadBeforeEOF: a client that writes its calls and
// closes stdin at once still gets every answer, and every call is applied.
func TestStdioAnswersRequestsReadBeforeEOF(t *testing.T) {
	root := newProject(t)
	p := startMCP(t, root, cleanEnv(), "--root", root)
	msgs := []string{fmt.Sprintf(initMsg, "0"), initializedMsg}
	const n = 10
	for i := 1; i <= n; i++ {
		msgs = append(msgs, callMsg(i, fmt.Sprintf(`{"action":"create","subject":"task %d"}`, i)))
	}
	p.send(msgs...)
	p.stdin.Close()
	replies := p.drain(10 * time.Second)
	if len(replies) != n+1 {
		t.Fatalf("%d replies to %d requests", len(replies), n+1)
	}
	<-p.exited
	st := readState(t, root)
	if len(st.Tasks) != n {
		t.Fatalf("%d tasks applied, want %d", len(st.Tasks), n)
	}
	// Pipelined calls apply in the order they were sent.
	for i, task := range st.Tasks {
		if want := fmt.Sprintf("task %d", task.ID); task.Subject != want || task.ID != i+1 {
			t.Fatalf("task #%d is %q; calls were applied out of order", task.ID, task.Subject)
		}
	}
	for i, m := range replies[1:] {
		if text, _ := toolText(t, m); text != fmt.Sprintf("Created #%d: task %d (pending)", i+1, i+1) {
			t.Fatalf("reply %d: %q", i, text)
		}
	}
}

// TestStdioSIGKILLLeavesNoLock covers a server killed
// mid-session must not block the next writer.
func TestStdioSIGKILLLeavesNoLock(t *testing.T) {
	root := newProject(t)
	p := startMCP(t, root, cleanEnv(), "--root", root)
	msgs := []string{fmt.Sprintf(initMsg, "1"), initializedMsg}
	for i := 2; i < 40; i++ {
		msgs = append(msgs, callMsg(i, `{"action":"create","subject":"x"}`))
	}
	p.send(msgs...)
	p.next(10 * time.Second)
	p.next(10 * time.Second) // at least one write has happened
	p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.exited

	done := make(chan error, 1)
	go func() {
		res, err := store.Open(root, "cli").Call(context.Background(), json.RawMessage(`{"action":"create","subject":"after kill"}`), core.Options{})
		if err == nil && res.Envelope.IsError() {
			err = fmt.Errorf("%s", res.Envelope.Text())
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("write after SIGKILL: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("write after SIGKILL hung on the dead server's lock")
	}
	assertUnlocked(t, root)
}

// TestStdioCwdSlash: started in / with no root, every
// call fails naming where it looked, and nothing is created.
func TestStdioCwdSlash(t *testing.T) {
	_, statErr := os.Stat("/.planls")
	existed := statErr == nil
	p := startMCP(t, "/", cleanEnv())
	p.send(fmt.Sprintf(initMsg, "1"), initializedMsg,
		callMsg(2, `{"action":"update","id":1,"status":"completed","evidence":"done"}`),
		callMsg(3, `{"action":"list"}`))
	p.next(10 * time.Second)
	for _, id := range []string{"2", "3"} {
		m, _ := p.next(10 * time.Second)
		if string(m.ID) != id {
			t.Fatalf("reply %s, want %s", m.ID, id)
		}
		text, isErr := toolText(t, m)
		if !isErr {
			t.Fatalf("call in / answered %q", text)
		}
		// Each place looked is named once.
		const want = "Error: no planls project found: --root not given, $PLANLS_ROOT not set, MCP roots (the client offers no roots), " +
			"and no .planls/ or .git in the working directory / or above it. Start the server with --root DIR, set PLANLS_ROOT, or start it inside a project"
		if text != want {
			t.Errorf("error\n got  %q\n want %q", text, want)
		}
		// docs/AGENTS.md quotes this error; it must stay the binary's.
		if doc, err := os.ReadFile(filepath.Join("..", "docs", "AGENTS.md")); err != nil || !strings.Contains(string(doc), "\n"+want+"\n") {
			t.Errorf("docs/AGENTS.md does not quote the error as the server says it (%v)", err)
		}
	}
	p.stdin.Close()
	<-p.exited
	if _, err := os.Stat("/.planls"); err == nil && !existed {
		t.Fatal("the server created /.planls")
	}
}

// TestStdioReadOnlyFlag checks the flag reaches the server.
func TestStdioReadOnlyFlag(t *testing.T) {
	root := newProject(t)
	p := startMCP(t, root, cleanEnv(), "--root", root, "--read-only")
	p.send(fmt.Sprintf(initMsg, "1"), initializedMsg, callMsg(2, `{"action":"create","subject":"a"}`))
	p.next(10 * time.Second)
	m, _ := p.next(10 * time.Second)
	if text, isErr := toolText(t, m); !isErr || !strings.Contains(strings.ToLower(text), "read-only") {
		t.Fatalf("--read-only create answered %q", text)
	}
	p.stdin.Close()
	<-p.exited
	if _, err := os.Stat(filepath.Join(root, ".planls")); !os.IsNotExist(err) {
		t.Fatal("--read-only server created .planls")
	}
}

// TestStdioRootFromEnv checks PLANLS_ROOT reaches the server.
func TestStdioRootFromEnv(t *testing.T) {
	root := newProject(t)
	p := startMCP(t, "/", cleanEnv("PLANLS_ROOT="+root))
	p.send(fmt.Sprintf(initMsg, "1"), initializedMsg, callMsg(2, `{"action":"create","subject":"a"}`))
	p.next(10 * time.Second)
	m, _ := p.next(10 * time.Second)
	if text, isErr := toolText(t, m); isErr {
		t.Fatalf("create with PLANLS_ROOT: %q", text)
	}
	p.stdin.Close()
	<-p.exited
	if st := readState(t, root); len(st.Tasks) != 1 {
		t.Fatalf("%d tasks in $PLANLS_ROOT", len(st.Tasks))
	}
}

// TestStdioRootsListOldProtocol: a 2025-06-18 client started in / that
// announces its workspace through roots/list gets its project used.
func TestStdioRootsListOldProtocol(t *testing.T) {
	proj := newProject(t)
	p := startMCP(t, "/", cleanEnv())
	p.roots = fmt.Sprintf(`{"roots":[{"uri":"https://example.invalid/x"},{"uri":%q,"name":"proj"}]}`, fileURI(proj))
	p.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"roots":{"listChanged":true}},"clientInfo":{"name":"raw-test","version":"0"}}}`,
		initializedMsg, callMsg(2, `{"action":"create","subject":"a"}`))
	p.next(10 * time.Second)
	m, _ := p.next(10 * time.Second)
	if text, isErr := toolText(t, m); isErr || text != "Created #1: a (pending)" {
		t.Fatalf("create with client roots: %q", text)
	}
	p.stdin.Close()
	<-p.exited
	if st := readState(t, proj); len(st.Tasks) != 1 {
		t.Fatalf("%d tasks in the client's root", len(st.Tasks))
	}
}

// TestConcurrentWritersLoseNothing is from the MCP side:
// each round the MCP server and another writer (the CLI's path, the store
// in this process) change different tasks at once; both changes survive.
func TestConcurrentWritersLoseNothing(t *testing.T) {
	root := newProject(t)
	p := startMCP(t, root, cleanEnv(), "--root", root)
	p.send(fmt.Sprintf(initMsg, "0"), initializedMsg,
		callMsg(1, `{"ops":[{"action":"create","subject":"a"},{"action":"create","subject":"b"}]}`))
	p.next(10 * time.Second)
	p.next(10 * time.Second)
	cli := store.Open(root, "cli")
	const rounds = 25
	for i := 0; i < rounds; i++ {
		errc := make(chan error, 1)
		go func() {
			res, err := cli.Call(context.Background(), json.RawMessage(fmt.Sprintf(`{"action":"update","id":2,"note":"cli-%d"}`, i)), core.Options{})
			if err == nil && res.Envelope.IsError() {
				err = fmt.Errorf("%s", res.Envelope.Text())
			}
			errc <- err
		}()
		p.send(callMsg(100+i, fmt.Sprintf(`{"action":"update","id":1,"note":"mcp-%d"}`, i)))
		m, _ := p.next(10 * time.Second)
		if text, isErr := toolText(t, m); isErr {
			t.Fatalf("round %d: MCP update: %s", i, text)
		}
		if err := <-errc; err != nil {
			t.Fatalf("round %d: other writer: %v", i, err)
		}
		st := readState(t, root)
		if a, b := taskByID(t, st, 1).Note, taskByID(t, st, 2).Note; a != fmt.Sprintf("mcp-%d", i) || b != fmt.Sprintf("cli-%d", i) {
			t.Fatalf("round %d: lost update: #1 note %q, #2 note %q", i, a, b)
		}
	}
}

// TestStdioNoRootsCapabilityIsNotAsked: a client that declares no roots
// capability is never sent roots/list (asking would stall its first call until
// the roots timeout); the project comes from the working directory.
func TestStdioNoRootsCapabilityIsNotAsked(t *testing.T) {
	proj := newProject(t)
	p := startMCP(t, proj, cleanEnv())
	p.send(fmt.Sprintf(initMsg, "1"), initializedMsg, callMsg(2, `{"action":"create","subject":"a"}`))
	p.next(10 * time.Second)
	m, _ := p.next(10 * time.Second)
	if text, isErr := toolText(t, m); isErr || text != "Created #1: a (pending)" {
		t.Fatalf("create from the working directory's project: %q", text)
	}
	if len(p.requests) != 0 {
		t.Fatalf("server sent %v to a client without the roots capability", p.requests)
	}
	p.stdin.Close()
	<-p.exited
}
