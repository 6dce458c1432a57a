package mcp

import (
	"encoding/json"
	"slices"

	"github.com/planls/planls/core"
)

// pageBytes is the most one list answer may take on the wire (its text and
// details together, as JSON): 32 KiB, about 8,000 tokens, well
// inside what agent clients accept from one tool result (~25,000 tokens).
// A page that would be bigger holds fewer rows, and its
// cursor continues after the last row shown.
const pageBytes = 32 << 10

// fieldBytes cuts each field a list row shows (plan text, evidence, ...) so
// that even one row fits the page; get shows a task whole.
const fieldBytes = 2000

// listPage runs a call on st with its list pages within pageBytes: when
// a list, or a batch with list ops, answers too big, it runs again with
// fewer rows (never fewer than one a list), keeping the client's params in
// details.params. A batch's list ops are cut alike; what the rest of a
// batch says is not cut. listPage is pure (store.Apply runs it again under
// the lock).
func listPage(st *core.State, req core.Request, opts core.Options) core.Result {
	res := core.Run(st, req, opts)
	if !req.HasList() {
		return res
	}
	for range 6 {
		rows := len(res.Shown)
		if res.Envelope.IsError() || rows <= 1 {
			return res
		}
		size := wireSize(res)
		if size <= pageBytes {
			return res
		}
		fewer, ok := req.WithLimit(max(1, min(rows-1, rows*pageBytes*9/(size*10))))
		if !ok {
			return res
		}
		res, req = core.Run(st, fewer, opts), fewer
	}
	return res
}

// wireSize is the bytes of a result as the client receives it.
func wireSize(res core.Result) int {
	b, _ := json.Marshal(toolResult(res, false)) // either shape: the details once
	return len(b)
}

// pageRows is a list page's details tasks: its rows, in page
// order, with only the row fields the page shows (details.fields), each
// cut like the text's; the rest of a task is a get away.
func pageRows(res core.Result) []core.Task {
	byID := make(map[int]*core.Task, len(res.Envelope.Details.Tasks))
	for i := range res.Envelope.Details.Tasks {
		t := &res.Envelope.Details.Tasks[i]
		byID[t.ID] = t
	}
	show := res.Envelope.Details.Fields
	rows := make([]core.Task, 0, len(res.Shown))
	for _, id := range res.Shown {
		t, ok := byID[id]
		if !ok {
			continue
		}
		r := *t
		keep := func(name string, v string) string {
			if !slices.Contains(show, name) {
				return ""
			}
			return core.Clip(v, fieldBytes)
		}
		r.PlanText = keep("planText", r.PlanText)
		r.Evidence = keep("evidence", r.Evidence)
		r.Reason = keep("reason", r.Reason)
		r.Note = keep("note", r.Note)
		if r.Description != nil {
			if d := keep("description", *r.Description); d != "" {
				r.Description = &d
			} else {
				r.Description = nil
			}
		}
		rows = append(rows, r)
	}
	return rows
}
