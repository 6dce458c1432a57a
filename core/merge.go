package core

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
)

// MergeOptions are the caller's knowledge of the merge beyond the three states.
type MergeOptions struct {
	// PlanID is the id (PlanID of the bytes) of the plan file as the merge
	// leaves it in the working tree, or "" when unknown. It decides between
	// two branches that approved different plans (docs/TEAMS.md "Approvals").
	PlanID string
}

// MergeResult is the outcome of Merge.
type MergeResult struct {
	// State is the merged state: valid (Validate gives no errors), tasks
	// sorted by id, nextId above every id. Never nil.
	State *State
	// Renumbered maps the ids of tasks created on theirs that collided with
	// other tasks created on ours to their new ids (empty when none moved).
	Renumbered map[int]int
	// Notes are one sentence per decision a person should know of (both
	// branches closed an item differently, a completion kept only in a
	// tombstone, a field both changed, a renumbering), in id order.
	Notes []string
	// Conflict is "" or why the result needs a person: both branches approved
	// a different plan and neither is the merged plan file. State is still
	// valid (ours's approval is kept) and `planls approve` resolves it.
	Conflict string
}

// Merge is the three-way merge of the state of a common ancestor (base)
// with two branches' states (ours: the branch being merged into; theirs:
// the branch being merged in). The rules are docs/TEAMS.md's, in short:
// tasks are matched by id and merged field by field; a field changed on
// one side only takes that side's value; a status, evidence, reason or note
// is never dropped (two different proofs are both kept, joined with "; " in
// sorted order so that a merge and a rebase agree); a tombstone is never
// reopened by the other side's change; tasks created on both sides with
// the same id are renumbered on theirs, with every blockedBy, lastDeleteAll
// and idempotency key of theirs rewritten; nextId ends above every id. The
// merged revision is ours.Revision plus theirs's changes since base plus
// one, the revision the merge entry of the journal gets.
//
// The inputs are not changed and may be nil (the empty state). The result
// depends on nothing but the inputs: the same three states always merge to
// the same bytes.
func Merge(base, ours, theirs *State, opts MergeOptions) MergeResult {
	base, ours, theirs = orEmpty(base), orEmpty(ours), orEmpty(theirs)
	m := &merger{notes: map[int][]string{}}
	renum := m.collisions(base, ours, theirs)
	theirs = remapState(theirs, renum)

	b, o, t := tasksByID(base), tasksByID(ours), tasksByID(theirs)
	ids := unionIDs(base, ours, theirs)
	out := &State{Version: SchemaVersion, Tasks: make([]Task, 0, len(ids))}
	for _, id := range ids {
		bt, ot, tt := b[id], o[id], t[id]
		if task, keep := m.mergeOne(bt, ot, tt); keep {
			out.Tasks = append(out.Tasks, task)
		}
	}
	out.Plan, m.conflict = m.mergePlan(base, ours, theirs, opts, out)
	out.Mutations = mergeMutations(ours.Mutations, theirs.Mutations)
	out.LastDeleteAll = pick3Ints(base.LastDeleteAll, ours.LastDeleteAll, theirs.LastDeleteAll)
	out.Cleared = mergeCleared(base.Cleared, ours.Cleared, theirs.Cleared)
	out.NextID = max(ours.NextID, theirs.NextID, 1)
	if n := len(out.Tasks); n > 0 && out.Tasks[n-1].ID >= out.NextID {
		out.NextID = out.Tasks[n-1].ID + 1
	}
	out.Revision = ours.Revision + max(0, theirs.Revision-base.Revision) + 1

	res := MergeResult{State: out, Renumbered: renum, Conflict: m.conflict}
	for _, id := range slices.Sorted(maps.Keys(m.notes)) {
		res.Notes = append(res.Notes, m.notes[id]...)
	}
	return res
}

// merger collects the notes of one Merge, keyed by task id (0 for the state).
type merger struct {
	notes    map[int][]string
	conflict string
}

func (m *merger) note(id int, format string, a ...any) {
	m.notes[id] = append(m.notes[id], fmt.Sprintf(format, a...))
}

func orEmpty(st *State) *State {
	if st == nil {
		return Empty()
	}
	return st
}

