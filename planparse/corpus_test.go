package planparse

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/planls/planls/internal/plangen"
	"golang.org/x/tools/txtar"
)

// corpus gathers every markdown input the tests know: vectors, fixtures,
// example plans and a generated plan.
func corpus(t testing.TB) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	raw, err := os.ReadFile(filepath.Join("..", "testdata", "planparse", "vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var v struct{ P, T []vector }
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	for _, x := range append(v.P, v.T...) {
		out["vector "+x.ID] = []byte(x.MD)
	}
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "planparse", "*.txtar"))
	for _, f := range files {
		ar, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, af := range ar.Files {
			if af.Name == "input.md" {
				out["fixture "+filepath.Base(f)] = af.Data
			}
		}
	}
	plans, _ := filepath.Glob(filepath.Join("..", "examples", "*", "PLAN.md"))
	for _, p := range plans {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out["example "+p] = b
	}
	out["plangen 1000"] = plangen.Generate(1000, 3)
	for _, s := range []string{"- a\nlazy\nmore lazy\n2. b\n-\n", "- a\n\n b\nc\n2. d\n", "- a\n  - b\nl\n| r |\n<div>\n2. x\n</div>\n"} {
		out["lazy "+s] = []byte(s)
	}
	return out
}
