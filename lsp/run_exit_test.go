package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// framed is msgs as LSP frames.
func framed(msgs ...map[string]any) string {
	var b strings.Builder
	for _, m := range msgs {
		data, _ := json.Marshal(m)
		fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n%s", len(data), data)
	}
	return b.String()
}

// TestRunInputEnds: Run names what the client did when its input ends
// before exit, instead of returning the bare EOF.
func TestRunInputEnds(t *testing.T) {
	init := map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}}}
	shutdown := map[string]any{"jsonrpc": "2.0", "id": 2, "method": "shutdown"}
	exit := map[string]any{"jsonrpc": "2.0", "method": "exit"}
	for _, tc := range []struct {
		name, in string
		want     error
	}{
		{"shutdown and exit then EOF", framed(init, shutdown, exit), nil},
		{"exit then EOF", framed(init, exit), ErrExitWithoutShutdown},
		{"exit before shutdown", framed(init, exit, shutdown), ErrExitWithoutShutdown},
		{"shutdown then EOF", framed(init, shutdown), ErrClosedAfterShutdown},
		{"empty input", "", ErrClientClosed},
		{"truncated frame", "Content-Length: 100\r\n\r\n{", ErrClientClosed},
		{"truncated header", "Content-Len", ErrClientClosed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() { done <- Run(context.Background(), strings.NewReader(tc.in), io.Discard, nil) }()
			select {
			case err := <-done:
				if (tc.want == nil) != (err == nil) || !errors.Is(err, tc.want) {
					t.Fatalf("Run: %v, want %v", err, tc.want)
				}
			case <-time.After(waitTimeout):
				t.Fatal("Run did not return at the end of its input")
			}
		})
	}
}

// TestBinaryServeEndMessages runs `planls serve` to each way a session can
// end: exit status per the LSP spec, and a stderr line saying what the
// client did (never a bare "EOF").
func TestBinaryServeEndMessages(t *testing.T) {
	bin := planlsBinary(t)
	init := map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}}}
	initialized := map[string]any{"jsonrpc": "2.0", "method": "initialized", "params": map[string]any{}}
	shutdown := map[string]any{"jsonrpc": "2.0", "id": 2, "method": "shutdown"}
	exit := map[string]any{"jsonrpc": "2.0", "method": "exit"}
	for _, tc := range []struct {
		name    string
		in      string
		code    int
		message string // the "planls serve:" line on stderr; "" = none
	}{
		{"no input", "", 1, "planls serve: the client closed the connection without shutdown"},
		{"closed mid-session", framed(init, initialized), 1, "planls serve: the client closed the connection without shutdown"},
		{"closed after shutdown", framed(init, initialized, shutdown), 1, "planls serve: the client closed the connection after shutdown without sending exit"},
		{"shutdown and exit", framed(init, initialized, shutdown, exit), 0, ""},
		{"exit without shutdown", framed(init, initialized, exit), 1, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(bin, "serve")
			cmd.Dir = t.TempDir()
			cmd.Stdin = strings.NewReader(tc.in)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			err := cmd.Run()
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, l := range strings.Split(stderr.String(), "\n") {
				if strings.HasPrefix(l, "planls serve:") {
					got = append(got, l)
				}
			}
			want := []string{}
			if tc.message != "" {
				want = append(want, tc.message)
			}
			if code != tc.code || strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("exit %d with %q; want exit %d with %q\nstderr:\n%s", code, got, tc.code, want, stderr.String())
			}
		})
	}
}
