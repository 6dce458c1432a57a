package core

import (
	"fmt"
	"strings"
	"time"
)

// runner carries one call's context through its ops.
type runner struct {
	opts Options
	now  time.Time
	// created maps a task id to the op index that created it in this batch;
	// clear forgets ids, so a create undone by a later clear prints only
	// `Created #<id>` (todo-behaviour.md §5, vector O15).
	created map[int]int
	// ids are the tasks delete_all deleted and restore restored in this
	// call, in order: details.ids.
	ids []int
	// affected and shown become Result.Affected and Result.Shown.
	affected, shown []int
}

// create runs `create` (todo-behaviour.md §2 "create checks"): status,
// evidence and reason are ignored, as the seed's create does.
func (r *runner) create(w *State, p *params) (string, bool, error) {
	if p.Subject == nil || strings.TrimSpace(*p.Subject) == "" {
		return "", false, fmt.Errorf("subject required for create")
	}
	var due string
	if p.DueAt != nil {
		var err error
		if due, err = dueAtValue(p, r.opts); err != nil {
			return "", false, err
		}
	}
	if w.Plan != nil {
		key := normSubject(*p.Subject)
		for i := range w.Tasks {
			t := &w.Tasks[i]
			if t.isPlan() && t.Status != Deleted && normSubject(t.Subject) == key {
				return "", false, fmt.Errorf("#%d is already a plan item; update it", t.ID)
			}
		}
	}
	var deps []int
	for _, d := range p.BlockedBy {
		dep := w.task(d)
		if dep == nil {
			return "", false, fmt.Errorf("blockedBy: #%d not found", d)
		}
		if dep.Status == Deleted {
			return "", false, fmt.Errorf("blockedBy: #%d is deleted", d)
		}
		dup := false
		for _, x := range deps {
			dup = dup || x == d
		}
		if !dup {
			deps = append(deps, d)
		}
	}
	t := Task{
		ID:        w.nextFreeID(),
		Subject:   *p.Subject,
		Status:    Pending,
		BlockedBy: deps,
		Version:   1,
		CreatedAt: r.now,
		UpdatedAt: r.now,
		DueAt:     due,
	}
	if p.Description != nil && *p.Description != "" {
		t.Description = strPtr(*p.Description)
	}
	if p.ActiveForm != nil && *p.ActiveForm != "" {
		t.ActiveForm = strPtr(*p.ActiveForm)
	}
	if p.Owner != nil && *p.Owner != "" {
		t.Owner = strPtr(*p.Owner)
	}
	if p.HasMetadata {
		t.Metadata = mergeMetadata(nil, p.Metadata)
	}
	if p.Priority != nil {
		t.Priority = *p.Priority
	}
	if p.Note != nil {
		t.Note = *p.Note
	}
	w.Tasks = append(w.Tasks, t)
	w.NextID = t.ID + 1
	r.touch(t.ID)
	return fmt.Sprintf("Created #%d: %s (pending)", t.ID, sanitize(t.Subject)), true, nil
}

// del runs `delete`: it only tombstones (todo-behaviour.md §1 "Tombstones").
func (r *runner) del(w *State, p *params) (string, bool, error) {
	if !p.HasID {
		return "", false, fmt.Errorf("id required for delete")
	}
	i := w.index(p.ID)
	if i < 0 {
		return "", false, fmt.Errorf("#%d not found", p.ID)
	}
	t := w.Tasks[i]
	if err := checkVersion(&t, p); err != nil {
		return "", false, err
	}
	if t.Status == Deleted {
		return "", false, fmt.Errorf("#%d is already deleted", t.ID)
	}
	if t.isPlan() {
		return "", false, fmt.Errorf("%s", msgPlanUndeletable(t.ID))
	}
	t.DeletedFrom = t.Status
	t.Status = Deleted
	t.Version++
	t.UpdatedAt = r.now
	w.Tasks[i] = t
	r.touch(t.ID)
	return fmt.Sprintf("Deleted #%d: %s", t.ID, sanitize(t.Subject)), true, nil
}

