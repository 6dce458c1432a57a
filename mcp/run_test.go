package mcp

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// TestRunServesUntilEOF drives Run itself over pipes: every request
// written before the input closes is answered, only JSON-RPC reaches out,
// logs go to logw, and Run returns nil at EOF.
func TestRunServesUntilEOF(t *testing.T) {
	root := newProject(t)
	inR, inW := io.Pipe()
	var out, logs bytes.Buffer
	done := make(chan error, 1)
	go func() { done <- Run(context.Background(), inR, &out, &logs, Options{Root: root}) }()
	fmt.Fprintln(inW, fmt.Sprintf(initMsg, `"i"`))
	fmt.Fprintln(inW, initializedMsg)
	fmt.Fprintln(inW, callMsg(1, `{"action":"create","subject":"a"}`))
	fmt.Fprintln(inW, callMsg(2, `{"action":"list"}`))
	inW.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after EOF")
	}
	var ids []string
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		ids = append(ids, string(decodeLine(t, sc.Bytes()).ID))
	}
	if strings.Join(ids, ",") != `"i",1,2` {
		t.Fatalf("replies %v; stdout:\n%s", ids, out.String())
	}
	if !strings.Contains(logs.String(), "project root") {
		t.Fatalf("logs went elsewhere: %q", logs.String())
	}
}

// TestRunStopsOnCancel: a cancelled context ends Run even while the input
// stays open.
func TestRunStopsOnCancel(t *testing.T) {
	inR, inW := io.Pipe()
	defer inW.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Run(ctx, inR, io.Discard, io.Discard, Options{Root: newProject(t)}) }()
	cancel()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("Run returned nil after cancellation; want the context's error")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run ignored cancellation")
	}
}
