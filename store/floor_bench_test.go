package store

import (
	"os"
	"testing"

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
