package planparse

import (
	"slices"
	"strings"
	"testing"
)

func TestCapLine(t *testing.T) {
	deep := strings.Repeat("- ", 12) + "x"
	tests := []struct{ in, want string }{
		{"- a", "- a"},
		{strings.Repeat("- ", 10) + "x", strings.Repeat("- ", 10) + "x"},
		{deep, strings.Repeat("- ", 10) + "x " + "- x"}, // the 11th marker turns into text
		{strings.Repeat("> ", 11) + "q", strings.Repeat("> ", 10) + "x q"},
		{strings.Repeat(" ", 39) + "- a", strings.Repeat(" ", 39) + "- a"},
		{strings.Repeat(" ", 40) + "- a", strings.Repeat(" ", 40) + "x a"}, // the marker ends past column 40
		{strings.Repeat(" ", 41) + "- a", strings.Repeat(" ", 40) + "x- a"},
		{strings.Repeat(" ", 60) + "text", strings.Repeat(" ", 60) + "text"},
		{strings.Repeat("\t", 10) + "- a", strings.Repeat("\t", 10) + "x a"}, // col 41 is the marker
		{strings.Repeat(" ", 50), strings.Repeat(" ", 50)},                   // blank stays blank
		{strings.Repeat("- ", 20), strings.Repeat("- ", 20)},                 // a thematic break
		{strings.Repeat("1. ", 11) + "n", strings.Repeat("1. ", 10) + "x. n"},
		{"plain text that is long enough", "plain text that is long enough"},
	}
	for _, tc := range tests {
		b := []byte(tc.in)
		capLine(b)
		if string(b) != tc.want {
			t.Errorf("capLine(%q)\n got %q\nwant %q", tc.in, b, tc.want)
		}
		if len(b) != len(tc.in) {
			t.Errorf("capLine changed the length of %q", tc.in)
		}
	}
}

func TestLineClassifiers(t *testing.T) {
	tests := []struct {
		line                    string
		marker, thematic, under bool
	}{
		{"- a", true, false, false},
		{"-", true, false, true},
		{"-\tb", true, false, false},
		{"-x", false, false, false},
		{"* * *", true, true, false},
		{"---", false, true, true},
		{"===", false, false, true},
		{"= =", false, false, false},
		{"1. a", true, false, false},
		{"2) a", true, false, false},
		{"1234567890. a", false, false, false}, // ten digits are too many
		{"1.5 liters", false, false, false},
		{"• dot", false, false, false},
		{"   ***", false, true, false},
		{"    ***", false, false, false},
		{"_ _ _", false, true, false},
	}
	for _, tc := range tests {
		b := []byte(tc.line)
		if got := isMarkerLine(b); got != tc.marker {
			t.Errorf("isMarkerLine(%q) = %v", tc.line, got)
		}
		if got := isThematicBreak(b); got != tc.thematic {
			t.Errorf("isThematicBreak(%q) = %v", tc.line, got)
		}
		if got := isUnderline(b); got != tc.under {
			t.Errorf("isUnderline(%q) = %v", tc.line, got)
		}
	}
}

func TestCheckbox(t *testing.T) {
	tests := []struct {
		in    string
		state Checkbox
		width int
	}{
		{"[ ] a", Unchecked, 3}, {"[x] a", Checked, 3}, {"[X]\ta", Checked, 3}, {"[ ]", Unchecked, 3},
		{"[x]a", NoCheckbox, 0}, {"[-] a", OtherMark, 3}, {"[~] a", OtherMark, 3}, {"[/]", OtherMark, 3},
		{"[ ]* optional", Unchecked, 4}, {"[x]* b", Checked, 4}, {"[q] a", NoCheckbox, 0}, {"[]", NoCheckbox, 0}, {"x [ ] a", NoCheckbox, 0},
		{"[\t] a", NoCheckbox, 0},
	}
	for _, tc := range tests {
		if s, w := checkbox([]byte(tc.in)); s != tc.state || w != tc.width {
			t.Errorf("checkbox(%q) = %v, %d; want %v, %d", tc.in, s, w, tc.state, tc.width)
		}
	}
}

