package main

import (
	"fmt"

	"github.com/planls/planls/core"
	"github.com/planls/planls/planparse"
)

// driftItem is a bullet of the plan file that the approved plan does not
// hold as it is now: New (not approved at all) or Changed (its text differs
// from the approved item TaskID). Line and Col are 1-based, Col in bytes,
// at the list marker.
type driftItem struct {
	// Text marks the finding for an edit outside the plan items (issue 10:
	// every edit to approved text is drift); Kind is core.Changed then, and
	// the finding is on line 1.
	Text    bool
	Kind    core.DriftKind
	TaskID  int // the approved item it replaces; 0 when Kind is core.New
	Subject string
	Line    int
	Col     int
}

// driftItems are the new and changed bullets of the plan file in file
// order, as core.MatchPlan pairs them (the pairing `status` and the
// language server's plan-drift diagnostic use). Approved items missing from
// the file are not drift items: an open one is already an open finding, and
// a closed one owes nothing.
func (v *planView) driftItems() []driftItem {
	if v.plan == nil {
		return nil
	}
	var out []driftItem
	for _, m := range v.matches {
		if m.Kind != core.New && m.Kind != core.Changed {
			continue
		}
		if m.Item < 0 || m.Item >= len(v.plan.Items) {
			continue
		}
		it := v.plan.Items[m.Item]
		line, col := v.lines.LineCol(it.Line.Start)
		out = append(out, driftItem{Kind: m.Kind, TaskID: m.TaskID, Subject: planparse.Display(it.Subject, it.PlanText), Line: line, Col: col})
	}
	if len(out) == 0 && len(v.missing) == 0 && core.TextChanged(v.src, v.st.Plan) {
		out = append(out, driftItem{Text: true, Kind: core.Changed, Line: 1, Col: 1})
	}
	return out
}

// textDrift is the finding for an edit outside the plan items.
const textDrift = "the plan file changed since approval outside its plan items"

// reapprove is the advice every drift message carries: only an approval
// (the user's act) makes the new text the plan.
const reapprove = "(re-approve with planls approve)"

// message is the finding's text in every check format.
func (d driftItem) message() string {
	if d.Text {
		return textDrift + " " + reapprove
	}
	if d.Kind == core.New {
		return fmt.Sprintf("not in the approved plan %s: %s", reapprove, term(d.Subject))
	}
	return fmt.Sprintf("plan item #%d changed since approval %s: %s", d.TaskID, reapprove, term(d.Subject))
}

// kind names d.Kind in json output.
func (d driftItem) kind() string {
	if d.Text {
		return "text"
	}
	if d.Kind == core.New {
		return "new"
	}
	return "changed"
}
