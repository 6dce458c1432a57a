package planparse

import "testing"

// Context labels and lead-ins (the seed's plan items, docs/PLAN-FORMAT.md).
func TestIsContextLabel(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"Summary", true},
		{"summary of changes", true},
		{"Risks and mitigations", true},
		{"Notes:", true},
		{"Assumptions/defaults", true},
		{"Approved approach", true},
		{"1. Summary", true},
		{"2) Out of scope", true},
		{"2.1 Non-goals", true},
		{"**Risks**", true},
		{"`Context`", true},
		{"_Decisions_ made", true},
		{"Goal", true},
		{"Goals", true},
		{"Defaults", true},
		{"Alternatives considered", true},
		{"Key findings", true},
		{"KEY FINDINGS", true},
		{"Scoped changes", false},
		{"Contextual help", false},
		{"Approach", false},
		{"Step 2: Scope the API", false},
		{"Verification", false},
		{"Test plan", false},
		{"Important changes", false},
		{"3. Implementation", false},
		{"2.5Summary", false},    // no space after the number
		{"Summary_x", false},     // '_' is deleted first: "Summaryx"
		{"Risks2", false},        // a digit is a word character
		{"Rejected-ideas", true}, // '-' is a word boundary
		{"\u00a0Summary\u00a0", true},
		{"ſummary", false}, // ASCII case folding only
		{"", false},
	}
	for _, tc := range tests {
		if got := isContextLabel(tc.text); got != tc.want {
			t.Errorf("isContextLabel(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

func TestIsLeadIn(t *testing.T) {
	tests := []struct {
		line string
		want bool
	}{
		{"Not adopted:", true},
		{"**Not adopted:**", true},
		{"*Not adopted*:", true},
		{"Not adopted:   ", true},
		{"Risks:", true},
		{"Not adopted", false},
		{"Risks: low", false},
		{"Steps:", false},
		{"> Not adopted:", false},
		{"1. Notes:", true},
	}
	for _, tc := range tests {
		if got := isLeadIn(tc.line); got != tc.want {
			t.Errorf("isLeadIn(%q) = %v, want %v", tc.line, got, tc.want)
		}
	}
}

func TestPlainTitle(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Add `foo_bar` support", "Add foo_bar support"},
		{"Just **prose** first line", "Just prose first line"},
		{"See [the docs](http://x) and <b>this</b>", "See the docs and this"},
		{`Escaped \*stars\* stay`, "Escaped *stars* stay"},
		{"~~old~~ new", "old new"},
		{"ends with #", "ends with #"},
		{"1. not a list", "1. not a list"},
		{"- not a bullet", "- not a bullet"},
		{"<http://a.b>", "http://a.b"},
		{"`a\\*b`", "a\\*b"},
		{"  plain  ", "plain"},
		{"<br>", ""},
		{"***", "***"}, // unmatched delimiters are text
	}
	for _, tc := range tests {
		if got := plainTitle(tc.in); got != tc.want {
			t.Errorf("plainTitle(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestTitleRules(t *testing.T) {
	tests := []struct{ md, title, text string }{
		{"# A\n## B\n", "A", "# A"},
		{"## B\n# A\n", "A", "# A"},
		{"#\n## Fallback\n", "Fallback", "## Fallback"},
		{"# <br>\n## Second\n", "Second", "## Second"},
		{"Setext\n======\n", "Setext", "Setext\n======"},
		{"```\n# in code\n```\nafter code\n", "after code", "after code"},
		{"- **Fix** the bug\n", "Fix the bug", "**Fix** the bug"},
		{"> quoted *title*\n", "quoted title", "quoted *title*"},
		{"    indented code\n", "plan", ""},
		{"---\ntitle: fm\n---\nbody\n", "body", "body"},
		{"| a | b |\n|---|---|\n", "plan", ""},
	}
	for _, tc := range tests {
		src := []byte(tc.md)
		p := Parse(src)
		if p.Title != tc.title || rangeText(src, p.TitleRange) != tc.text {
			t.Errorf("Parse(%q): title %q from %q, want %q from %q", tc.md, p.Title, rangeText(src, p.TitleRange), tc.title, tc.text)
		}
	}
}

// TestLabelNumber: a label is a label in either number ("Target" as
// "Targets", "Fix" as "Fixes"), but a phrase that ends in a singular is not
// the plural's list ("Workflow per phase" is no list of phases), and a
// lead-in is not a label because a plural of its first word is one ("Not
// redis related:" is no "Notes").
func TestLabelNumber(t *testing.T) {
	for _, tc := range []struct {
		text string
		want kind
	}{
		{"target", kContext}, {"targets", kContext}, {"idea", kExclude}, {"ideas", kExclude},
		{"fix", kWork}, {"fixes", kWork}, {"deliverable", kWork}, {"risk", kContext}, {"risks", kContext},
		{"notes", kNotes}, {"tests", kVerify}, {"deployment tests", kVerify}, {"expected results", kContext},
		{"workflow per phase", kPlain}, {"progress", kLog}, {"status", kStatus}, {"process", kPlain},
		// Joined to context, checks or work decide; narrowing it does not.
		{"edge cases and acceptance", kCriteria}, {"background & tests", kVerify}, {"risks and mitigations", kContext},
		{"notes on verification", kNotes}, {"summary and next steps", kWork}, {"context and goals", kContext},
		{"plan de vérification", kVerify}, {"plan de travail", kWork},
	} {
		if got := labelKind(tc.text); got != tc.want {
			t.Errorf("labelKind(%q) = %d, want %d", tc.text, got, tc.want)
		}
	}
	if k := leadInClass("Not redis branch related:"); k != kPlain {
		t.Errorf(`leadInClass("Not redis branch related:") = %d, want plain`, k)
	}
}

// TestBoldLabel: a bold label ending in a colon leads a field, written
// either way round the closing "**".
func TestBoldLabel(t *testing.T) {
	for in, want := range map[string]bool{
		"**Option B (dev-only path):** No.": true, "**Owner**: ops": true, "**Add the cache** first": false,
		"Owner: ops": false, "**": false, "****: x": false,
	} {
		if got := boldLabel(in); got != want {
			t.Errorf("boldLabel(%q) = %v, want %v", in, got, want)
		}
	}
}
