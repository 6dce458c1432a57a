package plangen

import (
	"bytes"
	"testing"

	"github.com/planls/planls/planparse"
)

func TestGenerateExactItems(t *testing.T) {
	for _, n := range []int{0, 1, 7, 100, 1000} {
		src := Generate(n, 42)
		p := planparse.Parse(src)
		if len(p.Items) != n {
			t.Errorf("Generate(%d) parses to %d items", n, len(p.Items))
		}
		if len(p.Problems) != 0 {
			t.Errorf("Generate(%d) has problems: %+v", n, p.Problems[0])
		}
	}
}

func TestGenerateDeterministic(t *testing.T) {
	a, b := Generate(500, 7), Generate(500, 7)
	if !bytes.Equal(a, b) {
		t.Fatal("same seed gave different plans")
	}
	if bytes.Equal(a, Generate(500, 8)) {
		t.Fatal("different seeds gave the same plan")
	}
}

func TestGenerateHasEveryConstruct(t *testing.T) {
	src := Generate(1000, 1)
	for _, want := range []string{"```go", "| key | value |", "- [x] ", "1. ", "### Part", "Not adopted:", "## Risks", "缓存层", "🚀"} {
		if !bytes.Contains(src, []byte(want)) {
			t.Errorf("plan lacks %q", want)
		}
	}
	if kb := len(Generate(10000, 1)) / 1024; kb < 700 || kb > 1600 {
		t.Errorf("10k items is %d KB, want about 1 MB", kb)
	}
}
