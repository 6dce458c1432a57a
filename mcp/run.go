// Package mcp is the planls MCP stdio server exposing one tool, `todo`, a thin
// adapter over core and store.
package mcp

import (
	"context"
	"errors"
	"io"
)

// Options configure the MCP server.
type Options struct {
	Root        string // explicit workspace root (--root); "" = PLANLS_ROOT, MCP roots, cwd
	ReadOnly    bool   // serve only list/get (memory:read scope)
	NoDeleteAll bool   // refuse delete_all
}

// Run serves MCP over in/out until in closes. Nothing but protocol messages is
// written to out; logs go to logw.
func Run(ctx context.Context, in io.Reader, out io.Writer, logw io.Writer, opts Options) error {
	return errors.New("not implemented")
}
