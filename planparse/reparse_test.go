package planparse

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/planls/planls/internal/plangen"
)

// TestReparseIsWholeParse: parsing part by part gives the Plan that
// parsing (and re-parsing for lazy lines) the whole document gives, on
// every input the tests know, in LF, CRLF and lone-CR form, and on inputs
// built to catch a part that ends inside an open fence or HTML block.
func TestReparseIsWholeParse(t *testing.T) {
	inputs := corpus(t)
	for _, f := range []string{"plan-1600.md", "plan-1600-blank.md"} {
		b, err := os.ReadFile(filepath.Join("..", "testdata", "bench", f))
		if err != nil {
			t.Fatal(err)
		}
		inputs["bench "+f] = b
	}
	for name, s := range map[string]string{
		"open fence after lazy":  "## A\n- a\nlazy\n```\n## not a heading\n- b\n",
		"closed fence":           "## A\n- a\nlazy\n```\ncode\n```\n## B\n- b\nmore\n",
		"html block":             "## A\n- a\nlazy\n<div>\n## inside\n</div>\n\n## B\n- c\n",
		"indented list":          "## A\n  - a\n  lazy\n- b\nlazy two\n## B\n  - c\nx\n",
		"paragraph then number":  "# T\n\n1. a\nNext:\n2. b\n3. c\n## B\nSteps:\n4. d\n",
		"two breaks one segment": "## A\n- a\nl1\n- b\nl2\n\n## B\n- c\nl3\n",
		"no heading after":       "- a\nlazy\n- b\nlazy\n",
		"setext after":           "## A\n- a\nlazy\nTitle\n=====\n## B\n- b\n",
	} {
		inputs["case "+name] = []byte(s)
	}
	for name, src := range inputs {
		for _, v := range [][]byte{src, bytes.ReplaceAll(src, []byte("\n"), []byte("\r\n")), bytes.ReplaceAll(src, []byte("\n"), []byte("\r"))} {
			got, want := Parse(v), parseWhole(v)
			if !samePlan(got, want) {
				t.Errorf("%s: segments give\n%s\nwhole document gives\n%s", name, marshalGolden(t, toGolden(v, got)), marshalGolden(t, toGolden(v, want)))
			}
		}
	}
}

// parseWhole is Parse that re-parses the whole document with the breaks, as
// rule 4 is defined; reparse must give the same Plan (reparse_test.go).
func parseWhole(src []byte) *Plan {
	ln := newLines(src)
	buf, base := prepareRepaired(src)
	t := parseTree(buf, base, nil)
	if indentedLists(t, buf, ln) {
		t = parseTree(buf, base, nil)
	}
	var breaks []int
	for i := 1; i < maxParses; i++ {
		more := lazyBreaks(t, ln)
		if len(more) == 0 {
			break
		}
		breaks = mergeBreaks(breaks, more)
		t = parseTree(buf, base, breaks)
	}
	x := &extractor{src: src, ln: ln, out: &extract{}}
	x.walk(topLevel(t), -1)
	x.out.title, x.out.titleRange, x.out.hasTitle = t.firstParagraph(src, ln)
	return read(src, ln, x.out, frontMatterTodos(src, ln))
}

// samePlan compares two Plans as Parse's callers see them (the parts kept
// for Reparse are not part of the result).
func samePlan(a, b *Plan) bool {
	x, y := *a, *b
	x.parts, y.parts = nil, nil
	return reflect.DeepEqual(x, y)
}

// TestReparseAfterEdits: Reparse from the Plan of one version gives the
// Plan of the next, whatever the edit: inside a part, across a heading,
// opening or closing a fence, removing every heading.
func TestReparseAfterEdits(t *testing.T) {
	inputs := corpus(t)
	// The labelled plans: every reading rule, in parts that move.
	plans, _ := filepath.Glob(filepath.Join("..", "testdata", "corpus", "*.md"))
	for _, p := range plans {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		inputs["corpus "+filepath.Base(p)] = b
	}
	// An area label's bullets are read with the part and moved with it.
	inputs["case area labels"] = []byte("# T x\n\n## Work\n\n- Backend:\n  - item one\n  - item two\n- Frontend:\n  - three\n")
	edits := []func(string) string{
		func(s string) string { return strings.Replace(s, "\n## ", "\n- an extra bullet\n\n## ", 1) },
		func(s string) string { return strings.Replace(s, "- ", "- [x] ", 1) },
		func(s string) string { return s + "\n```\n" },
		func(s string) string { return "```\n" + s },
		func(s string) string { return strings.ReplaceAll(s, "\n## ", "\n### ") },
		func(s string) string { return strings.ReplaceAll(s, "\n#", "\n") },
		func(s string) string {
			i := strings.Index(s, "\n## ")
			if i < 0 {
				return s
			}
			return s[:i] + "\nlazy line\n" + s[i:]
		},
		func(s string) string { return "" },
		// A blank line at the top: every later part is kept and moves by
		// a byte and a line (its entries are shared, not moved: event.item).
		func(s string) string { return "\n" + s },
		// The same bytes before every later part, one line more: the parts
		// stay where they were and their lines move.
		func(s string) string { return strings.Replace(s, " ", "\n", 1) },
		// A second level-1 heading: the kept parts' headings are sections
		// now, no longer the title, and what their text says counts.
		func(s string) string { return s + "\n# Another title\n\n- x\n" },
	}
	for name, src := range inputs {
		prev := Parse(src)
		for k, edit := range edits {
			next := []byte(edit(string(src)))
			got := Reparse(prev, next)
			if want := Parse(next); !samePlan(got, want) {
				t.Errorf("%s, edit %d: Reparse gives\n%s\nParse gives\n%s", name, k,
					marshalGolden(t, toGolden(next, got)), marshalGolden(t, toGolden(next, want)))
			}
			// And back: the parts of the edited version serve the original.
			if back := Reparse(got, src); !samePlan(back, prev) {
				t.Errorf("%s, edit %d undone: Reparse differs from Parse", name, k)
			}
		}
	}
}

// BenchmarkReparseEdit is one keystroke's parse in a 1,000-item plan: a
// bullet added after the first heading and removed again, each version
// parsed from the last.
func BenchmarkReparseEdit(b *testing.B) {
	src := string(plangen.Generate(1000, 1))
	at := strings.Index(src, "\n## ") + 1
	versions := [][]byte{[]byte(src[:at] + "- an extra bullet\n\n" + src[at:]), []byte(src)}
	prev := Parse(versions[1])
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		prev = Reparse(prev, versions[i%2])
	}
}
