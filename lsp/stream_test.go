package lsp

import (
	"bufio"
	"bytes"
	"io"
	"log/slog"
	"strings"
	"testing"
)

// memConn is an in-memory connection: writes go to w.
type memConn struct {
	io.Reader
	w *bytes.Buffer
}

func (c memConn) Write(p []byte) (int, error) { return c.w.Write(p) }
func (c memConn) Close() error                { return nil }

// TestWriteRawFramesParts: a message written in parts, large ones
// written as they are, is one frame whose body is the parts in order.
func TestWriteRawFramesParts(t *testing.T) {
	big := strings.Repeat("x", 70<<10)
	for _, parts := range [][]string{
		{`{"a":1}`},
		{`{"jsonrpc":"2.0","id":`, `7`, `,"result":`, `"` + big + `"`, `}`},
		{`"` + big, big + `"`},
	} {
		var out bytes.Buffer
		s := newStream(memConn{strings.NewReader(""), &out}, slog.New(slog.DiscardHandler))
		var bs [][]byte
		for _, p := range parts {
			bs = append(bs, []byte(p))
		}
		n, err := s.writeRaw(bs...)
		if err != nil || int(n) != out.Len() {
			t.Fatalf("wrote %d of %d bytes: %v", n, out.Len(), err)
		}
		r := &stream{in: bufio.NewReader(&out), log: slog.New(slog.DiscardHandler)}
		body, _, err := r.readFrame()
		if want := strings.Join(parts, ""); err != nil || string(body) != want {
			t.Fatalf("frame body %d bytes (%v), want %d", len(body), err, len(want))
		}
		if out.Len() != 0 {
			t.Fatalf("%d bytes after the frame", out.Len())
		}
	}
}
