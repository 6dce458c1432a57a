//go:build !unix

package shell

import "os/exec"

// killGroup: without process groups, cancellation kills the shell only.
func killGroup(cmd *exec.Cmd) {}
