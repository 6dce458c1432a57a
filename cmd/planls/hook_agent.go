package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/planls/planls/core"
	"github.com/planls/planls/internal/gitclone"
	"github.com/planls/planls/store"
)

// newHookCmd is `planls hook EVENT`: the hooks of the Claude Code plugin
// (and Codex CLI, which reads the same hook format). Each reads the hook's
// JSON input on stdin, prints the hook's JSON output on stdout and exits 0,
// so a planls problem never blocks the agent by itself.
func newHookCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "hook EVENT",
		Short: "Agent hooks: session-start, plan-approved (Claude Code's ExitPlanMode), stop",
		Long: `Hooks for Claude Code and Codex CLI. Each reads the hook's JSON input on stdin and prints the
hook's JSON output; it always exits 0.

  session-start   SessionStart: tells the agent what the approved plan still owes (open plan
                  items, drift since approval); nothing without an approved plan.
  plan-approved   PostToolUse on ExitPlanMode: the plan the user accepted in plan mode becomes the
                  approved plan. Its text goes to PLAN.md at the workspace root, unless PLAN.md holds
                  text nobody approved: then to .planls/claude-plans/<name>.md, and that file is
                  approved. The same plan again changes nothing; a plan planls refuses (no items,
                  not UTF-8) leaves every file as it was.
  stop            Stop: the same as planls check --hook claude.

The project is --root, else $PLANLS_ROOT, else $CLAUDE_PROJECT_DIR, else the input's cwd.`,
	}
	for _, h := range []struct {
		use, short string
		run        func(*cobra.Command) error
	}{
		{"session-start", "SessionStart hook: what the approved plan still owes", runSessionStart},
		{"plan-approved", "PostToolUse hook on ExitPlanMode: approve the plan the user accepted", runPlanApproved},
		{"stop", "Stop hook: block while plan items are open (planls check --hook claude)", runClaudeHook},
	} {
		cmd.AddCommand(&cobra.Command{Use: h.use, Short: h.short, Args: cobra.NoArgs,
			RunE: func(cmd *cobra.Command, _ []string) error { return h.run(cmd) }})
	}
	return cmd
}

// hookInput is the part of a Claude Code or Codex hook input planls reads.
// ToolResponse is ExitPlanMode's result: {"plan": ..., "filePath": ...}.
type hookInput struct {
	Cwd          string          `json:"cwd"`
	ToolName     string          `json:"tool_name"`
	ToolInput    json.RawMessage `json:"tool_input"`
	ToolResponse json.RawMessage `json:"tool_response"`
}

// readHookInput decodes stdin; input that is not JSON reads as {} with a
// warning on stderr, as the stop hook does.
func readHookInput(cmd *cobra.Command) hookInput {
	var in hookInput
	data, err := io.ReadAll(cmd.InOrStdin())
	if err != nil {
		fmt.Fprintln(cmd.ErrOrStderr(), "planls: hook input:", err)
	}
	if len(bytes.TrimSpace(data)) > 0 {
		if err := json.Unmarshal(data, &in); err != nil {
			fmt.Fprintln(cmd.ErrOrStderr(), "planls: hook input is not JSON, using the working directory:", err)
		}
	}
	return in
}

// hookContext is a hook's output that adds text to the model's context
// (hookSpecificOutput.additionalContext) and, when user is set, shows the
// user a line (systemMessage).
func hookContext(cmd *cobra.Command, event, context, user string) error {
	type specific struct {
		HookEventName     string `json:"hookEventName"`
		AdditionalContext string `json:"additionalContext"`
	}
	out := struct {
		HookSpecificOutput specific `json:"hookSpecificOutput"`
		SystemMessage      string   `json:"systemMessage,omitempty"`
	}{specific{event, context}, user}
	return writeJSON(cmd, out, "")
}

