package store

import (
	"context"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/planls/planls/internal/floor"
)

// BenchmarkDurableCommitFloor is floor.Commit of a 50-task state's bytes:
// what BenchmarkCommit would cost with no planls logic at all.
func BenchmarkDurableCommitFloor(b *testing.B) {
	s := Open(b.TempDir(), "bench")
	seed(b, s, 50)
	data, err := os.ReadFile(s.StatePath())
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := floor.Commit(dir, data, floor.JournalLine); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCommitVsFloor interleaves floor.Commit and a whole store commit
// (one task's status bumped, a one-task state) b.N times: what the store
// adds to the disk's floor, apart from any protocol. Medians of each.
func BenchmarkCommitVsFloor(b *testing.B) {
	s := Open(b.TempDir(), "bench")
	seed(b, s, 1)
	data, err := os.ReadFile(s.StatePath())
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	floors := make([]time.Duration, 0, b.N)
	commits := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		if err := floor.Commit(dir, data, floor.JournalLine); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if _, err := s.update(context.Background(), "call", params(`{}`), fakeBump(1)); err != nil {
			b.Fatal(err)
		}
		commits = append(commits, time.Since(t1))
		floors = append(floors, t1.Sub(t0))
	}
	b.StopTimer()
	slices.Sort(floors)
	slices.Sort(commits)
	f, c := floors[len(floors)/2], commits[len(commits)/2]
	b.ReportMetric(float64(f.Microseconds()), "floor-us")
	b.ReportMetric(float64(c.Microseconds()), "commit-us")
	b.ReportMetric(float64(c)/float64(f), "x-floor")
}