func tasksByID(st *State) map[int]*Task {
	out := make(map[int]*Task, len(st.Tasks))
	for i := range st.Tasks {
		out[st.Tasks[i].ID] = &st.Tasks[i]
	}
	return out
}

func unionIDs(states ...*State) []int {
	seen := map[int]bool{}
	for _, st := range states {
		for i := range st.Tasks {
			seen[st.Tasks[i].ID] = true
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// collisions finds the ids created on both sides for different tasks and
// gives theirs's a new id each, in ascending order from above every id and
// nextId of both sides (docs/TEAMS.md "Ids created on both branches").
func (m *merger) collisions(base, ours, theirs *State) map[int]int {
	b, o, th := tasksByID(base), tasksByID(ours), tasksByID(theirs)
	var clash []int
	top := max(ours.NextID, theirs.NextID, base.NextID, 1)
	for _, st := range []*State{base, ours, theirs} {
		for i := range st.Tasks {
			top = max(top, st.Tasks[i].ID+1)
		}
	}
	for i := range theirs.Tasks {
		t := &theirs.Tasks[i]
		if _, old := b[t.ID]; old {
			continue
		}
		if ot, both := o[t.ID]; both && !sameTask(ot, t) && !samePlanItem(ot, t) {
			clash = append(clash, t.ID)
		}
	}
	sort.Ints(clash)
	renum := make(map[int]int, len(clash))
	for _, id := range clash {
		renum[id] = top
		m.note(top, "two different tasks were created as #%d, one on each branch: %q keeps #%d, the other branch's %q is now #%d (every blockedBy on it rewritten)",
			id, NoControls(o[id].Subject), id, NoControls(th[id].Subject), top)
		top++
	}
	return renum
}

// samePlanItem reports two plan items of the same text: both branches
// approved the same plan, and their items are one item, not a collision.
func samePlanItem(a, b *Task) bool {
	return a.isPlan() && b.isPlan() && taskKey(a) == taskKey(b)
}

// remapState is st with every task id in renum replaced, in the tasks'
// ids and blockedBy, lastDeleteAll and the idempotency keys. st is not
// changed; with an empty renum it is returned as is.
func remapState(st *State, renum map[int]int) *State {
	if len(renum) == 0 {
		return st
	}
	re := func(id int) int {
		if n, ok := renum[id]; ok {
			return n
		}
		return id
	}
	reAll := func(ids []int) []int {
		if ids == nil {
			return nil
		}
		out := make([]int, len(ids))
		for i, id := range ids {
			out[i] = re(id)
		}
		return out
	}
	ns := *st
	ns.Tasks = make([]Task, len(st.Tasks))
	for i, t := range st.Tasks {
		t.ID = re(t.ID)
		t.BlockedBy = reAll(t.BlockedBy)
		ns.Tasks[i] = t
	}
	sort.SliceStable(ns.Tasks, func(i, j int) bool { return ns.Tasks[i].ID < ns.Tasks[j].ID })
	ns.LastDeleteAll = reAll(st.LastDeleteAll)
	ns.Mutations = make([]MutationKey, len(st.Mutations))
	for i, k := range st.Mutations {
		k.IDs = reAll(k.IDs)
		ns.Mutations[i] = k
	}
	return &ns
}

// mergeMutations is both sides' idempotency keys, each key once (ours's
// record when both hold it), oldest first, the newest MaxMutationKeys kept.
func mergeMutations(ours, theirs []MutationKey) []MutationKey {
	if len(theirs) == 0 {
		return ours
	}
	seen := make(map[string]bool, len(ours))
	out := make([]MutationKey, 0, len(ours)+len(theirs))
	for _, k := range ours {
		seen[k.Key] = true
		out = append(out, k)
	}
	for _, k := range theirs {
		if !seen[k.Key] {
			seen[k.Key] = true
			out = append(out, k)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].At.Before(out[j].At) })
	if len(out) > MaxMutationKeys {
		out = out[len(out)-MaxMutationKeys:]
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// NoControls returns s with each control character (C0, DEL, C1) replaced
// by a space, so a subject quoted in a note cannot break its line.
func NoControls(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || (r >= 0x7F && r <= 0x9F) {
			return ' '
		}
		return r
	}, s)
}