// runSessionStart tells the agent at the start of a session what the plan
// owes. Outside a project, without an approved plan, or with nothing owed
// it prints nothing.
func runSessionStart(cmd *cobra.Command) error {
	in := readHookInput(cmd)
	flag, _ := cmd.Flags().GetString("root")
	root, err := hookRoot(flag, in.Cwd)
	if err != nil {
		return nil
	}
	st, err := store.Open(root, actor).Read()
	if err != nil {
		return hookContext(cmd, "SessionStart", stateUnreadableReason(err), "")
	}
	if st.Plan == nil {
		return nil
	}
	v, err := loadPlanView(root, st, nil)
	if err != nil {
		fmt.Fprintln(cmd.ErrOrStderr(), "planls:", err)
		return nil
	}
	if text := owedText(v); text != "" {
		return hookContext(cmd, "SessionStart", text, "")
	}
	return nil
}

// owedText is what the plan still owes, for the model: the open plan items
// with their status in plan order, and the bullets changed since approval;
// "" when nothing is owed.
func owedText(v *planView) string {
	name := displayPath(v.abs, v.root)
	open := v.openItems()
	drift := driftLines(v)
	if len(open) == 0 && len(drift) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "planls: the approved plan %q (%s) has %d of %d plan items open.\n", core.NoControls(v.st.Plan.Title), name, len(open), v.an.Total)
	for _, it := range open {
		group := ""
		if it.Task.PlanGroup != "" {
			group = "[" + core.NoControls(it.Task.PlanGroup) + "] "
		}
		fmt.Fprintf(&b, "- #%d %s%s (%s)\n", it.Task.ID, group, core.NoControls(cmp.Or(it.TaskSubject, it.Subject)), it.Task.Status)
	}
	if len(open) > 0 {
		b.WriteString("They are tracked todos: work on them by id with the todo tool (one in_progress at a time; complete with evidence, or defer with a reason). Do not create new todos for them.\n")
	}
	if len(drift) > 0 {
		b.WriteString(driftHead(name) + "\n" + strings.Join(drift, "\n") + "\n")
	}
	return b.String()
}

// exitPlanResponse is ExitPlanMode's tool_response (and tool_input) as
// Claude Code 2.1 sends it to PostToolUse.
type exitPlanResponse struct {
	Plan     string `json:"plan"`
	FilePath string `json:"filePath"`
}

// runPlanApproved makes the plan the user accepted in plan mode the
// approved plan (approvePlanText), and tells the model and the user what
// planls now tracks. Any tool but ExitPlanMode is ignored.
func runPlanApproved(cmd *cobra.Command) error {
	in := readHookInput(cmd)
	if in.ToolName != "ExitPlanMode" {
		return nil
	}
	var resp, input exitPlanResponse
	_ = json.Unmarshal(in.ToolResponse, &resp)
	_ = json.Unmarshal(in.ToolInput, &input)
	text := resp.Plan
	if text == "" {
		text = input.Plan
	}
	if resp.FilePath != "" {
		// The plan file is what the user saw and may have edited before
		// accepting it.
		if b, err := os.ReadFile(resp.FilePath); err == nil && len(bytes.TrimSpace(b)) > 0 {
			text = string(b)
		}
	}
	if strings.TrimSpace(text) == "" {
		fmt.Fprintln(cmd.ErrOrStderr(), "planls: ExitPlanMode's result has no plan text; nothing approved")
		return nil
	}
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	flag, _ := cmd.Flags().GetString("root")
	root, err := hookRoot(flag, in.Cwd)
	if err != nil {
		return nil // not a project: nothing to track
	}
	name := strings.TrimSuffix(filepath.Base(resp.FilePath), filepath.Ext(resp.FilePath))
	first := firstApproval(store.Open(root, actor))
	before, _ := store.Open(root, actor).Read()
	a, err := approvePlanText(cmd, root, []byte(text), name)
	if err != nil {
		msg := "planls did not approve the plan: " + err.Error()
		return hookContext(cmd, "PostToolUse", msg, msg)
	}
	what := a.result.Envelope.Text()
	if !a.result.Changed {
		what = "Plan already approved: nothing changed"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "planls: the plan the user accepted is now the approved plan in %s. %s\n", a.file, what)
	if a.kept != "" {
		fmt.Fprintf(&b, "%s holds text nobody approved, so it was left as it is; the approved plan is %s.\n", a.kept, a.file)
	}
	b.WriteString("Each of its items is a tracked todo: work on them by id with the todo tool (list first; one in_progress at a time; complete each with evidence as soon as it is done, or defer it with a reason).")
	user := fmt.Sprintf("planls: approved %s", a.file)
	if a.kept != "" {
		user += fmt.Sprintf(" (%s has unapproved edits and was left alone)", a.kept)
	}
	if gone := openLeft(before, a.result.State); len(gone) > 0 {
		user += fmt.Sprintf("; %s of the previous plan left it: %s", core.CountNoun(len(gone), "open plan item"), strings.Join(gone, ", "))
	}
	if first && a.result.Changed {
		if note, _ := gitclone.FirstApprovalNote(root); note != "" {
			b.WriteString("\n" + note)
			user += "\n" + note
		}
	}
	return hookContext(cmd, "PostToolUse", b.String(), user)
}

