package lsp

import (
	"bytes"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startServe runs `planls serve` with its stdin kept open, after writing
// in, and waits for the first bytes of its answer (the server is up); it
// returns the command and its stderr.
func startServe(t *testing.T, in string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(planlsBinary(t), "serve")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	w, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Close(); _ = cmd.Process.Kill(); _, _ = cmd.Process.Wait() })
	if _, err := w.Write([]byte(in)); err != nil {
		t.Fatal(err)
	}
	first := make([]byte, 1)
	if _, err := io.ReadFull(out, first); err != nil {
		t.Fatalf("no answer from planls serve: %v", err)
	}
	go func() { _, _ = io.Copy(io.Discard, out) }()
	return cmd, &stderr
}

// waitExit waits for cmd and returns its exit code.
func waitExit(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
		return cmd.ProcessState.ExitCode()
	case <-time.After(waitTimeout):
		t.Fatal("planls serve did not exit")
	}
	return -1
}

// The server exits (1, saying why) when the client's process dies while
// its stdin stays open (an editor killed with -9 whose pipe lingers).
func TestBinaryServeExitsWhenClientDies(t *testing.T) {
	client := exec.Command("sleep", "60")
	if err := client.Start(); err != nil {
		t.Skip("no sleep binary:", err)
	}
	init := map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{"processId": client.Process.Pid, "rootUri": nil, "capabilities": map[string]any{}}}
	cmd, stderr := startServe(t, framed(init, map[string]any{"jsonrpc": "2.0", "method": "initialized", "params": map[string]any{}}))
	_ = client.Process.Kill()
	_ = client.Wait()
	if code := waitExit(t, cmd); code != 1 {
		t.Errorf("exit code %d, want 1", code)
	}
	if !strings.Contains(stderr.String(), "planls serve: the client process is gone") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
}

// SIGTERM (how ALE stops a server: it never sends shutdown) ends the
// session like a closed input: exit 1, no error line.
func TestBinaryServeSIGTERM(t *testing.T) {
	init := map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}}}
	cmd, stderr := startServe(t, framed(init))
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := waitExit(t, cmd); code != 1 {
		t.Errorf("exit code %d, want 1", code)
	}
	if strings.Contains(stderr.String(), "planls serve:") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
}
