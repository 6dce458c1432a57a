package planparse

import (
	"bytes"
	"testing"

	"github.com/planls/planls/internal/plangen"
)

// BenchmarkCacheEdit10k is the language server's didChange path on a
// 10,000-item plan (~0.9 MB): one line of a bullet is edited and the plan is
// re-parsed through the cache. Alternating two versions makes every
// iteration re-parse the edited chunk (the other version's copy of it was
// dropped) and reuse the rest. Target: well under 50 ms.
func BenchmarkCacheEdit10k(b *testing.B) {
	src := plangen.Generate(10000, 1)
	versions := [][]byte{src, editOneLine(src)}
	c := NewCache()
	c.Parse(src)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		if p := c.Parse(versions[i%2]); len(p.Items) != 10000 {
			b.Fatalf("%d items", len(p.Items))
		}
	}
	if c.stats.parsed != 1 {
		b.Fatalf("an edit parsed %d chunks, want 1", c.stats.parsed)
	}
}

// BenchmarkCacheEdit10kOpenFence: a fence left open near the top (as while
// typing one) swallows the rest of the plan, so no cut after it is safe and
// each edit re-parses the joined tail. goldmark reads fenced lines quickly,
// so this stays near BenchmarkCacheEdit10k rather than BenchmarkParse.
func BenchmarkCacheEdit10kOpenFence(b *testing.B) {
	src := plangen.Generate(10000, 1)
	i := bytes.Index(src, []byte("\n## ")) + 1
	open := append(append(append([]byte(nil), src[:i]...), "```\n"...), src[i:]...)
	versions := [][]byte{open, editOneLine(open)}
	c := NewCache()
	c.Parse(open)
	b.SetBytes(int64(len(open)))
	b.ReportAllocs()
	k := 0
	for b.Loop() {
		k++
		c.Parse(versions[k%2])
	}
}
