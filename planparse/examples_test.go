package planparse

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestExamples parses the example plans shipped in ../examples and compares
// them with reviewed goldens in ../testdata/planparse/examples.
func TestExamples(t *testing.T) {
	plans, err := filepath.Glob(filepath.Join("..", "examples", "*", "PLAN.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(plans) < 4 {
		t.Fatalf("found %d example plans, want at least 4", len(plans))
	}
	for _, file := range plans {
		name := filepath.Base(filepath.Dir(file))
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			p := Parse(src)
			checkInvariants(t, src, p)
			got := marshalGolden(t, toGolden(src, p))
			golden := filepath.Join("..", "testdata", "planparse", "examples", name+".json")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("plan differs from %s (run go test -update to accept):\n%s", golden, got)
			}
		})
	}
}
