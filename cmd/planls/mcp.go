package main

import (
	"github.com/spf13/cobra"
)

// newMCPCmd is `planls mcp`: the MCP stdio server (owned by the MCP work).
func newMCPCmd() *cobra.Command {
	return &cobra.Command{Use: "mcp", Short: "Run the MCP server (tool: todo) over stdio"}
}
