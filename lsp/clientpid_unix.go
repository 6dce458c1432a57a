//go:build unix

package lsp

import (
	"errors"
	"syscall"
)

// processAlive reports whether process pid exists (signal 0 is delivered
// nowhere; EPERM means it exists under another user).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