func TestPlanTextDedent(t *testing.T) {
	tests := []struct{ in, want string }{
		{"x\n  a\n    b\n", "a\n  b"},
		{"x\n\n  a\n\n  b\n\n", "a\n\nb"}, // leading and trailing blank lines go, inner ones stay
		{"x\n\ta\n\t\tb\n", "a\n\tb"},     // a tab counts as one
		{"x\n  a  \n", "a  "},             // trailing spaces kept
		{"x\n    \n  a\n      \n  b\n", "a\n    \nb"},
		{"x\n", ""},
		{"x\r\n  a\r\n  b\r\n", "a\nb"},
		{"x\r  a\r\r  b", "a\n\nb"},
	}
	for _, tc := range tests {
		ln := newLines([]byte(tc.in))
		if got := planText(ln, 1, ln.count()-1); got != tc.want {
			t.Errorf("planText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestLines(t *testing.T) {
	ln := newLines([]byte("a\r\nb\rc\n\nd"))
	var got []string
	for i := 0; i < ln.count(); i++ {
		got = append(got, string(ln.text(i)))
	}
	if strings.Join(got, "|") != "a|b|c||d" {
		t.Errorf("lines %q", got)
	}
	for off, want := range map[int]int{0: 0, 1: 0, 2: 0, 3: 1, 4: 1, 5: 2, 7: 3, 8: 4, 9: 4} {
		if l := ln.lineOf(off); l != want {
			t.Errorf("lineOf(%d) = %d, want %d", off, l, want)
		}
	}
	if newLines(nil).count() != 1 || newLines([]byte("a\n")).count() != 1 {
		t.Error("an empty input or a final newline must not add a line")
	}
}

func TestTrimRange(t *testing.T) {
	src := []byte("\u00a0 x y\u2003\t")
	s, e := trimRange(src, 0, len(src))
	if string(src[s:e]) != "x y" {
		t.Errorf("trimRange kept %q", src[s:e])
	}
	bad := []byte(" \x80 ")
	if s, e := trimRange(bad, 0, len(bad)); string(bad[s:e]) != "\x80" {
		t.Errorf("invalid bytes are text, got %q", bad[s:e])
	}
}

func TestFrontMatter(t *testing.T) {
	tests := []struct{ in, want string }{
		{"---\na: b\n---\nx", "   \n    \n   \nx"},
		{"--- \na: b\n...\nx", "    \n    \n   \nx"},
		{"---\na: b\n", "---\na: b\n"}, // unclosed: a thematic break, not front matter
		{"x\n---\na\n---\n", "x\n---\na\n---\n"},
	}
	for _, tc := range tests {
		buf, _ := prepare([]byte(tc.in))
		if string(buf) != tc.want {
			t.Errorf("prepare(%q) = %q, want %q", tc.in, buf, tc.want)
		}
	}
	if buf, base := prepare([]byte("\xEF\xBB\xBFa\r\nb\rc")); base != 3 || string(buf) != "a \nb\nc" {
		t.Errorf("prepare with BOM, CRLF, CR = %q, %d", buf, base)
	}
}

// Subjects people read.
func TestDisplay(t *testing.T) {
	tests := []struct{ subject, planText, want string }{
		{"**Bold** and [the docs](http://x/y) with `code`", "", "Bold and the docs with code"},
		{"Add the cache so that", "repeated reads are fast.\n- nested detail", "Add the cache so that repeated reads are fast."},
		{"Wrapped line", "continues here\n\nnext paragraph", "Wrapped line continues here"},
		{"Fence after", "```go\nx\n```", "Fence after"},
		{"<b>html</b> gone", "", "html gone"},
		{"plain", "  | table |", "plain"},
		{"**", "", "**"},
	}
	for _, tc := range tests {
		if got := Display(tc.subject, tc.planText); got != tc.want {
			t.Errorf("Display(%q, %q) = %q, want %q", tc.subject, tc.planText, got, tc.want)
		}
	}
}

// A skipped section says what in it looks like work: numbered steps,
// checkboxes, a work-list or task sub-heading that is skipped with it.
func TestSkippedLooksLikeWork(t *testing.T) {
	tests := []struct{ src, heading, hint string }{
		{"# P\n\n## Notes\n1. a\n2. b\n\n## Work\n- w\n", "Notes", "2 numbered steps"},
		{"# P\n\n## Risks\n### Changes\n- c\n\n## Work\n- w\n", "Risks", `the sub-heading ### "Changes"`},
		{"# P\n\n## Context\n### Task 1: x\nbody\n\n## Work\n- w\n", "Context", ""},
		{"# P\n\n## Summary\n- just context\n\n## Work\n- w\n", "Summary", ""},
	}
	for _, tc := range tests {
		p := Parse([]byte(tc.src))
		for _, h := range p.Headings {
			if h.Text != tc.heading {
				continue
			}
			if tc.hint == "" && h.Hint != "" || !strings.Contains(h.Hint, tc.hint) {
				t.Errorf("%q: hint %q, want one with %q", tc.heading, h.Hint, tc.hint)
			}
			if tc.hint != "" && !strings.Contains(h.Reason(), "add <!-- planls: track --> under the heading") {
				t.Errorf("%q: reason %q says not how to track it", tc.heading, h.Reason())
			}
		}
	}
}

// A section skipped because it states the plan's work again, or because it
// is an API reference, is listed by Unread with its reason, as the dry run
// and approve print it.
func TestRestatedSectionsSayWhy(t *testing.T) {
	tests := []struct{ src, heading, reason string }{
		{"# P\n\n## Phase 1: Store\n- add the store\n\n## Phase 2: Sync\n- queue changes\n\n## Milestones\n\n| Milestone | Phase | Status |\n|---|---|---|\n| M1: Works offline | 1 | done |\n| M2: Nothing lost | 2 | todo |\n",
			"Milestones", "a table that repeats the plan's phases or steps; it has what looks like work (2 task-table rows); to track it, add <!-- planls: track --> under the heading"},
		{"# P\n\n## Backlog\n- [ ] a\n- [ ] b\n- [ ] c\n\n## Board\n### To do\n- [ ] a\n### In progress\n- [ ] b\n### Done\n- [x] c\n",
			"Board", "a board that repeats the checkboxes above it; it has what looks like work (3 checkboxes, the sub-heading ### \"To do\"); to track it, add <!-- planls: track --> under the heading"},
		{"# P\n\n## Implementation\n- build the API\n\n## API\n### GET /v1/items\nLists the items.\n",
			"GET /v1/items", "reference: an endpoint of the API, in a plan that names its work elsewhere"},
	}
	for _, tc := range tests {
		p := Parse([]byte(tc.src))
		found := false
		for _, h := range p.Unread() {
			if h.Text == tc.heading {
				found = true
				if h.Reason() != tc.reason {
					t.Errorf("%q: reason %q, want %q", tc.heading, h.Reason(), tc.reason)
				}
			}
		}
		if !found {
			t.Errorf("%q: not listed as skipped", tc.heading)
		}
	}
	// The restating table's rows are no items; the phases' bullets are.
	p := Parse([]byte(tests[0].src))
	if len(p.Items) != 2 {
		t.Errorf("items %+v, want the two phase bullets", p.Items)
	}
}

func TestGoesOn(t *testing.T) {
	tests := []struct {
		line string
		want bool
	}{
		{"are ported first.", true},
		{"を実装する。", true},
		{"を README に記載する。", true},
		{"를 구현한다.", true},
		{"**and** then deployed", true},
		{"This gives a first copy.", false},
		{"Gate: the suite passes.", false},
		{"このフェーズは2週間を見込む。", false},
		{"では、次に進む。", false},
		{"가능하면 한 주에 끝낸다.", false}, // a word that starts with a particle's syllable
		{"`make test` passes", false},
		{"", false},
	}
	for _, tc := range tests {
		if got := goesOn([]byte(tc.line)); got != tc.want {
			t.Errorf("goesOn(%q) = %v, want %v", tc.line, got, tc.want)
		}
	}
}

func TestDatedLog(t *testing.T) {
	tests := []struct {
		subject string
		want    bool
	}{
		{"2026-05-02: dual writes on in staging", true},
		{"(2026-05-09) 50% read from Redis", true},
		{"**2026-01-03** kickoff", true},
		{"2026-05-02", true},
		{"Send the notice by 2026-04-18", false},
		{"2026-5-2: short date", false},
		{"20260502 build", false},
		{"2026-05-02x", false},
		{"", false},
	}
	for _, tc := range tests {
		if got := startsWithDate(tc.subject); got != tc.want {
			t.Errorf("startsWithDate(%q) = %v, want %v", tc.subject, got, tc.want)
		}
	}
	// A section whose only list is a dated log gives no items, and the dry
	// run says why.
	p := Parse([]byte("# P\n\n## Backend\n- 2026-05-02: staging cut over\n- 2026-05-06: 5% of reads moved\n\n## Work\n- move the rest\n"))
	if len(p.Items) != 1 {
		t.Errorf("items %+v, want only the Work bullet", p.Items)
	}
	var why []string
	for _, h := range p.Unread() {
		why = append(why, h.Text+": "+h.Reason())
	}
	if !slices.Equal(why, []string{"Backend: " + whyLog}) {
		t.Errorf("skipped %q, want Backend as a log", why)
	}
}

// A table over the phases restates them only when they hold work of their
// own: phases whose only bullets are background leave the table's rows as
// the items.
func TestRestatingTableNeedsWork(t *testing.T) {
	table := "# P\n\n## Plan\n\n| Phase | Goal | Status |\n|---|---|---|\n| 1 | Import the customer list | todo |\n| 2 | Send the welcome mail | todo |\n\n"
	tests := []struct {
		name, phases string
		want         int
	}{
		{"bullets of their own", "## Phase 1: Import\n- read the CSV\n\n## Phase 2: Mail\n- write the template\n", 2},
		{"background only", "## Phase 1: Import\n### Background\n- the CSV comes from sales\n\n## Phase 2: Mail\n### Background\n- marketing owns the text\n", 2},
	}
	for _, tc := range tests {
		p := Parse([]byte(table + tc.phases))
		rows := 0
		for _, it := range p.Items {
			if strings.HasPrefix(it.PlanText, "|") {
				rows++
			}
		}
		if len(p.Items) != tc.want || tc.name == "background only" && rows != 2 || tc.name != "background only" && rows != 0 {
			t.Errorf("%s: %d items (%d table rows): %+v", tc.name, len(p.Items), rows, p.Items)
		}
	}
}

// A bullet that is a phase heading's text points at that phase, unless the
// phase has nothing under it yet.
func TestPhasePointer(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{"# P\n\n## Next\n- Phase 2: Beta\n\n## Phase 2: Beta\n- invite 50 users\n", []string{"invite 50 users"}},
		{"# P\n\n## Next\n- Phase 2: Beta\n\n## Phase 2: Beta\n", []string{"Phase 2: Beta"}},
		{"# P\n\n## Next\n- Phase 2: Beta for admins\n\n## Phase 2: Beta\n- invite 50 users\n", []string{"Phase 2: Beta for admins", "invite 50 users"}},
		{"# P\n\n## Phase 2: Beta\n- Phase 2: Beta\n- invite 50 users\n", []string{"Phase 2: Beta", "invite 50 users"}},
	}
	for _, tc := range tests {
		var got []string
		for _, it := range Parse([]byte(tc.src)).Items {
			got = append(got, it.Subject)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q: items %q, want %q", tc.src, got, tc.want)
		}
	}
}

// A table over empty phase headings is their work: it does not restate them.
func TestRestatingTableOverEmptyPhases(t *testing.T) {
	src := "# P\n\n## Phase 1: Import\n\n## Phase 2: Mail\n\n## Milestones\n\n| Milestone | Phase | Status |\n|---|---|---|\n| M1: Customers in | 1 | todo |\n| M2: Welcome sent | 2 | todo |\n"
	if n := len(Parse([]byte(src)).Items); n != 2 {
		t.Errorf("%d items, want the 2 milestone rows", n)
	}
}
