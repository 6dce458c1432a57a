package main

import (
	"github.com/spf13/cobra"
)

// newDemoCmd is `planls demo [PLAN.md]`: a real LSP session against `planls serve` (owned by the LSP work).
func newDemoCmd() *cobra.Command {
	return &cobra.Command{Use: "demo [PLAN.md]", Short: "Show what the language server reports for a plan"}
}
