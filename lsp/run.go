// Package lsp is the planls language server: a thin adapter from LSP
// (go.lsp.dev/protocol v0.12.0 types over go.lsp.dev/jsonrpc2 v0.10.0) to
// core and store. See docs/PROTOCOL.md for what editors rely on.
//
// Shape: stream.go frames messages, dispatch.go queues and routes them (one
// worker, arrival order, panics recovered), server.go holds the session and
// the workspace folders, and one file per LSP area turns folder snapshots into
// protocol values. Byte offsets are the domain's unit; mapper.go converts them
// to the negotiated position encoding at the edge.
package lsp

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
)

// ErrExitWithoutShutdown is returned by Run when the client sent exit before
// shutdown (LSP: the server then exits with code 1).
var ErrExitWithoutShutdown = errors.New("exit without shutdown")

// options tune a session; tests shorten the delays and replace git.
type options struct {
	debounce    time.Duration // quiet time after a file event before re-reading
	retryDelay  time.Duration // wait before re-reading a state file that did not parse
	retries     int           // re-reads of a broken state file before reporting it
	askTimeout  time.Duration // bound on window/showMessageRequest
	callTimeout time.Duration // bound on other server→client requests
	// gitHead returns "abc1234 subject" for the repository at dir, or "".
	gitHead func(dir string) string
	// noFSWatch disables fsnotify (tests that drive didChangeWatchedFiles).
	noFSWatch bool
	// onStart, when set, sees the session's server (tests inspect it).
	onStart func(*server)
}

func defaultOptions() options {
	return options{
		debounce:    40 * time.Millisecond,
		retryDelay:  60 * time.Millisecond,
		retries:     3,
		askTimeout:  10 * time.Minute,
		callTimeout: 10 * time.Second,
		gitHead:     gitHead,
	}
}

// Run serves one LSP session over in/out (stdio for `planls serve`) until the
// client sends exit or in closes. Logs go to logw. It returns nil after a
// clean shutdown+exit, ErrExitWithoutShutdown after an exit without shutdown,
// and the read error (e.g. io.EOF wrapped) when in closes first.
func Run(ctx context.Context, in io.Reader, out io.Writer, logw io.Writer) error {
	return run(ctx, rwc{in: in, out: out}, logw, defaultOptions())
}

func run(ctx context.Context, conn io.ReadWriteCloser, logw io.Writer, opts options) error {
	if logw == nil {
		logw = io.Discard
	}
	log := slog.New(slog.NewTextHandler(logw, &slog.HandlerOptions{Level: slog.LevelInfo}))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	st := newStream(conn, log)
	jc := jsonrpc2.NewConn(st)
	s := newServer(ctx, jc, log, opts)
	s.raw = st.writeRaw
	if opts.onStart != nil {
		opts.onStart(s)
	}
	d := newDispatcher(log, s.handle)
	s.laterChange = d.queuedChange
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); d.run() }()
	jc.Go(ctx, d.onMessage)
	select {
	case <-jc.Done():
	case <-ctx.Done():
		closeConn(jc)
	case <-s.exited:
		closeConn(jc)
	}
	d.stop()
	wg.Wait()
	s.close()
	select {
	case <-s.exited:
		if s.shutdownSeen() {
			return nil
		}
		return ErrExitWithoutShutdown
	default:
	}
	if err := jc.Err(); err != nil {
		return err
	}
	return ctx.Err()
}

// closeConn closes the connection and waits briefly for its read loop. Closing
// a blocking stdin does not interrupt a read in progress, so the wait is
// bounded: the process is about to exit anyway.
func closeConn(jc jsonrpc2.Conn) {
	_ = jc.Close()
	select {
	case <-jc.Done():
	case <-time.After(200 * time.Millisecond):
	}
}

// rwc joins stdin and stdout; Close closes whichever side can be closed so a
// blocked read ends.
type rwc struct {
	in  io.Reader
	out io.Writer
}

func (c rwc) Read(p []byte) (int, error)  { return c.in.Read(p) }
func (c rwc) Write(p []byte) (int, error) { return c.out.Write(p) }
func (c rwc) Close() error {
	var err error
	if cl, ok := c.in.(io.Closer); ok {
		err = cl.Close()
	}
	if cl, ok := c.out.(io.Closer); ok {
		err = errors.Join(err, cl.Close())
	}
	return err
}

// newDiscardLogger is a logger that drops everything.
func newDiscardLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }
