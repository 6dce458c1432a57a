package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// unsyncWriter appends without a lock: concurrent Writes are a data race
// the race detector reports, so the test proves the connection serializes.
type unsyncWriter struct{ buf bytes.Buffer }

func (w *unsyncWriter) Write(p []byte) (int, error) { return w.buf.Write(p) }

func newTestConn(t *testing.T, in io.Reader, out io.Writer, max int) *lineConn {
	t.Helper()
	c, err := lineTransport{in: io.NopCloser(in), out: out, log: testLogger(t), max: max}.Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c.(*lineConn)
}

// TestLineConnWritesDoNotInterleave: the server's replies, written from
// many goroutines, and the connection's own error replies come out as whole
// lines, each one JSON value.
func TestLineConnWritesDoNotInterleave(t *testing.T) {
	garbage := strings.Repeat("not json\n", 200)
	out := &unsyncWriter{}
	c := newTestConn(t, strings.NewReader(garbage), out, 1<<10)
	var wg sync.WaitGroup
	big := strings.Repeat("z", 70000)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 25; i++ {
				res, _ := json.Marshal(map[string]string{"text": big})
				resp := &jsonrpc.Response{ID: mustID(t, float64(g*1000+i)), Result: res}
				if err := c.Write(context.Background(), resp); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	if _, err := c.Read(context.Background()); err != io.EOF {
		t.Fatalf("read after garbage: %v, want EOF", err)
	}
	wg.Wait()
	lines := strings.Split(strings.TrimSuffix(out.buf.String(), "\n"), "\n")
	replies, errs := 0, 0
	for _, l := range lines {
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("output line is not one JSON value (%v): %.100q", err, l)
		}
		if _, ok := m["error"]; ok {
			errs++
		} else {
			replies++
		}
	}
	if replies != 200 || errs != 200 {
		t.Fatalf("%d replies and %d error replies, want 200 and 200", replies, errs)
	}
}

