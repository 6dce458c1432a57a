package planparse

import (
	"slices"
	"testing"
)

// refCutPoints is cutPointsRaw's general loop, which its LF-only fast path
// must match.
func refCutPoints(src []byte) []int {
	out := []int{0}
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c != '\n' && c != '\r' {
			continue
		}
		if c == '\r' && i+1 < len(src) && src[i+1] == '\n' {
			i++
		}
		if i+1 < len(src) && src[i+1] == '#' && isATXLine(lineAtRaw(src, i+1)) {
			out = append(out, i+1)
		}
	}
	return append(out, len(src))
}

func TestCutPointsFastPath(t *testing.T) {
	for _, src := range []string{
		"", "#", "\n#", "\n# a", "# T\n\n## A\n- x\n#no\n### B\n####### C\n#\n#\t\n",
		"a\n#", "a\n#\n", "x\n##  y\n```\n# in fence\n```\n", "a\r\n# b\n# c",
	} {
		if got, want := cutPointsRaw([]byte(src)), refCutPoints([]byte(src)); !slices.Equal(got, want) {
			t.Errorf("%q: got %v, want %v", src, got, want)
		}
	}
}

func FuzzCutPointsFastPath(f *testing.F) {
	f.Add([]byte("# T\n\n## A\n- x\n#no\n### B\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		if got, want := cutPointsRaw(src), refCutPoints(src); !slices.Equal(got, want) {
			t.Fatalf("%q: got %v, want %v", src, got, want)
		}
	})
}
