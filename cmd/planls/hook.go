package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

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
// Stop hook, exit 2 would itself block the agent. It blocks the stop (once:
// when stop_hook_active is true the agent is already continuing because of
// this hook, so it is let go, as the seed's wrap-up) while plan items are
// open or closed without proof, and when the project's state cannot be read,
// since then nothing proves the work is done. Outside a project, or with no
// plan ever approved, it lets go silently. Input that is not JSON is read as
// {} (the process's working directory), never as a reason to let go.
func runClaudeHook(cmd *cobra.Command) error {
	errw := cmd.ErrOrStderr()
	data, err := io.ReadAll(cmd.InOrStdin())
	if err != nil {
		fmt.Fprintln(errw, "planls: hook input:", err)
	}
	var in claudeStopInput
	if len(data) > 0 {
		if err := json.Unmarshal(data, &in); err != nil {
			fmt.Fprintln(errw, "planls: hook input is not JSON, using the working directory:", err)
			in = claudeStopInput{}
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
		return blockStop(cmd, stateUnreadableReason(err))
	}
	reason := hookReason(st)
	if reason == "" {
		return nil
	}
	return blockStop(cmd, reason)
}

// stateUnreadableReason is the block reason when the state cannot be used.
func stateUnreadableReason(err error) string {
	return "planls: the plan state cannot be read: " + err.Error() +
		". Fix it (planls doctor) before telling the user the work is done."
}

// hookReason is core.Reminder's text followed by the plan items closed
// without their proof, or "" when neither applies.
func hookReason(st *core.State) string {
	var lines []string
	for _, t := range st.Tasks {
		if t.Source == "plan" && closedWithoutProof(t) {
			lines = append(lines, fmt.Sprintf("- #%d %s (%s)", t.ID, term(t.Subject), missingProof(t)))
		}
	}
	reason := core.Reminder(st)
	if len(lines) == 0 {
		return reason
	}
	var b strings.Builder
	if reason != "" {
		b.WriteString(strings.TrimRight(reason, "\n"))
		b.WriteString("\n\n")
	}
	b.WriteString("Plan items closed without proof (state.json edited by hand?); they count as open. " +
		"Close each with planls todo complete N --evidence ... or planls todo defer N --reason ...:\n")
	b.WriteString(strings.Join(lines, "\n"))
	b.WriteString("\n")
	return b.String()
}

// blockStop prints the Stop hook's block decision.
func blockStop(cmd *cobra.Command, reason string) error {
	enc := json.NewEncoder(cmd.OutOrStdout())
	enc.SetEscapeHTML(false)
	return enc.Encode(claudeBlock{Decision: "block", Reason: reason})
}
