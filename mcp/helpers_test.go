//lint:file-ignore SA1019 the tests act as a client that announces roots

package mcp

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/planls/planls/core"
	"github.com/planls/planls/store"
)

// result is one tools/call answer as a test reads it.
type result struct {
	Text    string
	Notes   []string // content blocks after the seed's text (weak-evidence warnings)
	IsError bool
	Details gotDetails
	Raw     string // the whole CallToolResult as JSON
}

// gotDetails is _meta["planls/details"] decoded: core's details plus trimming.
type gotDetails struct {
	Action       string        `json:"action"`
	Params       any           `json:"params"`
	Tasks        []core.Task   `json:"tasks"`
	NextID       int           `json:"nextId"`
	Error        string        `json:"error"`
	Plan         *core.PlanRef `json:"plan"`
	Total        *int          `json:"total"`
	NextCursor   string        `json:"nextCursor"`
	TasksTrimmed bool          `json:"tasksTrimmed"`
	TasksInState int           `json:"tasksInState"`
}

// newProject makes a temp project (a directory with .git, as store.FindRoot
// recognises) and returns its absolute path.
func newProject(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// testLogger sends the server's logs to the test log so a failure shows them.
func testLogger(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(tWriter{t}, nil))
}

type tWriter struct{ t testing.TB }

func (w tWriter) Write(p []byte) (int, error) {
	w.t.Helper()
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// connect starts an in-process server and a Go SDK client over in-memory
// transports. roots, when given, are announced by the client (file:// URIs).
func connect(t testing.TB, opts Options, roots ...string) *sdk.ClientSession {
	t.Helper()
	return connectAs(t, "planls-test", opts, roots...)
}

// connectAs is connect with the client's clientInfo.name.
func connectAs(t testing.TB, name string, opts Options, roots ...string) *sdk.ClientSession {
	t.Helper()
	ctx := context.Background()
	var log *slog.Logger
	if _, ok := t.(*testing.B); ok {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	} else {
		log = testLogger(t)
	}
	srv := newServer(opts, log)
	st, ct := sdk.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	client := sdk.NewClient(&sdk.Implementation{Name: name, Version: "0"}, nil)
	for _, r := range roots {
		client.AddRoots(&sdk.Root{URI: r, Name: filepath.Base(r)})
	}
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

// call makes one tools/call of `todo` with args (a JSON object) and fails
// the test on a protocol error: every tool outcome must be a result.
func call(t testing.TB, cs *sdk.ClientSession, args string) result {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: toolName, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatalf("tools/call %s: protocol error %v", args, err)
	}
	return decodeResult(t, res)
}

func decodeResult(t testing.TB, res *sdk.CallToolResult) result {
	t.Helper()
	raw, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var r result
	r.Raw = string(raw)
	r.IsError = res.IsError
	// content[0] is the seed's text; a block after it is only ever a
	// weak-evidence warning (evidence_test.go).
	if len(res.Content) == 0 {
		t.Fatalf("want a content element, got %s", raw)
	}
	tc, ok := res.Content[0].(*sdk.TextContent)
	if !ok {
		t.Fatalf("content[0] is %T, want text", res.Content[0])
	}
	r.Text = tc.Text
	for _, c := range res.Content[1:] {
		n, ok := c.(*sdk.TextContent)
		if !ok || !(strings.HasPrefix(n.Text, "weak-evidence: ") || strings.Contains(n.Text, "only a person can reopen a completed task") ||
			strings.Contains(n.Text, " failed verification: ")) {
			t.Fatalf("content after the seed text is not a weak-evidence, failed-evidence or completed-final note: %s", raw)
		}
		r.Notes = append(r.Notes, n.Text)
	}
	if res.StructuredContent != nil {
		t.Fatalf("structuredContent without --structured-content always: %s", raw)
	}
	sc, err := json.Marshal(res.Meta[DetailsKey])
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(sc, &r.Details); err != nil {
		t.Fatalf("_meta[%s] %s: %v", DetailsKey, sc, err)
	}
	if r.IsError != (r.Details.Error != "") {
		t.Fatalf("isError %v but details.error %q", r.IsError, r.Details.Error)
	}
	if r.IsError && r.Text != "Error: "+r.Details.Error {
		t.Fatalf("error text %q does not carry details.error %q", r.Text, r.Details.Error)
	}
	return r
}

// readState reads the project's state through the real store.
func readState(t testing.TB, root string) *core.State {
	t.Helper()
	st, err := store.Open(root, "test").Read()
	if err != nil {
		t.Fatalf("read state: %v", err)
	}
	return st
}

// taskByID finds a task or fails.
func taskByID(t testing.TB, st *core.State, id int) core.Task {
	t.Helper()
	for _, task := range st.Tasks {
		if task.ID == id {
			return task
		}
	}
	t.Fatalf("no task #%d in state", id)
	return core.Task{}
}
