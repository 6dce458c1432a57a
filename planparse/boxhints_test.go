package planparse

import (
	"strings"
	"testing"
)

// A checkbox plan's plain section of numbered steps gives no items, and says so
// with the hint a skipped section gets; a section under it does not repeat
// the hint, and a section with nothing that looks like work gets none.
func TestCheckboxPlanStepsHint(t *testing.T) {
	src := []byte("# Plan\n\n## Stage 1\n\n### The migration\n\n1. Add the column.\n2. Backfill it.\n\n#### Batching\n\n" +
		"1. Batch by id, a thousand rows at a time.\n\n### Done when\n\n- [ ] The column is filled for every row.\n- [ ] The app reads it.\n\n" +
		"### Background\n\nThe old column is free text.\n")
	p := Parse(src)
	want := map[string]string{
		"The migration": "it has what looks like work (3 numbered steps); to track it, add <!-- planls: track --> under the heading",
		"Batching":      "",
		"Background":    "",
	}
	for _, h := range p.Headings {
		w, ok := want[h.Text]
		if !ok {
			continue
		}
		delete(want, h.Text)
		if h.Hint != w {
			t.Errorf("%q: hint %q, want %q", h.Text, h.Hint, w)
		}
	}
	if len(want) > 0 {
		t.Errorf("headings not found: %v", want)
	}
	if n := len(p.Items); n != 2 || !strings.HasPrefix(p.Items[0].Subject, "The column") {
		t.Errorf("items = %d, first %q; want the 2 checkboxes", n, p.Items[0].Subject)
	}
}
