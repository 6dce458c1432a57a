package mcp

import (
	"slices"

	"github.com/planls/planls/core"
)

// trimAbove is the number of tasks above which details.tasks carries only
// the tasks a call is about. Below it the full snapshot of seed 000's
// envelope is cheap (about 300 bytes a task); above it a client would get
// megabytes per call for a 3,000-item state.
const trimAbove = 200

// maxDetailRows caps a trimmed details.tasks: the largest list page core
// serves (limit 200). A bulk change (delete_all, restore) then carries the
// first rows only; details.ids still lists every id.
const maxDetailRows = 200

// details is core's details snapshot plus the trimming flag. When
// TasksTrimmed is true, Tasks holds only the tasks the call changed or
// showed and TasksInState counts the whole state.
type details struct {
	core.Details
	TasksTrimmed bool `json:"tasksTrimmed,omitempty"`
	TasksInState int  `json:"tasksInState,omitempty"`
}

// structured returns the structuredContent of a result: a list page's rows
// for a list; otherwise details as is for a small state, else details with
// tasks cut to those core says the call affected or showed (the MCP seed's
// "affected item(s)"), in state order.
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
	case len(d.Tasks) <= trimAbove:
		return d
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
