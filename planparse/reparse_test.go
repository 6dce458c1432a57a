package planparse

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestReparseIsWholeParse: re-parsing only the segments around lazy lines
// gives the Plan that re-parsing the whole document gives, on every input
// the tests know, in LF, CRLF and lone-CR form, and on inputs built to
// catch a segment that ends inside an open fence or HTML block.
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
			if !reflect.DeepEqual(got, want) {
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
	t := firstTree(buf, base, ln)
	var breaks []int
	for i := 1; i < maxParses; i++ {
		more := lazyBreaks(t, ln)
		if len(more) == 0 {
			break
		}
		breaks = mergeBreaks(breaks, more)
		t = parseTree(buf, base, breaks)
	}
	return read(src, ln, extractNodes(src, ln, topLevel(t)), frontMatterTodos(src, ln))
}
