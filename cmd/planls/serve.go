package main

import (
	"github.com/spf13/cobra"
)

// newServeCmd is `planls serve`: the language server over stdio (owned by the LSP work).
func newServeCmd() *cobra.Command {
	return &cobra.Command{Use: "serve", Short: "Run the language server over stdio"}
}
