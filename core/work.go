package core

import (
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"
)

// Copy on write: a working state shares its tasks' strings, slices and maps
// with the input. Code that changes a task never writes through those
// (pointers, BlockedBy, Metadata); it builds new values and stores a new Task
// in the working copy's own Tasks slice, so the caller's state is never touched.

// cloneState copies st's top level and its Tasks slice (not what tasks point to).
func cloneState(st *State) *State {
	ns := *st
	ns.Tasks = make([]Task, len(st.Tasks), len(st.Tasks)+1)
	copy(ns.Tasks, st.Tasks)
	if st.Plan != nil {
		p := *st.Plan
		ns.Plan = &p
	}
	return &ns
}

// sortedView returns st itself when its tasks are sorted by id (the normal
// case) and otherwise a copy sorted by id, so lookups can binary-search. A nil
// state reads as the empty state.
func sortedView(st *State) *State {
	if st == nil {
		return Empty()
	}
	if sort.SliceIsSorted(st.Tasks, func(i, j int) bool { return st.Tasks[i].ID < st.Tasks[j].ID }) {
		return st
	}
	ns := cloneState(st)
	sort.SliceStable(ns.Tasks, func(i, j int) bool { return ns.Tasks[i].ID < ns.Tasks[j].ID })
	return ns
}

// index returns the position of task id in st.Tasks (sorted by id), or -1.
func (st *State) index(id int) int {
	i := sort.Search(len(st.Tasks), func(i int) bool { return st.Tasks[i].ID >= id })
	if i < len(st.Tasks) && st.Tasks[i].ID == id {
		return i
	}
	return -1
}

// task returns a pointer into st.Tasks, or nil.
func (st *State) task(id int) *Task {
	if i := st.index(id); i >= 0 {
		return &st.Tasks[i]
	}
	return nil
}

// nextFreeID is NextID, raised above every id if a hand-edited state let it
// fall behind, so ids stay unique whatever was loaded.
func (st *State) nextFreeID() int {
	n := max(st.NextID, 1)
	if k := len(st.Tasks); k > 0 && st.Tasks[k-1].ID >= n {
		n = st.Tasks[k-1].ID + 1
	}
	return n
}

// bump marks a change of t made at now: its version goes up.
func (t *Task) bump(now time.Time) {
	t.Version++
	t.UpdatedAt = now
}

// isPlan reports whether t came from an approved plan.
func (t *Task) isPlan() bool { return t.Source == "plan" }

// now is the call's clock in UTC.
func (o Options) now() time.Time {
	if o.Now.IsZero() {
		return time.Now().UTC()
	}
	return o.Now.UTC()
}

func strPtrEqual(a, b *string) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// normSubject is the duplicate guard's comparison key: whitespace runs become
// one space, ends trimmed, case ignored (the seed's duplicate guard).
func normSubject(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// statesEqual compares what a batch may change; used to report a batch whose
// ops cancel out as unchanged (seed: no-op batches persist nothing).
func statesEqual(a, b *State) bool {
	return a.NextID == b.NextID && reflect.DeepEqual(a.Plan, b.Plan) && len(a.Mutations) == len(b.Mutations) &&
		slices.Equal(a.LastDeleteAll, b.LastDeleteAll) && reflect.DeepEqual(a.Cleared, b.Cleared) &&
		slices.EqualFunc(a.Tasks, b.Tasks, func(x, y Task) bool { return reflect.DeepEqual(x, y) })
}
