package store

import (
	"context"
	"os"
	"testing"

	"github.com/planls/planls/internal/floor"
)

// BenchmarkDurableCommitFloor is floor.Commit of a 50-task state's bytes:
// what BenchmarkCommit would cost with no planls logic at all.
func BenchmarkDurableCommitFloor(b *testing.B) {
	_, data, dir := floorSetup(b, 50)
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
	s, data, dir := floorSetup(b, 1)
	b.ResetTimer()
	t, err := floor.Interleave(b.N, dir, data, func(int) error {
		_, err := s.update(context.Background(), "call", params(`{}`), fakeBump(1))
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(t.Floor.Microseconds()), "floor-us")
	b.ReportMetric(float64(t.Op.Microseconds()), "commit-us")
	b.ReportMetric(t.Ratio(), "x-floor")
}

// floorSetup is a store of n tasks, its state file's bytes and an empty
// directory for floor.Commit.
func floorSetup(b *testing.B, n int) (s *Store, state []byte, dir string) {
	s = Open(b.TempDir(), "bench")
	seed(b, s, n)
	state, err := os.ReadFile(s.StatePath())
	if err != nil {
		b.Fatal(err)
	}
	return s, state, b.TempDir()
}
