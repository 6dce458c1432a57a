package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/planls/planls/core"
	"github.com/planls/planls/planparse"
	"github.com/planls/planls/store"
	"github.com/planls/planls/verify"
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
	planName := defaultPlan
	var v *planView
	if st.Plan != nil {
		if v, err = loadPlanView(root, st, verify.Verdicts(offlineResults(cmd.Context(), root, st))); err != nil {
			// The open items still block; only what the file says is unknown.
			fmt.Fprintln(errw, "planls:", err)
		} else if rel, err := filepath.Rel(root, v.abs); err == nil {
			planName = filepath.ToSlash(rel)
		}
	}
	reason := hookReason(st, planName, v)
	if reason == "" {
		return nil
	}
	return blockStop(cmd, reason)
}

// findingLines are the findings of rule in v, one "- " line each,
// placed with at ("" when v is nil or none applies).
func findingLines(v *planView, rule string, at func(line int, msg string) string) []string {
	if v == nil {
		return nil
	}
	var out []string
	for _, f := range v.an.Findings {
		if f.Rule == rule {
			out = append(out, at(v.line(f), core.NoControls(f.Message)))
		}
	}
	return out
}

// offlineResults verifies the completed plan items of st for check,
// status, the stop hook and the report: no command is run, and the git
// lookups end after 30 s; nil when there are none.
func offlineResults(ctx context.Context, root string, st *core.State) []verify.Result {
	tasks := verify.PlanItems(st)
	if len(tasks) == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	return verify.Tasks(ctx, root, tasks, verify.Options{Plan: st.PlanPath()})
}

// stateUnreadableReason is the block reason when the state cannot be used.
func stateUnreadableReason(err error) string {
	return "planls: the plan state cannot be read: " + err.Error() +
		". Fix it (planls doctor) before telling the user the work is done."
}

// hookReason is core.Reminder's text followed by the findings of v the
// agent must act on: plan items closed without their proof, plan drift in
// planName (the plan file, relative to the root), boxes ticked on open
// items and evidence that fails verification; "" when none applies.
func hookReason(st *core.State, planName string, v *planView) string {
	var parts []string
	reminder := core.Reminder(st, shownSubject)
	if reminder != "" {
		parts = append(parts, strings.TrimRight(reminder, "\n"))
	}
	list := func(head string, lines []string) {
		if len(lines) > 0 {
			parts = append(parts, head+"\n"+strings.Join(lines, "\n"))
		}
	}
	plain := func(_ int, msg string) string { return "- " + msg }
	list("Plan items closed without proof (state.json edited by hand?); they count as open. "+
		"Close each with planls todo complete N --evidence ... or planls todo defer N --reason ...:",
		findingLines(v, core.RuleNoProof, plain))
	list(driftHead(planName), driftLines(v))
	list(fmt.Sprintf("Boxes ticked in %s whose plan items are still open (a ticked box is not proof):", planName),
		findingLines(v, core.RuleTicked, func(line int, msg string) string { return fmt.Sprintf("- %s:%d: %s", planName, line, msg) }))
	list("Completed plan items whose evidence fails verification (planls verify); the work they claim is not "+
		"shown to be there. Fix the work, or record evidence that holds with planls todo update N --evidence ...:",
		findingLines(v, core.RuleFailed, plain))
	reason := strings.Join(parts, "\n\n")
	if len(parts) > 0 && (len(parts) > 1 || reminder == "") {
		// The lists end with a newline, as core.Reminder's list does not.
		reason += "\n"
	}
	return reason
}

// driftHead asks the agent to get the user's re-approval of planName:
// approval is the user's decision, never the agent's.
func driftHead(planName string) string {
	return fmt.Sprintf("%s has changed since the user approved it, so the work is not done against an approved plan. "+
		"Do not approve the plan yourself: tell the user what changed and ask them to review %s and re-approve it:", planName, planName)
}

// driftLines are v's plan-drift findings, "- line N: message" each.
func driftLines(v *planView) []string {
	return findingLines(v, core.RuleDrift, func(line int, msg string) string {
		if line == 0 {
			return "- " + msg
		}
		return fmt.Sprintf("- line %d: %s", line, msg)
	})
}

// blockStop prints the Stop hook's block decision.
func blockStop(cmd *cobra.Command, reason string) error {
	return writeJSON(cmd, claudeBlock{Decision: "block", Reason: reason}, "")
}

// shownSubject is t's subject as people read it (no markdown).
func shownSubject(t *core.Task) string { return planparse.Display(t.Subject, t.PlanText) }
