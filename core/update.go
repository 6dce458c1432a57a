package core

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// The seed's update messages (the seed's status transitions), byte for byte.
const (
	msgNoMutableField = "update requires at least one mutable field: subject, description, activeForm, status, evidence, reason, owner, metadata, addBlockedBy, or removeBlockedBy"
	msgEvidenceOnly   = "evidence only applies to a completed task (status: completed)"
	msgReasonOnly     = "reason only applies to a deferred task (status: deferred)"
	msgNeedEvidence   = "evidence required to mark a task completed: pass evidence with the check that proves it (command + result, commit, or test name). If it isn't done, leave it open"
	msgNeedReason     = "reason required to defer a task: pass reason saying why it is descoped; the user is told"
	msgCycle          = "addBlockedBy would create a cycle in the blockedBy graph"
)

func msgPlanText(id int) string {
	return fmt.Sprintf("#%d is a plan item; its subject and description are the approved plan's text and can't be edited", id)
}

func msgPlanUndeletable(id int) string {
	return fmt.Sprintf("#%d is a plan item from the approved plan and can't be deleted: complete it with evidence, or set status deferred with a reason", id)
}

// transitions is the status machine (the seed's status transitions).
var transitions = map[Status][]Status{
	Pending:    {InProgress, Completed, Deferred, Deleted},
	InProgress: {Pending, Completed, Deferred, Deleted},
	Completed:  {Deleted},
	Deferred:   {Pending, InProgress, Deleted},
}

// transitionError is the seed's "illegal transition <from> → <to>" (its
// Error is that message byte for byte); a move out of completed also gets
// a notice telling an agent what to do instead (reopenNotice).
type transitionError struct {
	id       int
	from, to Status
}

func (e *transitionError) Error() string {
	return fmt.Sprintf("illegal transition %s → %s", e.from, e.to)
}

// CompletedFinalCode is the Notice.Code of reopenNotice.
const CompletedFinalCode = "completed-final"

// reopenNotice is what an agent reads next to the refusal of a move out of
// completed: the tool cannot undo proof, a person can (ReopenOp).
func reopenNotice(err error) []Notice {
	var te *transitionError
	if !errors.As(err, &te) || te.from != Completed {
		return nil
	}
	text := fmt.Sprintf("#%d is completed, and only a person can reopen a completed task. If its work is not done, tell the user why and ask them to reopen it: planls todo reopen %d --reason \"...\" (or Reopen in the editor).", te.id, te.id)
	return []Notice{{Level: "info", Code: CompletedFinalCode, ID: te.id, Text: text}}
}

// canMove reports whether from → to is allowed; staying put always is.
func canMove(from, to Status) bool {
	return from == to || slices.Contains(transitions[from], to)
}

// hasMutableField is step 3: any present mutable field counts, even with
// its current value; empty add/removeBlockedBy do not. The MCP seed's
// priority, due_at and note count too (the message keeps the seed's list).
func hasMutableField(p UpdateOp) bool {
	return p.Subject != nil || p.Description != nil || p.ActiveForm != nil || p.Status != nil ||
		p.Evidence != nil || p.Reason != nil || p.Owner != nil || p.Metadata != nil ||
		len(p.AddBlockedBy) > 0 || len(p.RemoveBlockedBy) > 0 ||
		p.Priority != nil || p.DueAt != nil || p.Note != nil
}

