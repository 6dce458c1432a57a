// Package mcp is the planls MCP stdio server exposing one tool, `todo`, a thin
// adapter over core and store.
//
// The tool takes rpiv-todo's parameters (`action` or `ops`) and the MCP todo tool's
// additions, passes them as raw JSON to core through the store (validation
// and every message are core's), and returns core's envelope: content[0].text
// as text content and details in _meta (and structuredContent with
// --structured-content always; structured.go says why not by default).
// Rejections are tool results with isError, never protocol errors.
package mcp

import (
	"cmp"
	"context"
	"errors"
	"io"
	"log/slog"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Options configure the MCP server.
type Options struct {
	Root        string // explicit workspace root (--root); "" = PLANLS_ROOT, MCP roots, cwd
	ReadOnly    bool   // serve only list/get (--read-only)
	NoDeleteAll bool   // refuse delete_all
	// Structured puts the details in structuredContent instead of _meta
	// (--structured-content always), for clients that read it in code and
	// never show it to a model. Claude Code and Codex CLI show the model a
	// result's structuredContent (as JSON) instead of its content text
	// whenever it is present, Codex for errors too, and any client may do
	// the same (the MCP spec leaves the choice to the client). The tool
	// declares no outputSchema, so structuredContent is optional: by default
	// a result is the seed's text as content, which every client shows the
	// model, and the details snapshot in _meta, which clients hand to
	// programs and not to the model.
	Structured bool
	// Version is reported as serverInfo.version; "" reports "dev".
	Version string
}

// Run serves MCP over in/out until in closes. Nothing but protocol messages is
// written to out; logs go to logw.
//
// It runs on the SDK's IOTransport behind a stdioGuard: it answers every
// request read before in closed, then returns nil; an error means the
// transport failed or ctx ended. A line that is not a JSON-RPC message (or
// a batch on protocol 2025-06-18 and later) gets a JSON-RPC error reply and
// a warning on logw, and the session goes on. Run does not touch
// os.Stdout: a caller serving on stdout must keep other writers off it.
func Run(ctx context.Context, in io.Reader, out io.Writer, logw io.Writer, opts Options) error {
	log := slog.New(slog.NewTextHandler(logw, &slog.HandlerOptions{Level: slog.LevelInfo}))
	s := newServer(opts, log)
	g := newStdioGuard(in, out, log)
	// The guard enforces the line cap itself, skipping over-long lines.
	err := s.Run(ctx, &sdk.IOTransport{Reader: g, Writer: g.out, MaxLineLength: -1})
	if err == nil || errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// GCPercent is the garbage collector's GOGC that `planls mcp` runs with
// when the user set none. The go-sdk decodes each JSON value it reads with a
// new decoder whose 32 KiB buffer is garbage at once, about nine per
// tools/call (~290 KB), so at Go's default of 100 the collector runs every
// dozen calls and takes 30-40% of the server's CPU. Measured with
// BenchmarkToolsCallGetStdio (3,000 gets): server CPU per call 0.23-0.29 ms
// at 100, 0.14-0.21 ms at 200 (0.15-0.17 at 400); resident memory after
// them 19.6 MB at 100, 23.8 MB at 200, 32 MB at 400. Only the SDK can
// remove the garbage itself.
const GCPercent = 200

// newServer builds the SDK server with the `todo` tool. The SDK's own
// logging is limited to warnings: its per-session info lines are noise on
// an agent's stderr.
func newServer(opts Options, log *slog.Logger) *sdk.Server {
	h := &handler{opts: opts, log: log, roots: map[*sdk.ServerSession]string{}}
	so := &sdk.ServerOptions{
		Logger:       slog.New(warnOnly{log.Handler()}),
		Instructions: "planls keeps this project's approved plan honest. Call the todo tool with {\"action\":\"list\"} before starting work.",
		// Only tools: no logging capability, so nothing but replies and the
		// tool list reaches the client.
		Capabilities: &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{}},
	}
	h.trackRoots(so)
	s := sdk.NewServer(&sdk.Implementation{Name: "planls", Version: cmp.Or(opts.Version, "dev")}, so)
	destructive := !opts.ReadOnly
	desc := toolDescription
	if opts.ReadOnly {
		// Said up front so an agent does not plan changes it cannot make.
		desc = readOnlyNote + desc
	}
	s.AddTool(&sdk.Tool{
		Name:        toolName,
		Title:       "planls plan items and todos",
		Description: desc,
		InputSchema: inputSchema(),
		Annotations: &sdk.ToolAnnotations{
			Title:           "planls todo",
			ReadOnlyHint:    opts.ReadOnly,
			DestructiveHint: &destructive,
			OpenWorldHint:   new(bool),
		},
	}, h.call)
	return s
}

// warnOnly drops records below Warn.
type warnOnly struct{ slog.Handler }

func (w warnOnly) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= slog.LevelWarn && w.Handler.Enabled(ctx, l)
}

func (w warnOnly) WithAttrs(a []slog.Attr) slog.Handler { return warnOnly{w.Handler.WithAttrs(a)} }
func (w warnOnly) WithGroup(n string) slog.Handler      { return warnOnly{w.Handler.WithGroup(n)} }
