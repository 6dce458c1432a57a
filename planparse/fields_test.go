package planparse

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// short renders items as "group / subject [planText]" and problems as
// "code@line" (1-based), for compact table tests.
func short(src []byte, p *Plan) (items, problems []string) {
	ln := newLines(src)
	for _, it := range p.Items {
		s := it.Group + " / " + it.Subject
		if it.PlanText != "" {
			s += " [" + it.PlanText + "]"
		}
		items = append(items, s)
	}
	for _, pr := range p.Problems {
		problems = append(problems, fmt.Sprintf("%s@%d", pr.Code, ln.lineOf(pr.Range.Start)+1))
	}
	return items, problems
}

// Field failures about markdown (cases/field-failures.md).
func TestFieldFailures(t *testing.T) {
	tests := []struct {
		id, md   string
		headings []string // heading texts, in order
		items    []string
		problems []string
	}{
		{id: "CRLF", md: "## Build\r\n- compile\r\n- test\r\n---\r\n",
			headings: []string{"Build"}, items: []string{"Build / compile", "Build / test"}},
		{id: "fences", md: "## Setup\n- install\n````md\n```sh\n## not a group\n- not an item\n```\n````\n## Ship\n",
			headings: []string{"Setup", "Ship"},
			items:    []string{"Setup / install [````md\n```sh\n## not a group\n- not an item\n```\n````]"}},
		{id: "B19a empty item with child", md: "## G\n- \n  - foo\n",
			headings: []string{"G"}, problems: []string{"empty-item@2"}},
		{id: "B19b empty items, empty fence", md: "## G\n-\n- ```\n  ```\n",
			headings: []string{"G"}, problems: []string{"empty-item@2", "empty-item@3"}},
		{id: "lazy line ends the item (rule 4)", md: "## G\n- write parser\ncontinues here\n- next  \n\t  detail with trailing tab\t\n",
			headings: []string{"G"}, items: []string{"G / write parser", "G / next [detail with trailing tab\t]"}},
		{id: "markers", md: "## G\n- a\n* b\n+ c\n1. d\n2) e\n",
			headings: []string{"G"}, items: []string{"G / a", "G / b", "G / c", "G / d", "G / e"}},
		{id: "duplicates", md: "## G\n- Write tests\n- Write tests\n",
			headings: []string{"G"}, items: []string{"G / Write tests", "G / Write tests"},
			problems: []string{"duplicate-item@2", "duplicate-item@3"}},
		{id: "unicode", md: "## G\n- 🚀 deploy привет\n",
			headings: []string{"G"}, items: []string{"G / 🚀 deploy привет"}},
	}
	for _, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			src := []byte(tc.md)
			p := Parse(src)
			checkInvariants(t, src, p)
			var hs []string
			for _, h := range p.Headings {
				hs = append(hs, h.Text)
			}
			items, problems := short(src, p)
			if fmt.Sprint(hs) != fmt.Sprint(tc.headings) {
				t.Errorf("headings %q, want %q", hs, tc.headings)
			}
			if fmt.Sprintf("%q", items) != fmt.Sprintf("%q", tc.items) {
				t.Errorf("items %q, want %q", items, tc.items)
			}
			if fmt.Sprint(problems) != fmt.Sprint(tc.problems) {
				t.Errorf("problems %q, want %q", problems, tc.problems)
			}
		})
	}
}

func TestB15SubjectsCarryNoCR(t *testing.T) {
	src := []byte("## Build\r\n- compile\r\n- test\r\n---\r\n")
	p := Parse(src)
	want := []Range{{10, 19}, {21, 27}} // "- compile", "- test"
	for i, it := range p.Items {
		if strings.ContainsRune(it.Subject, '\r') || strings.ContainsRune(string(src[it.Line.Start:it.Line.End]), '\r') {
			t.Errorf("item %d carries a CR: %q / %q", i, it.Subject, src[it.Line.Start:it.Line.End])
		}
		if it.Line != want[i] || it.Block != want[i] {
			t.Errorf("item %d Line %v Block %v, want %v", i, it.Line, it.Block, want[i])
		}
	}
	if h := p.Headings[0]; h.Range != (Range{0, 8}) {
		t.Errorf("heading range %v, want {0 8}", h.Range)
	}
}

func TestB20ContinuationIsSectionProse(t *testing.T) {
	src := []byte("## G\n- write parser\ncontinues here\n- next\n")
	p := Parse(src)
	if got := string(src[p.Items[0].Block.Start:p.Items[0].Block.End]); got != "- write parser" {
		t.Errorf("item 1 block %q, want only its own line", got)
	}
	// The line is prose of the section: a section holding only that line
	// becomes a prose-only item, so it is not lost.
	p = Parse([]byte("## G\n- \ncontinues here\n"))
	if len(p.Items) != 1 || !p.Items[0].Section || p.Items[0].Subject != "G" {
		t.Errorf("items %+v, want the prose-only section G", p.Items)
	}
}

func TestB24ByteRanges(t *testing.T) {
	src := []byte("## G\n- 🚀 deploy привет\n")
	it := Parse(src).Items[0]
	if it.Line != (Range{5, 31}) || it.SubjectRange != (Range{7, 31}) {
		t.Fatalf("Line %v SubjectRange %v, want {5 31} {7 31}", it.Line, it.SubjectRange)
	}
	sub := string(src[it.SubjectRange.Start:it.SubjectRange.End])
	if !utf8.ValidString(sub) || sub != it.Subject {
		t.Errorf("subject range holds %q", sub)
	}
	// "deploy" is 4 bytes of emoji and a space after the subject start.
	if d := strings.Index(sub, "deploy"); it.SubjectRange.Start+d != 12 {
		t.Errorf("deploy at byte %d, want 12", it.SubjectRange.Start+d)
	}
}

func TestBOMFrontMatterCRLFTogether(t *testing.T) {
	for _, nl := range []string{"\n", "\r\n", "\r"} {
		md := strings.ReplaceAll("\xEF\xBB\xBF---\ntitle: x\n---\n## G\n- a\n  b\n", "\n", nl)
		src := []byte(md)
		orig := append([]byte(nil), src...)
		p := Parse(src)
		checkInvariants(t, src, p)
		if string(src) != string(orig) {
			t.Fatalf("%q: Parse modified its input", nl)
		}
		items, problems := short(src, p)
		if fmt.Sprintf("%q %q %q", p.Title, items, problems) != `"G" ["G / a [b]"] []` {
			t.Errorf("%q: title %q items %q problems %q", nl, p.Title, items, problems)
		}
		if got := rangeText(src, p.Items[0].Block); got != "- a\n  b" {
			t.Errorf("%q: block %q", nl, got)
		}
	}
}
