package core

import "slices"

// Clone returns a deep copy of st: changing the copy through any path
// (top-level fields, Plan, a task's pointers, BlockedBy, PlanScope,
// Metadata at any depth, Mutations and their IDs, LastDeleteAll) never
// changes st, and the other way round. nil stays nil and an empty non-nil
// slice or map stays empty and non-nil, so the copy encodes to the same
// JSON. Strings, times and metadata scalars are shared: Go never changes
// them in place. A nil st gives nil.
//
// Callers that cache a State hand out clones (store.Read), since core's
// copy-on-write results share unchanged parts with their input.
func (st *State) Clone() *State {
	if st == nil {
		return nil
	}
	out := *st
	if st.Plan != nil {
		p := *st.Plan
		out.Plan = &p
	}
	out.Tasks = slices.Clone(st.Tasks)
	for i := range out.Tasks {
		unshareTask(&out.Tasks[i])
	}
	if st.Mutations != nil {
		out.Mutations = make([]MutationKey, len(st.Mutations))
		for i, m := range st.Mutations {
			m.IDs = slices.Clone(m.IDs)
			out.Mutations[i] = m
		}
	}
	out.LastDeleteAll = slices.Clone(st.LastDeleteAll)
	return &out
}

// unshareTask replaces every reference t holds (a shallow copy of another
// task) with a copy of what it points to.
func unshareTask(t *Task) {
	t.Description = cloneString(t.Description)
	t.ActiveForm = cloneString(t.ActiveForm)
	t.Owner = cloneString(t.Owner)
	t.BlockedBy = slices.Clone(t.BlockedBy)
	t.PlanScope = slices.Clone(t.PlanScope)
	if t.Metadata != nil {
		t.Metadata = cloneMap(t.Metadata)
	}
}

func cloneString(p *string) *string {
	if p == nil {
		return nil
	}
	s := *p
	return &s
}

// cloneValue copies the containers JSON decoding produces (objects and
// arrays) at every depth. Any other value is a scalar (string, float64,
// json.Number, bool, nil) and is returned as is.
func cloneValue(v any) any {
	switch v := v.(type) {
	case map[string]any:
		if v == nil {
			return v
		}
		return cloneMap(v)
	case []any:
		if v == nil {
			return v
		}
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = cloneValue(e)
		}
		return out
	}
	return v
}

func cloneMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = cloneValue(v)
	}
	return out
}
