package main

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/planls/planls/lsp"
)

// serveMemoryLimit is the soft memory limit of `planls serve` in bytes,
// unless GOMEMLIMIT is set (runtime/debug.SetMemoryLimit).
const serveMemoryLimit = 48 << 20

// newServeCmd is `planls serve`: the language server over stdio. Logs go to
// stderr; stdout carries only LSP messages. The process exits 0 after
// shutdown+exit and 1 otherwise (LSP "exit" notification), so it calls
// os.Exit itself rather than relying on the root's error mapping.
func newServeCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run the language server over stdio",
		Long: "Run the planls language server (LSP) over stdin/stdout for the approved plan of each workspace folder.\n" +
			"Exits 0 after shutdown and exit, 1 when the client exits without shutdown or the connection breaks.",
		Args:         cobra.NoArgs,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			lsp.Version = version()
			if os.Getenv("GOMEMLIMIT") == "" {
				// A soft limit keeps a long-lived server on a 10k-item plan under
				// ~60 MB resident: the GC works harder only near the limit.
				debug.SetMemoryLimit(serveMemoryLimit)
			}
			err := lsp.Run(cmd.Context(), os.Stdin, os.Stdout, os.Stderr)
			if err == nil {
				return nil
			}
			if !errors.Is(err, lsp.ErrExitWithoutShutdown) {
				fmt.Fprintln(os.Stderr, "planls serve:", err)
			}
			os.Exit(1)
			return nil
		},
	}
	// Clients add these when they spawn a server over stdio (vscode-languageclient
	// passes --stdio, and --clientProcessId for some transports); both are accepted
	// and ignored, stdio being the only transport.
	cmd.Flags().Bool("stdio", true, "speak LSP over stdin/stdout (the only transport)")
	cmd.Flags().Int("clientProcessId", 0, "accepted for client compatibility; ignored")
	_ = cmd.Flags().MarkHidden("clientProcessId")
	return cmd
}
