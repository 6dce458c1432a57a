package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/planls/planls/core"
	"github.com/planls/planls/store"
)

// claudeStopInput is the part of Claude Code's Stop hook input planls reads.
type claudeStopInput struct {
	StopHookActive bool
	Cwd            string
}

// envClaudeProject is where Claude Code puts the session's project root; it
// is set for hooks whatever the hook's cwd.
const envClaudeProject = "CLAUDE_PROJECT_DIR"

// parseStopInput reads the hook input field by field, so one field of an
// unexpected type costs only that field: "stop_hook_active" may come as
// true or as the string "true" (some clients send every value as a
// string); anything else there counts as false. The returned warnings say
// what was ignored. Empty input is {}.
func parseStopInput(data []byte) (claudeStopInput, []string) {
	var in claudeStopInput
	if len(bytes.TrimSpace(data)) == 0 {
		return in, nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return in, []string{"hook input is not JSON, using the working directory: " + err.Error()}
	}
	var warn []string
	if raw, ok := fields["stop_hook_active"]; ok {
		var b bool
		var str string
		switch {
		case json.Unmarshal(raw, &b) == nil:
			in.StopHookActive = b
		case json.Unmarshal(raw, &str) == nil && (str == "true" || str == "false"):
			in.StopHookActive = str == "true"
		case string(raw) == "null":
		default:
			warn = append(warn, fmt.Sprintf("hook input: stop_hook_active is %s, not true or false; read as false", raw))
		}
	}
	if raw, ok := fields["cwd"]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &in.Cwd); err != nil {
			warn = append(warn, fmt.Sprintf("hook input: cwd is %s, not a string; ignored", raw))
		}
	}
	return in, warn
}

// hookRoot finds the project the hook enforces: --root when given (else
// $PLANLS_ROOT, as everywhere), then $CLAUDE_PROJECT_DIR, then the input's
// cwd, then the working directory. A session whose cwd is outside the
// project (or absent) still checks the project Claude Code runs in.
func hookRoot(flag, cwd string) (string, error) {
	if flag != "" || os.Getenv(store.EnvRoot) != "" {
		return store.FindRoot(flag, cwd)
	}
	if dir := os.Getenv(envClaudeProject); dir != "" {
		if root, err := store.FindRoot("", dir); err == nil {
			return root, nil
		}
	}
	return store.FindRoot("", cwd)
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
// plan ever approved, it lets go silently. The project is found by
// hookRoot ($CLAUDE_PROJECT_DIR before the input's cwd). Input that is not
// JSON is read as {} (the process's working directory), never as a reason
// to let go; a field of the wrong type loses only that field
// (parseStopInput).
func runClaudeHook(cmd *cobra.Command) error {
	errw := cmd.ErrOrStderr()
	data, err := io.ReadAll(cmd.InOrStdin())
	if err != nil {
		fmt.Fprintln(errw, "planls: hook input:", err)
	}
	in, warnings := parseStopInput(data)
	for _, w := range warnings {
		fmt.Fprintln(errw, "planls:", w)
	}
	if in.StopHookActive {
		return nil
	}
	flag, _ := cmd.Flags().GetString("root")
	root, err := hookRoot(flag, in.Cwd)
	if err != nil {
		return nil // not a project: nothing to enforce
	}
	st, err := store.Open(root, actor).Read()
	if err != nil {
		fmt.Fprintln(errw, "planls:", err)
		return blockStop(cmd, stateUnreadableReason(err))
	}
	var drift []driftItem
	var ticked string
	planName := defaultPlan
	if st.Plan != nil {
		v, err := loadPlanView(root, st)
		if err != nil {
			// The open items still block; only the drift is unknown.
			fmt.Fprintln(errw, "planls:", err)
		} else {
			drift = v.driftItems()
			if rel, err := filepath.Rel(root, v.abs); err == nil {
				planName = filepath.ToSlash(rel)
			}
			ticked = tickedReason(planName, v.openItems())
		}
	}
	reason := hookReason(st, planName, drift)
	if ticked != "" {
		reason = strings.TrimRight(reason, "\n") + "\n\n" + ticked
	}
	if failed := hookVerify(cmd, root, st); failed != "" {
		reason = strings.TrimRight(reason, "\n")
		if reason != "" {
			reason += "\n\n"
		}
		reason += failed
	}
	if reason == "" {
		return nil
	}
	return blockStop(cmd, reason)
}

// tickedReason lists the open items whose box is ticked in planName, with
// the editor's checked-not-completed text, or "" when there are none: a
// ticked box is not proof, so the agent is told to complete them properly.
func tickedReason(planName string, open []openItem) string {
	var b strings.Builder
	for _, o := range open {
		if o.Ticked {
			if b.Len() == 0 {
				fmt.Fprintf(&b, "Boxes ticked in %s whose plan items are still open (a ticked box is not proof):\n", planName)
			}
			fmt.Fprintf(&b, "- %s:%d: %s\n", planName, o.Line, core.TickedMessage(o.Task.ID))
		}
	}
	return b.String()
}

// stateUnreadableReason is the block reason when the state cannot be used.
func stateUnreadableReason(err error) string {
	return "planls: the plan state cannot be read: " + err.Error() +
		". Fix it (planls doctor) before telling the user the work is done."
}

// hookReason is core.Reminder's text followed by the plan items closed
// without their proof and by the bullets of planName (the plan file,
// relative to the root) new or changed since approval, or "" when none
// applies.
func hookReason(st *core.State, planName string, drift []driftItem) string {
	var lines []string
	for _, t := range st.Tasks {
		if t.Source == "plan" && closedWithoutProof(t) {
			lines = append(lines, fmt.Sprintf("- #%d %s (%s)", t.ID, subjectOf(t), missingProof(t)))
		}
	}
	var parts []string
	if r := core.Reminder(st); r != "" {
		parts = append(parts, strings.TrimRight(r, "\n"))
	}
	if len(lines) > 0 {
		parts = append(parts, "Plan items closed without proof (state.json edited by hand?); they count as open. "+
			"Close each with planls todo complete N --evidence ... or planls todo defer N --reason ...:\n"+
			strings.Join(lines, "\n"))
	}
	if len(drift) > 0 {
		parts = append(parts, driftReason(planName, drift))
	}
	reason := strings.Join(parts, "\n\n")
	if len(lines) > 0 || len(drift) > 0 {
		// The lists end with a newline, as core.Reminder's list does not.
		reason += "\n"
	}
	return reason
}

// driftReason tells the agent the plan file says more than, or other than,
// what the user approved. Approval is the user's decision, so the agent is
// told to ask for it and never to approve the plan itself.
func driftReason(planName string, drift []driftItem) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s has changed since the user approved it, so the work is not done against an approved plan. "+
		"Do not approve the plan yourself: tell the user what changed and ask them to review %s and re-approve it:\n", planName, planName)
	for _, d := range drift {
		if d.Text {
			fmt.Fprintf(&b, "- %s\n", textDrift)
			continue
		}
		if d.Kind == core.New {
			fmt.Fprintf(&b, "- line %d: not in the approved plan: %s\n", d.Line, term(d.Subject))
		} else {
			fmt.Fprintf(&b, "- line %d: plan item #%d changed since approval: %s\n", d.Line, d.TaskID, term(d.Subject))
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// blockStop prints the Stop hook's block decision.
func blockStop(cmd *cobra.Command, reason string) error {
	enc := json.NewEncoder(cmd.OutOrStdout())
	enc.SetEscapeHTML(false)
	return enc.Encode(claudeBlock{Decision: "block", Reason: reason})
}
