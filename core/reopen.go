package core

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// ReopenOp is a person's correction of a closed task: a completed (or
// deferred, or in-progress) task goes back to pending, with the reason it
// was wrong to close it. It is not an action of the `todo` tool: the tool
// keeps the seed's status machine, where completed is final, so an agent
// cannot undo proof it recorded; people reopen through the CLI and the
// editors, and the journal keeps who, when, why and the evidence dropped.
type ReopenOp struct {
	ID     int    `json:"id"`
	Reason string `json:"reason"`       // required, non-blank: why the task is not done
	By     string `json:"by,omitempty"` // who reopens it (a person: git user, login name)
}

// ReopenedParams is what the journal records of a reopen (details.params of
// Reopen's result): the op, and the status and proof the task had, which
// the task itself no longer carries.
type ReopenedParams struct {
	Action   string `json:"action"` // always "reopen"
	ID       int    `json:"id"`
	Reason   string `json:"reason"`
	By       string `json:"by,omitempty"`
	From     Status `json:"from"`
	Evidence string `json:"evidence,omitempty"` // the evidence a completed task had
	Deferred string `json:"deferredReason,omitempty"`
}

// Reopen runs op: task op.ID goes to pending, its evidence (or deferral
// reason) dropped from the task and kept in details.params (ReopenedParams).
// The text is "Reopened #3 (completed → pending): <reason>". A pending task
// is a no-op with the seed's "No change" text. Refused, state unchanged: a
// blank reason, an unknown id ("#N not found"), a tombstone (restore brings
// those back). st is never mutated; a nil st reads as Empty().
func Reopen(st *State, op ReopenOp, opts Options) Result {
	view := sortedView(st)
	orig := st
	if orig == nil {
		orig = view
	}
	p := ReopenedParams{Action: "reopen", ID: op.ID, Reason: strings.TrimSpace(op.Reason), By: strings.TrimSpace(op.By)}
	refuse := func(err error) Result {
		raw, _ := json.Marshal(p)
		res := fail(orig, view, "reopen", raw, err)
		if view.task(op.ID) != nil {
			res.Shown = []int{op.ID}
		}
		return res
	}
	i := view.index(op.ID)
	if i < 0 {
		return refuse(fmt.Errorf("#%d not found", op.ID))
	}
	t := view.Tasks[i]
	p.From = t.Status
	switch t.Status {
	case Deleted:
		return refuse(fmt.Errorf("#%d is deleted: restore brings it back (planls todo restore %d)", t.ID, t.ID))
	case Pending:
		raw, _ := json.Marshal(p)
		res := success(orig, view, "reopen", raw, fmt.Sprintf("No change: #%d already matches the requested values (status: pending)", t.ID), false)
		res.Shown = []int{t.ID}
		return res
	}
	if p.Reason == "" {
		return refuse(errors.New("reason required to reopen a task: say why it is not done (the journal keeps it with the evidence it had)"))
	}
	p.Evidence, p.Deferred = t.Evidence, t.Reason
	w := cloneState(view)
	now := opts.now()
	t.Status, t.Evidence, t.Reason = Pending, "", ""
	t.bump(now)
	w.Tasks[i] = t
	raw, _ := json.Marshal(p)
	text := fmt.Sprintf("Reopened #%d (%s → pending): %s", t.ID, p.From, sanitize(p.Reason))
	res := success(w, w, "reopen", raw, text, true)
	res.Affected = []int{t.ID}
	return res
}
