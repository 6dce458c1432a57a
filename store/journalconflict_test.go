package store

import (
	"bytes"
	"fmt"
	"os"
	"testing"
)

// BenchmarkJournalConflict is the look every write and status takes at a
// journal of 10,000 entries (about 3 MB).
func BenchmarkJournalConflict(b *testing.B) {
	s := Open(b.TempDir(), "bench")
	if err := os.MkdirAll(s.Dir(), 0o755); err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	for i := 1; i <= 10000; i++ {
		fmt.Fprintf(&buf, `{"revision":%d,"base":%d,"time":"2026-12-01T10:00:00Z","actor":"bench","kind":"call","params":{"action":"update","id":%d,"status":"completed","evidence":"abc1234: go test ./... passes"},"result":"Updated #%d (pending → completed)","diff":[{"op":"replace","path":"/tasks/%d/status","value":"completed"}]}`+"\n", i, i-1, i%1000, i%1000, i%1000)
	}
	if err := os.WriteFile(s.JournalPath(), buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if s.JournalConflict() != "" {
			b.Fatal("a conflict in a clean journal")
		}
	}
}
