package verify

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/planls/planls/core"
)

// maxOutput is how much of a command's output a failure quotes (bytes,
// from the end: the last lines say why).
const maxOutput = 400

// commandCheck re-runs a backticked command with opts.Runner when there is
// one; bare commands ("npm test: 42 passed") and commands without a runner
// are named but not checked.
func commandCheck(ctx context.Context, root string, ref core.EvidenceRef, opts Options) Check {
	c := Check{Ref: ref}
	switch {
	case !ref.Backticked:
		c.State, c.Detail = Unverifiable, fmt.Sprintf("command %s: not run (only backticked commands are re-run)", ref.Command)
		return c
	case opts.Runner == nil:
		c.State, c.Detail = Unverifiable, fmt.Sprintf("command `%s`: not run (pass --run to re-run it)", ref.Command)
		return c
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	code, out, err := opts.Runner(ctx, root, ref.Command, timeout)
	want := "exit 0"
	switch {
	case ref.Exit == core.ExpectNonZero:
		want = "a non-zero exit"
	case ref.Exit > 0:
		want = fmt.Sprintf("exit %d", ref.Exit)
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		c.State, c.Detail = Failed, fmt.Sprintf("command `%s` timed out after %s", ref.Command, timeout)
	case err != nil:
		c.State, c.Detail = Failed, fmt.Sprintf("command `%s` could not run: %v", ref.Command, err)
	case code == ref.Exit, ref.Exit == core.ExpectNonZero && code != 0:
		c.State, c.Detail = Verified, fmt.Sprintf("command `%s` exited %d as stated", ref.Command, code)
	default:
		c.State, c.Detail = Failed, fmt.Sprintf("command `%s` exited %d, the evidence states %s%s", ref.Command, code, want, tail(out))
	}
	return c
}

// tail quotes the end of a command's output.
func tail(out []byte) string {
	s := strings.TrimSpace(string(out))
	if s == "" {
		return ""
	}
	if len(s) > maxOutput {
		s = "…" + strings.ToValidUTF8(s[len(s)-maxOutput:], "")
	}
	return ": " + strings.Join(strings.Fields(s), " ")
}