func mustID(t testing.TB, v any) jsonrpc.ID {
	id, err := jsonrpc.MakeID(v)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// TestLineConnBatchReplies: a batch's replies, the connection's errors for
// its bad elements and the server's replies in any order, go back as one
// array in the batch's order, once the last call is answered; notifications
// in it get none.
func TestLineConnBatchReplies(t *testing.T) {
	pr, pw := io.Pipe()
	out := &lockedBuffer{}
	c := newTestConn(t, pr, out, 0)
	go io.WriteString(pw, `[{"jsonrpc":"2.0","id":1,"method":"a"},7,{"jsonrpc":"2.0","method":"n"},{"jsonrpc":"2.0","id":"b","method":"b"}]`+"\n")
	var got []string
	for i := 0; i < 3; i++ {
		m, err := c.Read(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, m.(*jsonrpc.Request).Method)
	}
	if strings.Join(got, ",") != "a,n,b" {
		t.Fatalf("server got %v", got)
	}
	reply := func(id any, result string) {
		if err := c.Write(context.Background(), &jsonrpc.Response{ID: mustID(t, id), Result: json.RawMessage(result)}); err != nil {
			t.Fatal(err)
		}
	}
	reply("b", `"B"`)
	if s := out.String(); s != "" {
		t.Fatalf("wrote %q before the batch was complete", s)
	}
	reply(float64(1), `"A"`)
	want := `[{"jsonrpc":"2.0","id":1,"result":"A"},` + errLine("null", -32600, msgNotObject) + `,{"jsonrpc":"2.0","id":"b","result":"B"}]` + "\n"
	if s := out.String(); s != want {
		t.Fatalf("batch reply\n got  %s want %s", s, want)
	}
	// A later single call reusing an id answered in the batch is fine.
	go io.WriteString(pw, `{"jsonrpc":"2.0","id":1,"method":"again"}`+"\n")
	if m, err := c.Read(context.Background()); err != nil || m.(*jsonrpc.Request).Method != "again" {
		t.Fatalf("read %v %v", m, err)
	}
	pw.Close()
	if _, err := c.Read(context.Background()); err != io.EOF {
		t.Fatalf("after close: %v", err)
	}
}

// TestLineConnIDInUse: a call whose id is still being served is refused
// with a null id (a reply with the id would be taken for the first call's),
// alone or in a batch; once answered the id may be used again.
func TestLineConnIDInUse(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	out := &lockedBuffer{}
	c := newTestConn(t, pr, out, 0)
	send := func(s string) { go io.WriteString(pw, s+"\n") }
	send(`{"jsonrpc":"2.0","id":3,"method":"slow"}`)
	if _, err := c.Read(context.Background()); err != nil {
		t.Fatal(err)
	}
	inUse := errLine("null", -32600, "Invalid Request: request id 3 is already in use")
	send(`{"jsonrpc":"2.0","id":3,"method":"dup"}`)
	waitFor(t, out, inUse+"\n")
	send(`[{"jsonrpc":"2.0","id":3,"method":"dup"},{"jsonrpc":"2.0","id":3,"method":"dup"}]`)
	waitFor(t, out, inUse+"\n"+"["+inUse+","+inUse+"]\n")
	// A bad request echoing a busy id gets null too.
	send(`{"jsonrpc":"1.0","id":3,"method":"x"}`)
	waitFor(t, out, inUse+"\n"+"["+inUse+","+inUse+"]\n"+errLine("null", -32600, msgVersion)+"\n")
	if err := c.Write(context.Background(), &jsonrpc.Response{ID: mustID(t, float64(3)), Result: json.RawMessage(`{}`)}); err != nil {
		t.Fatal(err)
	}
	send(`{"jsonrpc":"2.0","id":3,"method":"again"}`)
	if m, err := c.Read(context.Background()); err != nil || m.(*jsonrpc.Request).Method != "again" {
		t.Fatalf("read %v %v", m, err)
	}
}

// TestLineConnCloseUnblocksRead: Close ends a Read waiting for input that
// never comes (the SDK's Connection contract).
func TestLineConnCloseUnblocksRead(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	c := newTestConn(t, pr, io.Discard, 0)
	done := make(chan error, 1)
	go func() { _, err := c.Read(context.Background()); done <- err }()
	time.Sleep(20 * time.Millisecond)
	c.Close()
	select {
	case err := <-done:
		if err != io.EOF {
			t.Fatalf("read after close: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Read still blocked after Close")
	}
}

// TestLineConnWriteErrorEndsInput: when stdout is gone the error replies
// cannot be written, and the session ends instead of reading on unheard.
func TestLineConnWriteErrorEndsInput(t *testing.T) {
	c := newTestConn(t, strings.NewReader("junk\n{\"jsonrpc\":\"2.0\",\"method\":\"n\"}\n"), failWriter{}, 0)
	if _, err := c.Read(context.Background()); err == nil || err == io.EOF || !strings.Contains(err.Error(), "stdout gone") {
		t.Fatalf("read: %v, want the write error", err)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, fmt.Errorf("stdout gone") }

// lockedBuffer is a bytes.Buffer safe for a writer and a polling reader.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// waitFor polls until out holds exactly want.
func waitFor(t *testing.T, out *lockedBuffer, want string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for out.String() != want {
		if time.Now().After(deadline) {
			t.Fatalf("output\n got  %q\n want %q", out.String(), want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestRunSurvivesMalformedInput runs the real server in process: bad lines
// between requests are answered, the requests around them are served, and
// Run returns nil at EOF.
func TestRunSurvivesMalformedInput(t *testing.T) {
	root := newProject(t)
	in := strings.Join([]string{
		fmt.Sprintf(initMsg, "1"),
		"\x00\x01\x02garbage",
		initializedMsg,
		"",
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"todo","arguments":{"action":"create","subject":"a"}}}`,
		`[{"jsonrpc":"2.0","id":3,"method":"ping"},{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"todo","arguments":{"action":"list"}}}]`,
	}, "\n") + "\n"
	var out lockedBuffer
	var logs lockedBuffer
	if err := Run(context.Background(), strings.NewReader(in), &out, &logs, Options{Root: root}); err != nil {
		t.Fatalf("Run: %v", err)
	}
	sc := bufio.NewScanner(strings.NewReader(out.String()))
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if len(lines) != 4 {
		t.Fatalf("%d output lines, want 4:\n%s", len(lines), out.String())
	}
	if want := errLine("null", -32700, `Parse error: invalid character '\x00' looking for beginning of value`); !contains(lines, want) {
		t.Fatalf("no parse error reply %s in\n%s", want, out.String())
	}
	var batch []map[string]json.RawMessage
	for _, l := range lines {
		if strings.HasPrefix(l, "[") {
			if err := json.Unmarshal([]byte(l), &batch); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(batch) != 2 || string(batch[0]["id"]) != "3" || string(batch[1]["id"]) != "4" || !strings.Contains(string(batch[1]["result"]), `#1 a`) {
		t.Fatalf("batch reply %v", batch)
	}
	if !strings.Contains(logs.String(), "level=WARN") || !strings.Contains(logs.String(), "Parse error") {
		t.Fatalf("no warning logged:\n%s", logs.String())
	}
	if st := readState(t, root); len(st.Tasks) != 1 || st.Tasks[0].Subject != "a" {
		t.Fatalf("state %+v", st.Tasks)
	}
}

func contains(lines []string, s string) bool {
	for _, l := range lines {
		if l == s {
			return true
		}
	}
	return false
}

// TestLineConnBatchWithoutCalls: a batch of notifications and responses
// owes no reply (JSON-RPC 2.0 §6) and reaches the server whole.
func TestLineConnBatchWithoutCalls(t *testing.T) {
	out := &lockedBuffer{}
	c := newTestConn(t, strings.NewReader(`[{"jsonrpc":"2.0","method":"n"},{"jsonrpc":"2.0","id":9,"result":{}}]`+"\n"), out, 0)
	m, err := c.Read(context.Background())
	if req, ok := m.(*jsonrpc.Request); err != nil || !ok || req.Method != "n" {
		t.Fatalf("first: %v %v", m, err)
	}
	m, err = c.Read(context.Background())
	if resp, ok := m.(*jsonrpc.Response); err != nil || !ok || resp.ID.Raw() != int64(9) {
		t.Fatalf("second: %#v %v", m, err)
	}
	if _, err := c.Read(context.Background()); err != io.EOF {
		t.Fatalf("third: %v", err)
	}
	if s := out.String(); s != "" {
		t.Fatalf("wrote %q for a batch without calls", s)
	}
}
