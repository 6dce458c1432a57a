package mcp

import (
	"slices"

	"github.com/planls/planls/core"
)

// maxDetailRows caps a trimmed details.tasks: the largest list page core
// serves (limit 200). A bulk change (delete_all, restore) then carries the
// first rows only; details.ids still lists every id.
const maxDetailRows = 200

// details is core's details snapshot with Tasks cut to the tasks the call
// changed or showed: TasksTrimmed is always true over MCP and TasksInState
// counts the whole state. rpiv-todo's full snapshot is for replaying a pi
// session; an MCP client has the state on disk, and the MCP seed's
// structured output is the affected item(s). A full snapshot cost every
// call about 250 bytes a task (12.6 KB per update at 50 tasks).
type details struct {
	core.Details
	TasksTrimmed bool `json:"tasksTrimmed,omitempty"`
	TasksInState int  `json:"tasksInState,omitempty"`
}

// structured returns the details of a result (_meta or structuredContent): a list page's rows
// for a list; otherwise details with tasks cut to those core says the call
// affected or showed (the MCP seed's "affected item(s)"), in state order,
// at most maxDetailRows.
func structured(res core.Result) details {
	d := details{Details: res.Envelope.Details}
	if d.Tasks == nil {
		d.Tasks = []core.Task{}
	}
	var rows []core.Task
	switch {
	case d.Action == "list" && d.Error == "":
		// A list page carries its rows, shaped like its text (listpage.go).
		rows = pageRows(res)
	default:
		keep := make(map[int]bool, len(res.Affected)+len(res.Shown))
		for _, id := range slices.Concat(res.Affected, res.Shown) {
			keep[id] = true
		}
		rows = make([]core.Task, 0, min(len(keep), maxDetailRows))
		for _, t := range d.Tasks {
			if keep[t.ID] && len(rows) < maxDetailRows {
				rows = append(rows, t)
			}
		}
	}
	d.TasksInState, d.Tasks, d.TasksTrimmed = len(d.Tasks), rows, true
	return d
}
