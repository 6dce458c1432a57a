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
	"runtime/debug"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/planls/planls/core"
	"github.com/planls/planls/verify"
)

// ErrExitWithoutShutdown is returned by Run when the client sent exit before
// shutdown (LSP: the server then exits with code 1).
var ErrExitWithoutShutdown = errors.New("exit without shutdown")

// ErrClientClosed is returned by Run when the input ends (EOF) before the
// client sent exit and shutdown; ErrClosedAfterShutdown when it ends after
// shutdown but before exit. LSP has the server exit with code 1 when exit
// does not follow shutdown; the messages say what the client did, where the
// bare read error only said "EOF".
var (
	ErrClientClosed        = errors.New("the client closed the connection without shutdown")
	ErrClosedAfterShutdown = errors.New("the client closed the connection after shutdown without sending exit")
)

// options tune a session; tests shorten the delays and replace git.
type options struct {
	debounce    time.Duration // quiet time after a file event before re-reading
	retryDelay  time.Duration // wait before re-reading a state file that did not parse
	retries     int           // re-reads of a broken state file before reporting it
	planSettle  time.Duration // how long a vanished or emptied plan may take to come back (settle.go)
	askTimeout  time.Duration // bound on window/showMessageRequest
	callTimeout time.Duration // bound on other server→client requests
	// gitHead returns the newest commit of the repository at dir that
	// touches files other than plan (slash-separated, relative to dir) and
	// .planls/, or the zero headCommit.
	gitHead func(ctx context.Context, dir, plan string) headCommit
	// verifyTasks verifies completed tasks in the workspace at root whose
	// approved plan file is plan (verify.Tasks without commands).
	verifyTasks func(ctx context.Context, root, plan string, tasks []core.Task) []verify.Result
	// noFSWatch disables fsnotify (tests that drive didChangeWatchedFiles).
	noFSWatch bool
	// onStart, when set, sees the session's server (tests inspect it).
	onStart func(*server)
	// onHandled, when set, sees the method of each message the worker has
	// finished, its reply already queued (tests wait on it).
	onHandled func(method string)
}

func defaultOptions() options {
	return options{
		debounce:    40 * time.Millisecond,
		retryDelay:  60 * time.Millisecond,
		retries:     3,
		planSettle:  500 * time.Millisecond,
		askTimeout:  10 * time.Minute,
		callTimeout: 10 * time.Second,
		gitHead:     gitHead,
		verifyTasks: func(ctx context.Context, root, plan string, tasks []core.Task) []verify.Result {
			return verify.Tasks(ctx, root, tasks, verify.Options{Plan: plan})
		},
	}
}

// Run serves one LSP session over in/out (stdio for `planls serve`) until the
// client sends exit or in closes, logging to log (nil: no logs). It returns
// nil after a clean shutdown+exit, ErrExitWithoutShutdown after an exit
// without shutdown, ErrClientClosed or ErrClosedAfterShutdown when in ends
// first, and any other read error as it is. Exit and shutdown count once
// read: input that ends right after them gives the same result as if they
// had been handled. Every goroutine the session started (worker, writer,
// watchers, timers, commands) has ended when it returns.
func Run(ctx context.Context, in io.Reader, out io.Writer, log *slog.Logger) error {
	return run(ctx, rwc{in: in, out: out}, log, defaultOptions())
}

func run(ctx context.Context, conn io.ReadWriteCloser, log *slog.Logger, opts options) error {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	wire := newStream(conn, log)
	jc := jsonrpc2.NewConn(wire)
	out := newOutbox()
	go out.run()
	s := newServer(ctx, jc, wire, out, log, opts)
	if opts.onStart != nil {
		opts.onStart(s)
	}
	d := newDispatcher(log, out, wire.ids, s.handle)
	s.laterChange = d.queuedChange
	d.handled = opts.onHandled
	d.rawReply = wire.replyRaw
	var wg sync.WaitGroup
	wg.Go(d.run)
	s.grp.goFn(func(ctx context.Context) { s.idle.run(ctx, idleRelease, debug.FreeOSMemory) })
	jc.Go(ctx, func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		s.idle.poke()
		return d.onMessage(ctx, reply, req)
	})
	select {
	case <-jc.Done():
	case <-ctx.Done():
		closeConn(jc)
	case <-s.exited:
		out.flush(200 * time.Millisecond) // the reply to shutdown, at least
		closeConn(jc)
	}
	d.stop()
	wg.Wait()
	s.close()
	out.close()
	s.grp.wait()
	select {
	case <-s.exited:
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.exitErr
	default:
	}
	if err := jc.Err(); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			// A client that writes shutdown and exit and closes its end at
			// once can see its input end before the queue reaches them; what
			// it sent decides the outcome, as if they had run.
			return d.endRead()
		}
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
