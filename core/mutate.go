package core

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// runner carries one call's context through its ops.
type runner struct {
	opts Options
	now  time.Time
	// created maps a task id to the op index that created it in this batch;
	// clear forgets ids, so a create undone by a later clear prints only
	// `Created #<id>` (the seed's ops batches, vector O15).
	created map[int]int
	// ids are the tasks delete_all deleted and restore restored in this
	// call, in order: details.ids.
	ids []int
	// affected and shown become Result.Affected and Result.Shown.
	affected, shown []int
}

// create runs `create` (the seed's status transitions): status,
// evidence and reason are ignored, as the seed's create does.
func (r *runner) create(w *State, p CreateOp) (string, bool, error) {
	if strings.TrimSpace(p.Subject) == "" {
		return "", false, fmt.Errorf("subject required for create")
	}
	due, err := dueAtValue(p.DueAt, p.OwnerTimezone, r.opts)
	if err != nil {
		return "", false, err
	}
	if w.Plan != nil {
		key := normSubject(p.Subject)
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
		if !slices.Contains(deps, d) {
			deps = append(deps, d)
		}
	}
	t := Task{
		ID:        w.nextFreeID(),
		Subject:   p.Subject,
		Status:    Pending,
		BlockedBy: deps,
		Version:   1,
		CreatedAt: r.now,
		UpdatedAt: r.now,
		DueAt:     due,
	}
	if p.Description != nil && *p.Description != "" {
		t.Description = new(*p.Description)
	}
	if p.ActiveForm != nil && *p.ActiveForm != "" {
		t.ActiveForm = new(*p.ActiveForm)
	}
	if p.Owner != nil && *p.Owner != "" {
		t.Owner = new(*p.Owner)
	}
	if p.Metadata != nil {
		t.Metadata = mergeMetadata(nil, p.Metadata)
	}
	set(&t.Priority, p.Priority)
	set(&t.Note, p.Note)
	w.Tasks = append(w.Tasks, t)
	w.NextID = t.ID + 1
	r.touch(t.ID)
	return fmt.Sprintf("Created #%d: %s (pending)", t.ID, sanitize(t.Subject)), true, nil
}

// del runs `delete`: it only tombstones (the seed's actions).
func (r *runner) del(w *State, p DeleteOp, c *opCall) (string, bool, error) {
	if !c.hasID {
		return "", false, fmt.Errorf("id required for delete")
	}
	i := w.index(p.ID)
	if i < 0 {
		return "", false, fmt.Errorf("#%d not found", p.ID)
	}
	t := w.Tasks[i]
	if err := checkVersion(&t, p.ExpectedVersion); err != nil {
		return "", false, err
	}
	if t.Status == Deleted {
		return "", false, fmt.Errorf("#%d is already deleted", t.ID)
	}
	if t.isPlan() {
		return "", false, fmt.Errorf("%s", msgPlanUndeletable(t.ID))
	}
	t.DeletedFrom, t.Status = t.Status, Deleted
	t.bump(r.now)
	w.Tasks[i] = t
	r.touch(t.ID)
	return fmt.Sprintf("Deleted #%d: %s", t.ID, sanitize(t.Subject)), true, nil
}

