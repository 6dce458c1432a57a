package store

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/planls/planls/core"
)

// richState is a valid state of n tasks that uses every kind of field a
// decoder and a deep copy have to walk: optional strings, blockers,
// nested metadata, plan items with scopes, closed tasks with their proof.
func richState(n int) *core.State {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	str := func(s string) *string { return &s }
	st := core.Empty()
	st.Revision = 1
	st.Plan = &core.PlanRef{ID: "sha256:00", Title: "Bench plan", Path: "PLAN.md", ApprovedAt: at}
	for i := 1; i <= n; i++ {
		t := core.Task{ID: i, Subject: fmt.Sprintf("task number %d with a longer subject line", i),
			Status: core.Pending, Version: 1 + i%4, CreatedAt: at, UpdatedAt: at}
		switch i % 5 {
		case 0:
			t.Description = str(fmt.Sprintf("what task %d is about, in a sentence or two", i))
			t.Owner = str("agent")
		case 1:
			t.Source, t.PlanGroup, t.PlanScope, t.PlanOrder = "plan", "Phase", []string{"Phase", "Step"}, i
			t.PlanText = fmt.Sprintf("- item %d", i)
		case 2:
			t.Status, t.Evidence = core.Completed, "tests pass"
		case 3:
			t.Metadata = map[string]any{"area": "store", "tags": []any{"a", "b"}, "deep": map[string]any{"n": 1.0}}
		case 4:
			if i > 1 {
				t.BlockedBy = []int{i - 1}
			}
			t.ActiveForm = str("Doing it")
		}
		st.Tasks = append(st.Tasks, t)
	}
	st.NextID = n + 1
	st.Mutations = []core.MutationKey{{Key: "k1", Action: "create", Text: "Created #1", IDs: []int{1}, At: at, Hash: "ab"}}
	return st
}

// writeState puts st on disk as the store encodes it, without the lock or
// the journal (a state written by hand, as far as the store can tell).
func writeState(t testing.TB, s *Store, st *core.State) {
	t.Helper()
	data, err := encodeState(st)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(s.Dir(), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.StatePath(), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkRead is Store.Read of an unchanged state file, as a long-lived
// server does for every list, get and hover: read and decode at the sizes
// of real plans (and one past them).
func BenchmarkRead(b *testing.B) {
	for _, n := range []int{50, 300, 1000, 3000} {
		b.Run(fmt.Sprintf("tasks=%d", n), func(b *testing.B) {
			s := Open(b.TempDir(), "bench")
			writeState(b, s, richState(n))
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := s.Read(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
