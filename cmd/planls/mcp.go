package main

import (
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/planls/planls/mcp"
)

// newMCPCmd is `planls mcp [--root DIR] [--read-only] [--no-delete-all]`:
// the MCP stdio server with the one tool `todo`. It exits 0 when stdin
// closes; the state lock is held only inside a call, so none is left behind.
func newMCPCmd() *cobra.Command {
	var opts mcp.Options
	var structured string
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Run the MCP server (tool: todo) over stdio",
		Long: `Run the MCP server over stdio. Its one tool, todo, lists, creates and closes plan items and todos
in the project's .planls/state.json.

The project root is --root, else $PLANLS_ROOT, else the client's MCP roots, else the project (a
directory with .git or .planls) above the working directory. Without one every call fails with an
error naming where it looked; no state is ever created outside a project.

A result's content is the seed's text, what the model reads; the details snapshot (the tasks the
call changed or showed) is in _meta["planls/details"]. Claude Code and Codex CLI, and any client
that prefers it, show the model structuredContent instead of the text when it is there, so it is
sent only with --structured-content always (for clients that read it in code), in place of _meta.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var err error
			if opts.Structured, err = mcp.ParseStructured(structured); err != nil {
				return usageErr{err}
			}
			// stdout carries the protocol only: keep the
			// real stdout for the transport and send any stray print from
			// this process to stderr.
			out := os.Stdout
			os.Stdout = os.Stderr
			defer func() { os.Stdout = out }()
			if os.Getenv("GOGC") == "" {
				debug.SetGCPercent(mcp.GCPercent)
			}
			opts.Version = version()
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return mcp.Run(ctx, os.Stdin, out, os.Stderr, opts)
		},
	}
	cmd.Flags().StringVar(&opts.Root, "root", "", "workspace root (default: $PLANLS_ROOT, the client's MCP roots, or the project above the working directory)")
	cmd.Flags().BoolVar(&opts.ReadOnly, "read-only", false, "serve only list and get; refuse every change")
	cmd.Flags().StringVar(&structured, "structured-content", "never", "also send the details as structuredContent: never, or always (agents such as Claude Code and Codex then show the model that JSON instead of the text)")
	cmd.Flags().BoolVar(&opts.NoDeleteAll, "no-delete-all", false, "refuse delete_all even when confirmed")
	return cmd
}
