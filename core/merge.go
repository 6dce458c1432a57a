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
// tasks are matched by UID (alignIDs: the display ids of the three states
// may differ for one task, after an earlier merge or rebase step renumbered
// it) and merged field by field; a field changed on
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
	base, ours, theirs, renum := m.alignIDs(base, ours, theirs)

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
	out.NextID = max(ours.NextID, theirs.NextID)
	out.NextID = out.nextFreeID()
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

// alignIDs matches the three states' tasks by UID and puts base and
// theirs in ours's numbering, so that the id-by-id merge below compares
// versions of one task. Ours keeps every id. A task of theirs that ours
// also holds takes ours's id (an earlier merge or rebase step renumbered
// it there). Any other task of theirs keeps its id unless ours uses it
// for a different task: then it is renumbered, in ascending order, from
// above every id and nextId of the three states (docs/TEAMS.md "Ids
// created on both branches"). Two tasks created on both branches that are
// one task (the same plan item of the same plan text, or equal but for
// their UID) are matched as one, under ours's UID. A base task that ours
// dropped and theirs left as it was is dropped from both, as is a base
// task neither side holds. A task without a UID (a state built by hand)
// is matched by its DerivedUID. It returns base and theirs renumbered
// (copies; the inputs are not changed), ours, and theirs's ids that
// changed, old → new.
func (m *merger) alignIDs(base, ours, theirs *State) (*State, *State, *State, map[int]int) {
	base, ours, theirs = withUIDs(base), withUIDs(ours), withUIDs(theirs)
	oursAt := make(map[string]int, len(ours.Tasks)) // uid → ours's id
	used := make(map[int]bool, len(ours.Tasks)+len(theirs.Tasks))
	for i := range ours.Tasks {
		oursAt[ours.Tasks[i].UID] = ours.Tasks[i].ID
		used[ours.Tasks[i].ID] = true
	}
	baseOf := make(map[string]*Task, len(base.Tasks))
	for i := range base.Tasks {
		baseOf[base.Tasks[i].UID] = &base.Tasks[i]
	}
	theirsHas := make(map[string]bool, len(theirs.Tasks))
	for i := range theirs.Tasks {
		theirsHas[theirs.Tasks[i].UID] = true
	}
	o, th := tasksByID(ours), tasksByID(theirs)

	twin := map[string]string{} // theirs's uid → ours's, for one task created on both
	drop := map[string]bool{}   // uids left out of base and theirs
	ids := map[string]int{}     // theirs's uid → its id in the merge
	renum := map[int]int{}
	var clash []*Task
	for i := range theirs.Tasks {
		t := &theirs.Tasks[i]
		if id, ok := oursAt[t.UID]; ok {
			ids[t.UID] = id
			continue
		}
		b := baseOf[t.UID]
		if b != nil && sameTaskAs(b, t) {
			drop[t.UID] = true // removed on ours, untouched on theirs
			continue
		}
		if ot := o[t.ID]; ot != nil && b == nil && baseOf[ot.UID] == nil && !theirsHas[ot.UID] &&
			(sameTaskAs(ot, t) || samePlanItem(ot, t)) {
			twin[t.UID] = ot.UID
			ids[t.UID] = t.ID
			continue
		}
		if used[t.ID] {
			clash = append(clash, t)
			continue
		}
		ids[t.UID] = t.ID
	}
	top := max(ours.NextID, theirs.NextID, base.NextID, 1)
	for _, st := range []*State{base, ours, theirs} {
		for i := range st.Tasks {
			top = max(top, st.Tasks[i].ID+1)
		}
	}
	slices.SortFunc(clash, func(a, b *Task) int { return a.ID - b.ID })
	for _, t := range clash {
		ids[t.UID] = top
		m.note(top, "two different tasks were created as #%d, one on each branch: %q keeps #%d, the other branch's %q is now #%d (every blockedBy on it rewritten)",
			t.ID, NoControls(o[t.ID].Subject), t.ID, NoControls(th[t.ID].Subject), top)
		top++
	}
	theirsIDs := map[int]int{}
	for i := range theirs.Tasks {
		t := &theirs.Tasks[i]
		if n, ok := ids[t.UID]; ok {
			theirsIDs[t.ID] = n
			if n != t.ID {
				renum[t.ID] = n
			}
		}
	}
	baseIDs := map[int]int{}
	for i := range base.Tasks {
		b := &base.Tasks[i]
		if n, ok := oursAt[b.UID]; ok {
			baseIDs[b.ID] = n
		} else if n, ok := ids[b.UID]; ok && !drop[b.UID] {
			baseIDs[b.ID] = n
		}
	}
	return renumberState(base, baseIDs, nil), ours, renumberState(theirs, theirsIDs, twin), renum
}

// withUIDs is st, or a copy of it whose tasks without a UID have their
// DerivedUID.
func withUIDs(st *State) *State {
	if !slices.ContainsFunc(st.Tasks, func(t Task) bool { return t.UID == "" }) {
		return st
	}
	c := *st
	c.Tasks = slices.Clone(st.Tasks)
	EnsureUIDs(c.Tasks)
	return &c
}

// sameTaskAs reports whether a and b are equal but for their UID.
func sameTaskAs(a, b *Task) bool {
	c := *b
	c.UID = a.UID
	return sameTask(a, &c)
}

// samePlanItem reports two plan items of the same text: both branches
// approved the same plan, and their items are one item, not a collision.
func samePlanItem(a, b *Task) bool {
	return a.isPlan() && b.isPlan() && taskKey(a) == taskKey(b)
}

// renumberState is a copy of st holding only the tasks whose id ids maps,
// each under its new id, with blockedBy, lastDeleteAll and the idempotency
// keys rewritten alike (an id ids does not map is kept as it is there),
// and the UIDs in uids replaced. st is not changed.
func renumberState(st *State, ids map[int]int, uids map[string]string) *State {
	re := func(id int) int {
		if n, ok := ids[id]; ok {
			return n
		}
		return id
	}
	reAll := func(list []int) []int {
		if list == nil {
			return nil
		}
		out := make([]int, len(list))
		for i, id := range list {
			out[i] = re(id)
		}
		return out
	}
	ns := *st
	ns.Tasks = make([]Task, 0, len(st.Tasks))
	for _, t := range st.Tasks {
		n, ok := ids[t.ID]
		if !ok {
			continue
		}
		t.ID = n
		t.BlockedBy = reAll(t.BlockedBy)
		if u, ok := uids[t.UID]; ok {
			t.UID = u
		}
		ns.Tasks = append(ns.Tasks, t)
	}
	sort.SliceStable(ns.Tasks, func(i, j int) bool { return ns.Tasks[i].ID < ns.Tasks[j].ID })
	ns.LastDeleteAll = reAll(st.LastDeleteAll)
	if st.Mutations != nil {
		ns.Mutations = make([]MutationKey, len(st.Mutations))
		for i, k := range st.Mutations {
			k.IDs = reAll(k.IDs)
			ns.Mutations[i] = k
		}
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
// by a space, so a subject quoted in a note cannot break its line, and text
// from a state or plan file printed on a terminal cannot move the cursor,
// recolour or retitle it. For display only: the state keeps the bytes.
func NoControls(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || (r >= 0x7F && r <= 0x9F) {
			return ' '
		}
		return r
	}, s)
}