// update runs `update` (and `complete`, which is update with status
// completed) in the seed's check order; the first failure wins and w is left
// as it was. It returns the op's text and whether the task changed.
func (r *runner) update(w *State, p UpdateOp, c *opCall) (string, bool, error) {
	action := c.action
	if action == "complete" {
		if p.Status != nil && *p.Status != Completed {
			return "", false, fmt.Errorf("complete sets status completed; drop status %q or use update", *p.Status)
		}
		s := Completed
		p.Status = &s
	}
	due, err := dueAtValue(p.DueAt, p.OwnerTimezone, r.opts)
	if err != nil {
		return "", false, err
	}
	// 1, 2
	if !c.hasID {
		return "", false, fmt.Errorf("id required for %s", action)
	}
	i := w.index(p.ID)
	if i < 0 {
		return "", false, fmt.Errorf("#%d not found", p.ID)
	}
	old := &w.Tasks[i]
	if err := checkVersion(old, p.ExpectedVersion); err != nil {
		return "", false, err
	}
	// 3
	if !hasMutableField(p) {
		return "", false, fmt.Errorf("%s", msgNoMutableField)
	}
	// 4
	if old.isPlan() && ((p.Subject != nil && *p.Subject != old.Subject) ||
		(p.Description != nil && !strPtrEqual(p.Description, old.Description))) {
		return "", false, fmt.Errorf("%s", msgPlanText(old.ID))
	}
	// 5, 6
	to := old.Status
	if p.Status != nil {
		to = *p.Status
		if !canMove(old.Status, to) {
			return "", false, &transitionError{id: old.ID, from: old.Status, to: to}
		}
		if old.isPlan() && to == Deleted {
			return "", false, fmt.Errorf("%s", msgPlanUndeletable(old.ID))
		}
	}
	// 7, 8
	if p.Evidence != nil && to != Completed {
		return "", false, fmt.Errorf("%s", msgEvidenceOnly)
	}
	if p.Reason != nil && to != Deferred {
		return "", false, fmt.Errorf("%s", msgReasonOnly)
	}
	// 9, 10
	moving := to != old.Status
	completing := to == Completed && (moving || p.Evidence != nil)
	deferring := to == Deferred && (moving || p.Reason != nil)
	if completing && (p.Evidence == nil || strings.TrimSpace(*p.Evidence) == "") {
		return "", false, fmt.Errorf("%s", msgNeedEvidence)
	}
	if deferring && (p.Reason == nil || strings.TrimSpace(*p.Reason) == "") {
		return "", false, fmt.Errorf("%s", msgNeedReason)
	}
	// 11, 12
	deps, err := r.mergeDeps(w, old, p)
	if err != nil {
		return "", false, err
	}
	if len(p.AddBlockedBy) > 0 {
		prev := old.BlockedBy
		old.BlockedBy = deps // w is the working copy: its slot may change
		cyclic := hasCycle(w)
		old.BlockedBy = prev
		if cyclic {
			return "", false, fmt.Errorf("%s", msgCycle)
		}
	}

	t := *old
	set(&t.Subject, p.Subject)
	setPtr(&t.Description, p.Description)
	setPtr(&t.ActiveForm, p.ActiveForm)
	setPtr(&t.Owner, p.Owner)
	t.Status = to
	if completing {
		t.Evidence = strings.TrimSpace(*p.Evidence)
	}
	if deferring {
		t.Reason = strings.TrimSpace(*p.Reason)
	}
	if to != Deferred {
		t.Reason = ""
	}
	if p.Metadata != nil {
		t.Metadata = mergeMetadata(old.Metadata, p.Metadata)
	}
	t.BlockedBy = deps
	set(&t.Priority, p.Priority)
	if p.DueAt != nil {
		t.DueAt = due
	}
	set(&t.Note, p.Note)
	if to == Deleted && old.Status != Deleted {
		t.DeletedFrom = old.Status
	}
	if !taskChanged(old, &t) {
		return fmt.Sprintf("No change: #%d already matches the requested values (status: %s)", t.ID, to), false, nil
	}
	text := fmt.Sprintf("Updated #%d", t.ID)
	if moving {
		text = fmt.Sprintf("Updated #%d (%s → %s)", t.ID, old.Status, to)
		if t.isPlan() && to == Deferred {
			text += ". Tell the user this plan item is descoped and why: " + sanitize(t.Reason)
		}
	}
	t.bump(r.now)
	w.Tasks[i] = t
	r.touch(t.ID)
	return text, true, nil
}

// checkVersion is the MCP seed's optimistic concurrency check.
func checkVersion(t *Task, expected *int) error {
	if expected != nil && *expected != t.Version {
		return fmt.Errorf("#%d is at version %d, not %d (expected_version); re-read it and retry", t.ID, t.Version, *expected)
	}
	return nil
}

// mergeDeps is step 11: removeBlockedBy first (unknown ids ignored), then
// each addBlockedBy id checked in order; ids already present are skipped but
// still checked, so an edge to a since-deleted task fails. It returns a new
// slice (nil when empty) and never touches old.BlockedBy.
func (r *runner) mergeDeps(w *State, old *Task, p UpdateOp) ([]int, error) {
	deps := make([]int, 0, len(old.BlockedBy)+len(p.AddBlockedBy))
	for _, d := range old.BlockedBy {
		if !slices.Contains(p.RemoveBlockedBy, d) {
			deps = append(deps, d)
		}
	}
	for _, d := range p.AddBlockedBy {
		if d == old.ID {
			return nil, fmt.Errorf("cannot block #%d on itself", d)
		}
		dep := w.task(d)
		if dep == nil {
			return nil, fmt.Errorf("addBlockedBy: #%d not found", d)
		}
		if dep.Status == Deleted {
			return nil, fmt.Errorf("addBlockedBy: #%d is deleted", d)
		}
		if !slices.Contains(deps, d) {
			deps = append(deps, d)
		}
	}
	if len(deps) == 0 {
		return nil, nil
	}
	return deps, nil
}

// mergeMetadata merges patch into a copy of base key by key; a nil value
// deletes its key and an empty result drops the field (nil).
func mergeMetadata(base, patch map[string]any) map[string]any {
	m := make(map[string]any, len(base)+len(patch))
	maps.Copy(m, base)
	for k, v := range patch {
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
	}
	if len(m) == 0 {
		return nil
	}
	return m
}

// taskChanged is the seed's "counts as changed" test, plus the MCP fields:
// metadata is compared as JSON, blockedBy in order.
func taskChanged(a, b *Task) bool {
	return a.Subject != b.Subject || a.Status != b.Status ||
		!strPtrEqual(a.Description, b.Description) || !strPtrEqual(a.ActiveForm, b.ActiveForm) ||
		!strPtrEqual(a.Owner, b.Owner) || a.Evidence != b.Evidence || a.Reason != b.Reason ||
		!slices.Equal(a.BlockedBy, b.BlockedBy) || !metadataEqual(a.Metadata, b.Metadata) ||
		a.Priority != b.Priority || a.DueAt != b.DueAt || a.Note != b.Note
}

func metadataEqual(a, b map[string]any) bool {
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && string(ja) == string(jb)
}

// set and setPtr apply an op's optional field v to dst: nil leaves dst as
// it is; setPtr stores a copy, never the op's pointer.
func set[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

func setPtr[T any](dst **T, v *T) {
	if v != nil {
		*dst = new(*v)
	}
}
