// Package shell runs one command line of a completed item's evidence with
// sh -c. It is the only code in planls that runs text taken from the state
// file, and only `planls verify --run` imports it, after listing each
// command and being told to run it (docs/VERIFY.md): the language server,
// the MCP server and the hooks cannot run a command, which a test checks by
// their imports.
package shell

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"time"
)

// Run runs line with sh -c in dir, its output (stdout and stderr) bounded by
// nothing but the timeout: on timeout the whole process group is killed, so
// a command's children do not outlive it, and err is
// context.DeadlineExceeded. exit is the exit status (-1 when the command
// did not end by itself); err is also set when sh could not start.
func Run(ctx context.Context, dir, line string, timeout time.Duration) (exit int, output []byte, err error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", line)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	killGroup(cmd)
	// Output pipes held open by a grandchild must not keep Wait waiting.
	cmd.WaitDelay = 2 * time.Second
	err = cmd.Run()
	if ctx.Err() == context.DeadlineExceeded {
		return -1, out.Bytes(), context.DeadlineExceeded
	}
	if ee, ok := errors.AsType[*exec.ExitError](err); ok {
		return ee.ExitCode(), out.Bytes(), nil
	}
	if err != nil {
		return -1, out.Bytes(), err
	}
	return 0, out.Bytes(), nil
}