// clear drops every task that is not a plan item, tombstones included. Plan
// items stay (live ones and those a re-approval tombstoned) but lose their
// edges to the removed todos; nextId resets to 1 and the plan is forgotten
// only when nothing is left (todo-behaviour.md §1).
func (r *runner) clear(w *State) (string, bool, error) {
	kept := w.Tasks[:0:0]
	removed, livePlan := 0, 0
	for _, t := range w.Tasks {
		if !t.isPlan() {
			removed++
			delete(r.created, t.ID)
			r.touch(t.ID)
			continue
		}
		if t.Status != Deleted {
			livePlan++
		}
		kept = append(kept, t)
	}
	changed := removed > 0
	if removed > 0 {
		// Kept plan items may wait on cleared todos: drop those edges so no
		// blockedBy dangles (a dangling edge makes a snapshot invalid, §8).
		for i := range kept {
			t := &kept[i]
			var deps []int
			for _, d := range t.BlockedBy {
				if j := w.index(d); j >= 0 && w.Tasks[j].isPlan() {
					deps = append(deps, d)
				}
			}
			if len(deps) != len(t.BlockedBy) {
				nt := *t
				nt.BlockedBy = deps
				nt.Version++
				nt.UpdatedAt = r.now
				*t = nt
				r.touch(t.ID)
			}
		}
		w.Tasks = kept
		w.LastDeleteAll = nil
	}
	if len(w.Tasks) == 0 && (w.NextID != 1 || w.Plan != nil) {
		w.NextID, w.Plan, changed = 1, nil, true
	}
	text := fmt.Sprintf("Cleared %d tasks", removed)
	if livePlan > 0 {
		text += fmt.Sprintf("; kept %d plan items (complete them with evidence or defer them with a reason)", livePlan)
	}
	return text, changed, nil
}

// deleteAll is the MCP seed's recoverable bulk soft delete: every live task
// that is not a plan item becomes a tombstone remembering its status.
func (r *runner) deleteAll(w *State, p *params) (string, bool, error) {
	if r.opts.NoDeleteAll {
		return "", false, fmt.Errorf("delete_all is disabled on this server")
	}
	if !p.ConfirmDeleteAll {
		return "", false, fmt.Errorf("delete_all needs confirm_delete_all: true (it soft-deletes every task that is not a plan item; restore brings them back)")
	}
	var ids []int
	for i := range w.Tasks {
		t := w.Tasks[i]
		if t.isPlan() || t.Status == Deleted {
			continue
		}
		t.DeletedFrom = t.Status
		t.Status = Deleted
		t.Version++
		t.UpdatedAt = r.now
		w.Tasks[i] = t
		ids = append(ids, t.ID)
	}
	if len(ids) == 0 {
		return "Deleted 0 tasks (plan items are never deleted)", false, nil
	}
	w.LastDeleteAll = ids
	r.ids = append(r.ids, ids...)
	r.touch(ids...)
	return fmt.Sprintf("Deleted %s: %s. Undo with %s", countNoun(len(ids), "task"), idRuns(ids, nil), undoHint(ids)), true, nil
}

// restore brings tombstones back to the status they had when deleted (a
// deferred task whose reason was dropped comes back pending). Without ids it
// undoes the last delete_all.
func (r *runner) restore(w *State, p *params) (string, bool, error) {
	ids := p.IDs
	if !p.HasIDs {
		for _, id := range w.LastDeleteAll {
			if t := w.task(id); t != nil && t.Status == Deleted {
				ids = append(ids, id)
			}
		}
		if len(ids) == 0 {
			return "", false, fmt.Errorf("ids required for restore (there is no delete_all to undo)")
		}
	}
	if len(ids) == 0 {
		return "", false, fmt.Errorf("ids required for restore")
	}
	seen := map[int]bool{}
	var done []int
	var to []Status
	for _, id := range ids {
		if seen[id] {
			continue
		}
		seen[id] = true
		i := w.index(id)
		if i < 0 {
			return "", false, fmt.Errorf("restore: #%d not found", id)
		}
		t := w.Tasks[i]
		if t.Status != Deleted {
			return "", false, fmt.Errorf("restore: #%d is not deleted", id)
		}
		if t.isPlan() {
			return "", false, fmt.Errorf("restore: #%d is a plan item the approved plan no longer has; approve a plan with it to bring it back", id)
		}
		st := t.DeletedFrom
		if !validStatus(st) || st == Deleted || (st == Deferred && t.Reason == "") {
			st = Pending
		}
		t.Status, t.DeletedFrom = st, ""
		t.Version++
		t.UpdatedAt = r.now
		w.Tasks[i] = t
		done, to = append(done, id), append(to, st)
	}
	var rest []int
	for _, id := range w.LastDeleteAll {
		if !seen[id] {
			rest = append(rest, id)
		}
	}
	w.LastDeleteAll = rest
	r.ids = append(r.ids, done...)
	r.touch(done...)
	return fmt.Sprintf("Restored %s: %s", countNoun(len(done), "task"), idRuns(done, func(i int) string { return " (" + string(to[i]) + ")" })), true, nil
}
