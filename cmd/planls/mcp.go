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

A result's content[0].text is the seed's text; its structuredContent holds the tasks the call
changed or showed. Claude Code and Codex CLI show the model structuredContent instead of the text
when both are there, so by default (--structured-content auto) those two clients, known by their
clientInfo name, get the text alone; always or never decide for every client.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var err error
			if opts.Structured, err = mcp.ParseStructured(structured); err != nil {
				return usageErr{err}
			}
			// stdout carries the protocol only (field case B32): keep the
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
	cmd.Flags().StringVar(&structured, "structured-content", "auto", "which clients get structuredContent: auto (all but Claude Code and Codex, which show it to the model instead of the text), always, never")
	cmd.Flags().BoolVar(&opts.NoDeleteAll, "no-delete-all", false, "refuse delete_all even when confirmed")
	return cmd
}
