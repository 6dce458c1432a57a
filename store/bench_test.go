package store

import (
	"context"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkCommit measures whole commits (lock, re-read, write temp, fsync,
// rename, fsync dir, journal append + fsync) on the real disk, on a state of
// 50 tasks, reporting commits/s.
func BenchmarkCommit(b *testing.B) {
	b.Run("1writer", func(b *testing.B) {
		s := Open(b.TempDir(), "bench")
		seed(b, s, 50)
		b.ResetTimer()
		start := time.Now()
		for i := 0; i < b.N; i++ {
			if _, err := s.update(context.Background(), "call", params(`{}`), fakeBump(1+i%50)); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "commits/s")
	})
	b.Run("8writers", func(b *testing.B) {
		root := b.TempDir()
		seed(b, Open(root, "bench"), 50)
		var n atomic.Int64
		b.SetParallelism(max(1, 8/max(1, runtimeProcs())))
		b.ResetTimer()
		start := time.Now()
		b.RunParallel(func(pb *testing.PB) {
			s := Open(root, fmt.Sprintf("w%d", n.Add(1)))
			s.LockTimeout = time.Minute
			i := 0
			for pb.Next() {
				i++
				if _, err := s.update(context.Background(), "call", params(`{}`), fakeBump(1+i%50)); err != nil {
					b.Error(err)
					return
				}
			}
		})
		b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "commits/s")
		b.ReportMetric(float64(n.Load()), "writers")
	})
}

func runtimeProcs() int { return runtime.GOMAXPROCS(0) }
