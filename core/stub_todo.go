package core

// This file holds placeholders so the tree compiles while core is written.
// Each is replaced by the file that owns the concern; delete this file then.

import (
	"encoding/json"

	"github.com/planls/planls/planparse"
)

func call(st *State, params json.RawMessage, opts Options) Result {
	return Result{State: st, Envelope: Envelope{Content: []Content{{Type: "text", Text: "Error: not implemented"}}, Details: Details{Action: "batch", Params: params, Tasks: st.Tasks, NextID: st.NextID, Error: "not implemented"}}}
}
func approve(st *State, plan *planparse.Plan, src []byte, path string, opts Options) Result {
	return Result{State: st}
}
func planID(src []byte) string                                       { return "" }
func matchPlan(st *State, plan *planparse.Plan) ([]ItemMatch, []int) { return nil, nil }
func reminder(st *State) string                                      { return "" }
func validate(st *State) ([]string, []string)                        { return nil, nil }