// clear drops every task that is not a plan item, tombstones included. Plan
// items stay (live ones and those a re-approval tombstoned) but lose their
// edges to the removed todos; nextId resets to 1 and the plan is forgotten
// only when nothing is left (the seed's clear). What it drops is kept as
// State.Cleared, so a restore can undo it.
func (r *runner) clear(w *State) (string, bool, error) {
	kept := w.Tasks[:0:0]
	var cleared []Task
	removed, livePlan := 0, 0
	for _, t := range w.Tasks {
		if !t.isPlan() {
			removed++
			if _, ours := r.created[t.ID]; !ours {
				// A todo this batch created never existed outside it.
				cleared = append(cleared, t)
			}
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
		// blockedBy dangles (a dangling edge makes a snapshot invalid).
		for i := range kept {
			t := &kept[i]
			var deps []int
			for _, d := range t.BlockedBy {
				if j := w.index(d); j >= 0 && w.Tasks[j].isPlan() {
					deps = append(deps, d)
				}
			}
			if len(deps) != len(t.BlockedBy) {
				t.BlockedBy = deps
				t.bump(r.now)
				r.touch(t.ID)
			}
		}
		w.Tasks = kept
		w.LastDeleteAll = nil
		if len(cleared) > 0 {
			w.Cleared = cleared
		}
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

// unclear is a restore without ids after a clear: every task of w.Cleared
// comes back as it was (a tombstone stays one), under its own id unless
// that is taken now, then under the next free id, with its blockedBy edges
// renumbered alike and those to tasks gone since dropped.
func (r *runner) unclear(w *State) (string, bool, error) {
	// ids[i] is the id w.Cleared[i] comes back under; back maps an old id to
	// it for the edges (a merge may archive two records of one id: the
	// first keeps it).
	ids := make([]int, len(w.Cleared))
	back := make(map[int]int, len(w.Cleared))
	taken := map[int]bool{}
	for i, t := range w.Cleared {
		if w.index(t.ID) < 0 && !taken[t.ID] {
			ids[i], back[t.ID], taken[t.ID] = t.ID, t.ID, true
		}
	}
	next := w.nextFreeID()
	for i, t := range w.Cleared {
		if ids[i] != 0 {
			continue
		}
		for taken[next] || w.index(next) >= 0 {
			next++
		}
		ids[i], taken[next] = next, true
		if _, ok := back[t.ID]; !ok {
			back[t.ID] = next
		}
	}
	for id := range taken {
		next = max(next, id+1)
	}
	var notes []string
	var restored []Task
	for i, t := range w.Cleared {
		if ids[i] != t.ID {
			notes = append(notes, fmt.Sprintf("#%d comes back as #%d (#%d is taken)", t.ID, ids[i], t.ID))
		}
		t.ID = ids[i]
		var deps []int
		for _, d := range t.BlockedBy {
			if nd, ok := back[d]; ok {
				deps = append(deps, nd)
			} else if u := w.task(d); u != nil && u.isPlan() {
				deps = append(deps, d)
			}
		}
		t.BlockedBy = deps
		t.bump(r.now)
		restored = append(restored, t)
	}
	w.Tasks = append(w.Tasks, restored...)
	slices.SortFunc(w.Tasks, func(a, b Task) int { return a.ID - b.ID })
	done := slices.Sorted(slices.Values(ids))
	w.NextID = max(w.NextID, next)
	w.Cleared = nil
	r.ids = append(r.ids, done...)
	r.touch(done...)
	text := fmt.Sprintf("Restored %s: %s", CountNoun(len(done), "cleared task"), idRuns(done, func(i int) string {
		return " (" + string(w.task(done[i]).Status) + ")"
	}))
	if len(notes) > 0 {
		text += "; " + strings.Join(notes, "; ")
	}
	return text, true, nil
}

// deleteAll is the MCP seed's recoverable bulk soft delete: every live task
// that is not a plan item becomes a tombstone remembering its status.
func (r *runner) deleteAll(w *State, c *opCall) (string, bool, error) {
	if r.opts.NoDeleteAll {
		return "", false, fmt.Errorf("delete_all is disabled on this server")
	}
	if c.unconfirmed {
		return "", false, fmt.Errorf("delete_all needs confirm_delete_all: true (it soft-deletes every task that is not a plan item; restore brings them back)")
	}
	var ids []int
	for i := range w.Tasks {
		t := w.Tasks[i]
		if t.isPlan() || t.Status == Deleted {
			continue
		}
		t.DeletedFrom, t.Status = t.Status, Deleted
		t.bump(r.now)
		w.Tasks[i] = t
		ids = append(ids, t.ID)
	}
	if len(ids) == 0 {
		return "Deleted 0 tasks (plan items are never deleted)", false, nil
	}
	w.LastDeleteAll = ids
	r.ids = append(r.ids, ids...)
	r.touch(ids...)
	return fmt.Sprintf("Deleted %s: %s. Undo with %s", CountNoun(len(ids), "task"), idRuns(ids, nil), undoHint(ids)), true, nil
}

// restore brings tombstones back to the status they had when deleted (a
// deferred task whose reason was dropped comes back pending). Without ids it
// undoes the last delete_all.
func (r *runner) restore(w *State, p RestoreOp) (string, bool, error) {
	ids := p.IDs
	if p.IDs == nil {
		for _, id := range w.LastDeleteAll {
			if t := w.task(id); t != nil && t.Status == Deleted {
				ids = append(ids, id)
			}
		}
		if len(ids) == 0 && len(w.Cleared) > 0 {
			return r.unclear(w)
		}
		if len(ids) == 0 {
			return "", false, fmt.Errorf("ids required for restore (there is no delete_all or clear to undo)")
		}
	}
	if len(ids) == 0 {
		return "", false, fmt.Errorf("ids required for restore")
	}
	seen := map[int]bool{}
	var done []int
	var to []Status
	var swapped []string // plan items restored in place of their twin
	for _, id := range ids {
		if seen[id] {
			continue
		}
		seen[id] = true
		i := w.index(id)
		if i < 0 && slices.ContainsFunc(w.Cleared, func(t Task) bool { return t.ID == id }) {
			return "", false, fmt.Errorf("restore: #%d was cleared: restore without ids brings back everything the last clear dropped", id)
		}
		if i < 0 {
			return "", false, fmt.Errorf("restore: #%d not found", id)
		}
		t := w.Tasks[i]
		if t.Status != Deleted {
			return "", false, fmt.Errorf("restore: #%d is not deleted", id)
		}
		if t.isPlan() {
			j := liveTwin(w, &t, seen)
			if j < 0 {
				return "", false, fmt.Errorf("restore: #%d is a plan item the approved plan no longer has; approve a plan with it to bring it back", id)
			}
			if u := &w.Tasks[j]; !untouched(u) {
				return "", false, fmt.Errorf("restore: #%d is a plan item whose text the approved plan has again as #%d, which has progress of its own (%s); keep #%d", id, u.ID, u.Status, u.ID)
			}
			twin := w.Tasks[j].ID
			r.replace(w, i, j)
			done, to = append(done, id), append(to, w.Tasks[i].Status)
			swapped = append(swapped, fmt.Sprintf("#%d takes back the place of #%d, its text approved again", id, twin))
			r.touch(twin)
			continue
		}
		st := t.DeletedFrom
		if !validStatus(st) || st == Deleted || (st == Deferred && t.Reason == "") {
			st = Pending
		}
		t.Status, t.DeletedFrom = st, ""
		t.bump(r.now)
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
	text := fmt.Sprintf("Restored %s: %s", CountNoun(len(done), "task"), idRuns(done, func(i int) string { return " (" + string(to[i]) + ")" }))
	if len(swapped) > 0 {
		text += "; " + strings.Join(swapped, "; ")
	}
	return text, true, nil
}

// liveTwin is the index in w.Tasks of the first live plan item (plan order)
// with the key of plan tombstone t, skipping ids in skip, or -1. It exists
// when a plan was re-approved with t's text before Approve restored
// tombstones (pairApproval): the text came back as a new item.
func liveTwin(w *State, t *Task, skip map[int]bool) int {
	k, best := taskKey(t), -1
	for i := range w.Tasks {
		u := &w.Tasks[i]
		if u.isPlan() && u.Status != Deleted && !skip[u.ID] && taskKey(u) == k && (best < 0 || planBefore(u, &w.Tasks[best])) {
			best = i
		}
	}
	return best
}

// untouched reports a plan item nobody has worked on: pending, with no
// evidence, reason, owner or activity label of its own to lose.
func untouched(t *Task) bool {
	return t.Status == Pending && t.Evidence == "" && t.Reason == "" && t.Owner == nil && t.ActiveForm == nil
}

// replace restores plan tombstone w.Tasks[i] in place of its live twin
// w.Tasks[j] (same key): i takes j's place in the plan and its edges, j
// becomes the tombstone. i comes back with restoredStatus's status.
func (r *runner) replace(w *State, i, j int) {
	t, u := w.Tasks[i], w.Tasks[j]
	t.Status, t.DeletedFrom, t.PlanOrder, t.BlockedBy = restoredStatus(&t), "", u.PlanOrder, u.BlockedBy
	t.bump(r.now)
	u.Status, u.DeletedFrom, u.BlockedBy = Deleted, "", nil
	u.bump(r.now)
	w.Tasks[i], w.Tasks[j] = t, u
	for k := range w.Tasks {
		d := &w.Tasks[k]
		if !slices.Contains(d.BlockedBy, u.ID) {
			continue
		}
		// A new slice: the old state's tasks share the backing array.
		deps := make([]int, 0, len(d.BlockedBy))
		for _, b := range d.BlockedBy {
			if b == u.ID {
				b = t.ID
			}
			if !slices.Contains(deps, b) {
				deps = append(deps, b)
			}
		}
		d.BlockedBy = deps
		d.bump(r.now)
		r.touch(d.ID)
	}
}
