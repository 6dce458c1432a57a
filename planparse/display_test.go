package planparse

import (
	"strconv"
	"testing"

	"github.com/planls/planls/internal/plangen"
)

// displayPairs are the (subject, planText) pairs of every item of src, plus
// its headings' texts (as titles are read), plus candidates that would
// leak into the next one if batching were not isolated per line.
func displayPairs(src []byte) [][2]string {
	p := Parse(src)
	var pairs [][2]string
	for _, it := range p.Items {
		pairs = append(pairs, [2]string{it.Subject, it.PlanText})
	}
	for _, h := range p.Headings {
		pairs = append(pairs, [2]string{h.Text, ""})
	}
	return pairs
}

// Displays gives what Display gives for each pair alone, on every input
// the tests know and on texts that try to open a block for the next ones.
func TestDisplaysMatchesDisplay(t *testing.T) {
	var all [][2]string
	for _, src := range corpus(t) {
		all = append(all, displayPairs(src)...)
	}
	all = append(all, [][2]string{
		{"```", "go\nx"}, {"<div>", "</div>"}, {"a\r```b", ""}, {"[ref]: http://x", ""}, {"[ref]", ""},
		{"*open", ""}, {"emph*", ""}, {"`code", ""}, {"x`", ""}, {"<!--", ""}, {"-->", ""}, {"\\", ""},
		{"a #", ""}, {"#", ""}, {"", "text"}, {"  ", ""}, {"**", ""}, {"x\x00y *z*", ""},
	}...)
	got := Displays(all)
	for i, p := range all {
		if want := Display(p[0], p[1]); got[i] != want {
			t.Errorf("Displays[%d] of %q = %q, Display = %q", i, p, got[i], want)
		}
	}
}

// BenchmarkDisplays is the display text of every item of a generated plan:
// one call for all of them, and one call per item.
func BenchmarkDisplays(b *testing.B) {
	for _, n := range []int{200, 1000} {
		pairs := displayPairs(plangen.Generate(n, 1))
		b.Run("batch/"+strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Displays(pairs)
			}
		})
		b.Run("each/"+strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, p := range pairs {
					Display(p[0], p[1])
				}
			}
		})
	}
}
