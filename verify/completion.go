package verify

import (
	"context"
	"slices"
	"strconv"

	"github.com/planls/planls/core"
)

// CompletionWarnings verifies, without re-running any command, the plan
// items that the call res completed or whose evidence it changed (the ids
// of res.Affected among the completed plan items of res.State), against the
// workspace at root, and returns a warning notice (Code core.RuleFailed)
// for each that fails: evidence naming a commit that is not in the
// repository, or a file that does not exist, is caught when it is recorded
// rather than at the next planls verify. The completion stands, as the todo
// tool's status rules accept any evidence; the notice's Text says how to
// correct it with fix, which is given the item's id ("planls todo update 3
// --evidence '...'"). It returns nil when the call changed nothing or was
// rejected, and for weak evidence, which core's own notice covers.
func CompletionWarnings(ctx context.Context, root string, res core.Result, fix func(id int) string) []core.Notice {
	if !res.Changed || res.Envelope.IsError() || res.State == nil || len(res.Affected) == 0 {
		return nil
	}
	var tasks []core.Task
	for _, t := range PlanItems(res.State) {
		if slices.Contains(res.Affected, t.ID) && !core.WeakEvidence(t.Evidence) {
			tasks = append(tasks, t)
		}
	}
	if len(tasks) == 0 {
		return nil
	}
	var out []core.Notice
	for _, r := range Tasks(ctx, root, tasks, Options{Plan: res.State.PlanPath()}) {
		if r.State != Failed {
			continue
		}
		_, msg := core.VerdictMessage(r.TaskID, r.Verdict())
		out = append(out, core.Notice{Level: "warning", Code: core.RuleFailed, ID: r.TaskID, Text: msg + "; correct it with " + fix(r.TaskID)})
	}
	return out
}

// CLIFix is how a shell user corrects item id's evidence.
func CLIFix(id int) string { return "planls todo update " + strconv.Itoa(id) + " --evidence '...'" }

// ToolFix is how an agent corrects item id's evidence with the todo tool.
func ToolFix(id int) string {
	return `{"action":"update","id":` + strconv.Itoa(id) + `,"evidence":"..."}`
}