// approval is what approvePlanText did: the plan file (relative to the
// root, with slashes), planls's result, and the default plan file when it
// held unapproved text and was left alone.
type approval struct {
	file   string
	result core.Result
	kept   string
}

// agentPlanDir holds accepted plans that could not go to PLAN.md.
const agentPlanDir = ".planls/claude-plans"

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]`)

// approvePlanText approves text as PLAN.md at root and writes it there,
// under the rules of the pi package's approvals: PLAN.md is never
// overwritten while it holds text that is not the approved plan (edits not
// yet approved, or a plan never approved): then text goes to
// .planls/claude-plans/NAME.md and that file is approved. The same text
// again is a no-op (the store's approval of unchanged content). The state
// is committed first and the file written right after (store's
// ApproveOptions.Source), so a refusal writes nothing and a watching
// language server never reads the new plan against the old state. An error
// is a refusal or an I/O failure, with planls's message.
func approvePlanText(cmd *cobra.Command, root string, text []byte, name string) (approval, error) {
	s := store.Open(root, actor)
	target := filepath.Join(root, defaultPlan)
	var a approval
	if cur, err := os.ReadFile(target); err == nil && !bytes.Equal(cur, text) {
		st, err := s.Read()
		if err != nil {
			return a, err
		}
		if st.Plan == nil || core.TextChanged(cur, st.Plan) {
			if name = unsafeName.ReplaceAllString(name, "_"); name == "" || name == "." || name == ".." {
				name = "plan"
			}
			a.kept = defaultPlan
			target = filepath.Join(root, filepath.FromSlash(agentPlanDir), name+".md")
		}
	}
	a.file = displayPath(target, root)
	// The user accepted this plan: it replaces an approved plan in another
	// file, whose dropped items the approval's notes name.
	res, err := s.Approve(cmd.Context(), target, core.Options{}, store.ApproveOptions{Replace: true, Source: text})
	if err == nil && res.Envelope.IsError() {
		err = fmt.Errorf("%s", strings.TrimPrefix(res.Envelope.Text(), "Error: "))
	}
	if err != nil {
		return a, err
	}
	if before, err := os.ReadFile(target); err != nil || !bytes.Equal(before, text) {
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return a, err
		}
		if err := store.WriteFile(target, text); err != nil {
			// The state names a plan the file does not hold: planls check
			// reports the drift until the plan is accepted again.
			return a, err
		}
	}
	a.result = res
	return a, nil
}

// openLeft names ("#4") the open plan items of before (pending or in
// progress) that next tombstoned: what an accepted plan dropped that was
// still owed. Either state may be nil (none).
func openLeft(before, next *core.State) []string {
	if before == nil || next == nil {
		return nil
	}
	was := make(map[int]bool)
	for i := range before.Tasks {
		if t := &before.Tasks[i]; t.Source == "plan" && t.Status.Open() {
			was[t.ID] = true
		}
	}
	var out []string
	for i := range next.Tasks {
		if t := &next.Tasks[i]; was[t.ID] && t.Status == core.Deleted {
			out = append(out, "#"+strconv.Itoa(t.ID))
		}
	}
	return out
}
