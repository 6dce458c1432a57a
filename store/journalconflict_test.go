package store

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
)

// BenchmarkJournalConflict is the look status, and a write that did not
// append the journal's last line itself, take at a journal of 10,000
// entries (about 3 MB).
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

// conflictLineIn reads in pieces what conflictLine reads whole: the same
// line for every journal, including lines longer than its buffer before,
// around and holding a marker.
func TestConflictLineInIsConflictLine(t *testing.T) {
	entry := `{"revision":1,"base":0}`
	long := `{"revision":2,"snapshot":"` + strings.Repeat("x", 200<<10) + `"}`
	eqs := strings.Repeat("=", 100<<10)
	for _, c := range []struct {
		name, journal string
	}{
		{"empty", ""},
		{"clean", entry + "\n" + entry + "\n"},
		{"no final newline", entry + "\n" + entry},
		{"ours marker", entry + "\n<<<<<<< HEAD\n" + entry + "\n"},
		{"separator", entry + "\n" + entry + "\n=======\r\n"},
		{"diff3 base", "|||||||  base\n"},
		{"theirs at the end, no newline", entry + "\n>>>>>>> other"},
		{"six = is prose", "======\n" + entry + "\n"},
		{"long line, clean", entry + "\n" + long + "\n" + entry + "\n"},
		{"marker after a long line", entry + "\n" + long + "\n" + entry + "\n>>>>>>> b\n"},
		{"marker before a long line", "<<<<<<< a\n" + long + "\n"},
		{"a long line of =", entry + "\n" + eqs + "\n"},
		{"a long line starting <<<<<<<", "<<<<<<< " + long + "\n"},
	} {
		want := conflictLine([]byte(c.journal))
		got, err := conflictLineIn(strings.NewReader(c.journal))
		if err != nil || got != want {
			t.Errorf("%s: conflictLineIn = %d, %v; conflictLine = %d", c.name, got, err, want)
		}
	}
	if got := conflictLine([]byte(entry + "\n" + long + "\n" + entry + "\n>>>>>>> b\n")); got != 4 {
		t.Errorf("conflictLine of a marker on line 4 = %d", got)
	}
}
