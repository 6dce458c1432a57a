package planparse

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// hostileInputs are inputs that break naive parsers: each must parse without
// panicking, in time linear in its size (BenchmarkHostile shows the cost; no
// test asserts a time).
func hostileInputs() map[string][]byte {
	rep := func(s string, n int) []byte { return bytes.Repeat([]byte(s), n) }
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	r := rand.New(rand.NewPCG(1, 2))
	bin := make([]byte, 1<<20)
	for i := range bin {
		bin[i] = byte(r.Uint32())
	}
	var sameGroups bytes.Buffer
	for i := 0; i < 20000; i++ {
		fmt.Fprintf(&sameGroups, "## A%d\n### G\n- x\n", i)
	}
	var indentNest bytes.Buffer
	for i := 0; i < 2000; i++ {
		indentNest.WriteString(strings.Repeat("  ", i) + "- x\n")
	}
	return map[string][]byte{
		"binary 1MB":               bin,
		"binary with markers":      cat([]byte("## G\n- a\x00\xff\xfe\n  \x80\x81 b\n"), bin[:4096], []byte("\n- z\n")),
		"10MB line":                cat([]byte("## G\n- "), rep("a", 10<<20), []byte("\n")),
		"2MB heading line":         cat([]byte("# "), rep("word [x] *y* `z` ", 2<<20/17)),
		"2MB brackets title":       cat(rep("[", 2<<20), []byte("\n")),
		"list 10000 deep one line": cat([]byte("## G\n"), rep("- ", 10000), []byte("x\n"), rep("y\n", 10000)),
		"list 10000 deep blanks":   cat([]byte("## G\n"), rep("- ", 10000), []byte("x\n"), rep("\n  z\n", 10000)),
		"quotes 10000 deep":        cat(rep("> ", 10000), []byte("x\n"), rep("> > > y\n", 10000)),
		"mixed 10000 deep":         cat([]byte("- "), rep("> 1. ", 10000), []byte("x\n"), rep("\n", 10000)),
		"indent nest 2000 deep":    indentNest.Bytes(),
		"unclosed fence":           cat([]byte("## G\n- a\n```\n"), rep("- not an item\n# not a heading\n", 50000)),
		"unclosed fence in item":   cat([]byte("## G\n- a\n  ~~~\n"), rep("  code\n\n", 100000)),
		"1MB blank lines":          rep("\n", 1<<20),
		"1MB blank lines in item":  cat([]byte("## G\n- a\n"), rep("\n", 1<<20), []byte("  b\n")),
		"1MB CR only":              rep("\r", 1<<20),
		"20k lazy lines":           cat([]byte("## G\n"), rep("- a\nlazy\n2. b\n", 20000)),
		"100k empty items":         cat([]byte("## G\n"), rep("-\n", 100000)),
		"100k headings":            rep("## `h` *x*\n", 100000),
		"deep indent 1MB":          cat([]byte("- a\n"), rep(" ", 1<<20), []byte("- b\n")),
		"deep indent text lines":   cat(indentNest.Bytes()[:4000], rep(strings.Repeat(" ", 1000)+"text\n", 2000)),
		"20k sections, same item":  sameGroups.Bytes(),
		"front matter unclosed":    cat([]byte("---\n"), rep("key: value\n", 100000)),
	}
}

func TestHostileInputs(t *testing.T) {
	for name, src := range hostileInputs() {
		t.Run(name, func(t *testing.T) {
			if testing.Short() && len(src) > 2<<20 {
				t.Skip("large input")
			}
			p := Parse(src)
			checkInvariants(t, src, p)
		})
	}
}

// TestDeepNestingKeepsText checks the nesting cap: text deeper than the cap
// stays in the top-level item's planText, byte for byte.
func TestDeepNestingKeepsText(t *testing.T) {
	deep := strings.Repeat("- ", 50) + "deepest"
	var nested strings.Builder
	for i := 0; i < 60; i++ {
		nested.WriteString(strings.Repeat("  ", i+1) + "- level\n")
	}
	src := "## G\n- top\n  " + deep + "\n" + nested.String() + "- next\n"
	p := Parse([]byte(src))
	if len(p.Items) != 2 || p.Items[0].Subject != "top" || p.Items[1].Subject != "next" {
		t.Fatalf("items:\n%s", dumpItems(p.Items))
	}
	want := deep + "\n" + strings.TrimSuffix(dedentBy(nested.String(), 2), "\n")
	if p.Items[0].PlanText != want {
		t.Errorf("planText lost or changed text:\n got %q\nwant %q", p.Items[0].PlanText, want)
	}
}

func dedentBy(s string, n int) string {
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		if len(l) >= n {
			lines[i] = l[n:]
		}
	}
	return strings.Join(lines, "")
}
