// Package lsp is the planls language server: a thin adapter from LSP
// (go.lsp.dev/protocol v0.12.0 over go.lsp.dev/jsonrpc2 v0.10.0) to core and
// store. See docs/PROTOCOL.md for what editors rely on.
package lsp

import (
	"context"
	"errors"
	"io"
)

// Run serves one LSP session over in/out (stdio for `planls serve`) until the
// client sends exit or in closes. Logs go to logw. It returns nil after a
// clean shutdown+exit.
func Run(ctx context.Context, in io.Reader, out io.Writer, logw io.Writer) error {
	return errors.New("not implemented")
}
