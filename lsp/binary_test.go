package lsp

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// planlsBinary builds cmd/planls once per test run (or uses $PLANLS_BIN).
func planlsBinary(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("PLANLS_BIN"); p != "" {
		return p
	}
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "planls-bin-")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "planls")
		// Built as the README builds it: static (CGO_ENABLED=0), so the
		// process benchmarks measure the binary users run (the libc a cgo
		// build maps is 1.5 MB of its resident memory).
		build := exec.Command("go", "build", "-o", binPath, "../cmd/planls")
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		out, err := build.CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// frame writes one LSP message.
func frame(w io.Writer, v any) error {
	b, _ := json.Marshal(v)
	_, err := fmt.Fprintf(w, "Content-Length: %d\r\n\r\n%s", len(b), b)
	return err
}

// serveSession runs `planls serve`, sends msgs and returns the replies by id
// and the exit code. Each stdout message must be a framed JSON-RPC message.
func serveSession(t *testing.T, msgs []map[string]any) (map[float64]map[string]any, int) {
	t.Helper()
	cmd := exec.Command(planlsBinary(t), "serve")
	cmd.Dir = t.TempDir()
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	replies := map[float64]map[string]any{}
	readDone := make(chan error, 1)
	go func() {
		st := &stream{in: bufio.NewReader(stdout), log: slog.New(slog.DiscardHandler)}
		for {
			body, _, err := st.readFrame()
			if err != nil {
				readDone <- nil
				return
			}
			var m map[string]any
			if err := json.Unmarshal(body, &m); err != nil {
				readDone <- fmt.Errorf("stdout carried a non-JSON message %q", body)
				return
			}
			if id, ok := m["id"].(float64); ok && m["method"] == nil {
				replies[id] = m
			}
		}
	}()
	for _, m := range msgs {
		if err := frame(stdin, m); err != nil {
			t.Fatal(err)
		}
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	code := -1
	select {
	case err := <-waited:
		code = 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
	case <-time.After(waitTimeout):
		_ = cmd.Process.Kill()
		t.Fatalf("planls serve did not exit; stderr:\n%s", stderr.String())
	}
	if err := <-readDone; err != nil {
		t.Error(err)
	}
	return replies, code
}

func TestBinaryServeExitCodes(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "PLAN.md"), "# P\n\n## G\n- one\n")
	init := map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{
		"processId": nil, "rootUri": uriOf(root), "capabilities": map[string]any{}}}
	initialized := map[string]any{"jsonrpc": "2.0", "method": "initialized", "params": map[string]any{}}
	shutdown := map[string]any{"jsonrpc": "2.0", "id": 2, "method": "shutdown"}
	exit := map[string]any{"jsonrpc": "2.0", "method": "exit"}

	replies, code := serveSession(t, []map[string]any{init, initialized, shutdown, exit})
	if code != 0 {
		t.Errorf("shutdown+exit: exit code %d, want 0", code)
	}
	res, _ := replies[1]["result"].(map[string]any)
	caps, _ := res["capabilities"].(map[string]any)
	if caps["positionEncoding"] != "utf-16" || caps["codeActionProvider"] == nil || replies[2] == nil {
		t.Errorf("initialize reply %v, shutdown reply %v", replies[1], replies[2])
	}

	if _, code := serveSession(t, []map[string]any{init, initialized, exit}); code != 1 {
		t.Errorf("exit without shutdown: exit code %d, want 1", code)
	}
}

// `planls demo` with the embedded plan, from an unrelated directory.
func TestBinaryDemo(t *testing.T) {
	cmd := exec.Command(planlsBinary(t), "demo")
	cmd.Dir = t.TempDir()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("planls demo: %v\n%s", err, out)
	}
	for _, want := range []string{"Before approval:", "After approval: 7 open plan items", "Complete #1…  (planls.complete)", "After: 6 open plan items", "\nok: "} {
		if !strings.Contains(string(out), want) {
			t.Errorf("demo output lacks %q:\n%s", want, out)
		}
	}
	bad := exec.Command(planlsBinary(t), "demo", filepath.Join(t.TempDir(), "missing.md"))
	if err := bad.Run(); err == nil {
		t.Error("demo of a missing file exited 0")
	}
}

// The plan embedded for `planls demo` is examples/basic/PLAN.md.
func TestDemoPlanIsTheExample(t *testing.T) {
	a, err := os.ReadFile("../examples/basic/PLAN.md")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("../cmd/planls/demo_plan.md")
	if err != nil {
		t.Fatal(err)
	}
	if string(a) != string(b) {
		t.Error("cmd/planls/demo_plan.md differs from examples/basic/PLAN.md")
	}
}
