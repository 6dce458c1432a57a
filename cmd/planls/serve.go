package main

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/planls/planls/lsp"
)

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
			if os.Getenv("GOGC") == "" {
				debug.SetGCPercent(lsp.GCPercent)
			}
			log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
			// A client that stops its server with a signal instead of
			// shutdown (ALE's job_stop: SIGTERM, then SIGKILL 100 ms later)
			// ends the session as a closed input does: watchers stopped,
			// exit 1.
			ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGTERM, os.Interrupt)
			defer stop()
			err := lsp.Run(ctx, os.Stdin, os.Stdout, log)
			if err == nil {
				return nil
			}
			if !errors.Is(err, lsp.ErrExitWithoutShutdown) && ctx.Err() == nil {
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
