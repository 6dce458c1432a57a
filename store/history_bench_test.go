package store

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/planls/planls/core"
)

// BenchmarkHistory reads the whole history of 10,000 changes to 200 tasks
// (what a progress report reads), sealed (the default) and as one file.
func BenchmarkHistory(b *testing.B) {
	for _, seal := range []string{"", "off"} {
		name := "sealed"
		if seal == "off" {
			name = "flat"
		}
		b.Run(name, func(b *testing.B) {
			b.Setenv(EnvSealBytes, seal)
			s := Open(b.TempDir(), "bench")
			err := s.extendHistory(context.Background(), 10_000, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), func(i int, _ *core.State) json.RawMessage {
				if i < 200 {
					return json.RawMessage(fmt.Sprintf(`{"action":"create","subject":"task %d with a subject of some length","description":"what task %d is about"}`, i, i))
				}
				return json.RawMessage(fmt.Sprintf(`{"action":"update","id":%d,"note":"step %d: go test ./internal/x passes"}`, 1+i%200, i))
			})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				n := 0
				if err := s.History(context.Background(), func(HistoryEntry) error { n++; return nil }); err != nil || n != 10_000 {
					b.Fatalf("%d entries, %v", n, err)
				}
			}
		})
	}
}
