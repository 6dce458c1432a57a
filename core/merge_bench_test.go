package core

import (
	"fmt"
	"testing"
	"time"
)

// benchMergeStates are a 1,000-task base and two branches of it: ours
// completes the odd tasks and creates 50, theirs completes the even ones,
// re-closes every tenth odd one with other evidence, and creates 50 whose ids
// collide with ours's (merging two 1,000-task states).
func benchMergeStates() (base, ours, theirs *State) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	base = &State{Version: SchemaVersion, Revision: 1000, NextID: 1001}
	for id := 1; id <= 1000; id++ {
		k := Task{ID: id, Subject: fmt.Sprintf("task %d", id), Status: Pending, Version: 1, CreatedAt: t0, UpdatedAt: t0}
		if id > 1 && id%3 == 0 {
			k.BlockedBy = []int{id - 1}
		}
		base.Tasks = append(base.Tasks, k)
	}
	branch := func(odd bool, ev string, at time.Time) *State {
		st := *base
		st.Tasks = append([]Task(nil), base.Tasks...)
		for i := range st.Tasks {
			k := &st.Tasks[i]
			if (k.ID%2 == 1) == odd || (!odd && k.ID%10 == 1) {
				k.Status, k.Evidence, k.Version, k.UpdatedAt = Completed, fmt.Sprintf("%s %d", ev, k.ID), 2, at
			}
		}
		for id := 1001; id <= 1050; id++ {
			st.Tasks = append(st.Tasks, Task{ID: id, Subject: ev + fmt.Sprint(id), Status: Pending, BlockedBy: []int{id - 1}, Version: 1, CreatedAt: at, UpdatedAt: at})
		}
		st.NextID, st.Revision = 1051, 1600
		return &st
	}
	return base, branch(true, "ours", t0.Add(time.Hour)), branch(false, "theirs", t0.Add(2*time.Hour))
}

func BenchmarkMerge1000(b *testing.B) {
	base, ours, theirs := benchMergeStates()
	b.ReportAllocs()
	for b.Loop() {
		r := Merge(base, ours, theirs, MergeOptions{})
		if len(r.Renumbered) != 50 || len(r.State.Tasks) != 1100 {
			b.Fatalf("renumbered %d, %d tasks", len(r.Renumbered), len(r.State.Tasks))
		}
	}
}
