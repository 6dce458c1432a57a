package planparse

import (
	"fmt"
	"sort"
	"testing"

	"github.com/planls/planls/internal/plangen"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// BenchmarkParse reports MB/s on generated plans of 100 to 100k items.
func BenchmarkParse(b *testing.B) {
	for _, n := range []int{100, 1000, 10000, 100000} {
		src := plangen.Generate(n, 1)
		b.Run(fmt.Sprintf("items=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if p := Parse(src); len(p.Items) != n {
					b.Fatalf("%d items, want %d", len(p.Items), n)
				}
			}
		})
	}
}

// BenchmarkGoldmarkBare is goldmark with GFM parsing the 10k-item plan of
// BenchmarkParse, the yardstick for Parse's cost (target: Parse within 2×).
func BenchmarkGoldmarkBare(b *testing.B) {
	src := plangen.Generate(10000, 1)
	p := goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser()
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		p.Parse(text.NewReader(src))
	}
}

// BenchmarkHostile shows that hostile inputs cost time linear in their size.
func BenchmarkHostile(b *testing.B) {
	inputs := hostileInputs()
	names := make([]string, 0, len(inputs))
	for name := range inputs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		src := inputs[name]
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				Parse(src)
			}
		})
	}
}
