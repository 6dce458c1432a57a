package mcp

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strconv"

	"github.com/planls/planls/core"
)

// trimAbove is the number of tasks above which details.tasks carries only
// the rows a call is about. Below it the full snapshot of seed 000's
// envelope is cheap (about 300 bytes a task); above it a client would get
// megabytes per call for a 3,000-item state.
const trimAbove = 200

// maxDetailRows caps a trimmed details.tasks: the largest list page core
// serves (limit 200). A bulk change (delete_all, restore) names every task
// in its text; its details then carry the first rows only.
const maxDetailRows = 200

// details is core's details snapshot plus the trimming flag. When
// TasksTrimmed is true, Tasks holds only the tasks the call names and
// TasksInState counts the whole state.
type details struct {
	core.Details
	TasksTrimmed bool `json:"tasksTrimmed,omitempty"`
	TasksInState int  `json:"tasksInState,omitempty"`
}

// mentionRe finds task references ("#12") in content text: list rows, the
// created/updated id, blockers.
var mentionRe = regexp.MustCompile(`#(\d+)`)

// structured returns the structuredContent of a result: details as is for
// a small state, else details with tasks cut to those the text mentions or
// the params name, in their original order, at most maxDetailRows of them.
func structured(env core.Envelope, args json.RawMessage) details {
	d := details{Details: env.Details}
	if d.Tasks == nil {
		d.Tasks = []core.Task{}
	}
	if len(d.Tasks) <= trimAbove {
		return d
	}
	keep := map[int]bool{}
	for _, m := range mentionRe.FindAllStringSubmatch(env.Text(), -1) {
		if n, err := strconv.Atoi(m[1]); err == nil {
			keep[n] = true
		}
	}
	collectParamIDs(args, keep)
	rows := make([]core.Task, 0, len(keep))
	for _, t := range d.Tasks {
		if keep[t.ID] && len(rows) < maxDetailRows {
			rows = append(rows, t)
		}
	}
	d.TasksInState = len(d.Tasks)
	d.Tasks = rows
	d.TasksTrimmed = true
	return d
}

// idKeys are the params that name tasks, in seed 000 and seed 003.
var idKeys = []string{"id", "todo_id", "ids", "blockedBy", "addBlockedBy", "removeBlockedBy"}

// collectParamIDs adds every task id named by args (and by each op of a
// batch) to keep. Malformed params name nothing; core reports them.
func collectParamIDs(args json.RawMessage, keep map[int]bool) {
	var p map[string]json.RawMessage
	if json.Unmarshal(args, &p) != nil {
		return
	}
	for _, k := range idKeys {
		addIDs(p[k], keep)
	}
	var ops []json.RawMessage
	if json.Unmarshal(p["ops"], &ops) == nil {
		for _, op := range ops {
			var q map[string]json.RawMessage
			if json.Unmarshal(op, &q) == nil {
				for _, k := range idKeys {
					addIDs(q[k], keep)
				}
			}
		}
	}
}

// addIDs reads a number, a numeric string, or an array of them.
func addIDs(v json.RawMessage, keep map[int]bool) {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return
	}
	if v[0] == '[' {
		var xs []json.RawMessage
		if json.Unmarshal(v, &xs) == nil {
			for _, x := range xs {
				addIDs(x, keep)
			}
		}
		return
	}
	var s string
	if json.Unmarshal(v, &s) == nil {
		v = []byte(s)
	}
	if n, err := strconv.Atoi(string(v)); err == nil {
		keep[n] = true
	}
}
