package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/planls/planls/core"
	"github.com/planls/planls/store"
)

// claudeStopInput is the part of Claude Code's Stop hook input planls reads.
type claudeStopInput struct {
	StopHookActive bool   `json:"stop_hook_active"`
	Cwd            string `json:"cwd"`
}

// claudeBlock is the Stop hook output that makes Claude continue.
type claudeBlock struct {
	Decision string `json:"decision"`
	Reason   string `json:"reason"`
}

// runClaudeHook is `planls check --hook claude`. It always exits 0: for a
// Stop hook, exit 2 would itself block the agent, and a hook failing outside
// a project or on a broken state must not trap anyone. Problems go to stderr.
// When stop_hook_active is true the agent is already continuing because of
// this hook, so it is let go (one reminder per stop, as the seed's wrap-up).
func runClaudeHook(cmd *cobra.Command) error {
	errw := cmd.ErrOrStderr()
	data, err := io.ReadAll(cmd.InOrStdin())
	if err != nil {
		fmt.Fprintln(errw, "planls: hook input:", err)
		return nil
	}
	var in claudeStopInput
	if len(data) > 0 {
		if err := json.Unmarshal(data, &in); err != nil {
			fmt.Fprintln(errw, "planls: hook input is not JSON:", err)
			return nil
		}
	}
	if in.StopHookActive {
		return nil
	}
	flag, _ := cmd.Flags().GetString("root")
	root, err := store.FindRoot(flag, in.Cwd)
	if err != nil {
		return nil // not a project: nothing to enforce
	}
	st, err := store.Open(root, actor).Read()
	if err != nil {
		fmt.Fprintln(errw, "planls:", err)
		return nil
	}
	reason := core.Reminder(st)
	if reason == "" {
		return nil
	}
	enc := json.NewEncoder(cmd.OutOrStdout())
	enc.SetEscapeHTML(false)
	return enc.Encode(claudeBlock{Decision: "block", Reason: reason})
}
