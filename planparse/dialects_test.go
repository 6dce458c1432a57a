package planparse

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestDialects: each plan in testdata/planparse/dialects shows one reading
// rule of docs/PLAN-FORMAT.md ("Dialects", "Sections", "Task headings",
// "Overrides"); want lists the 1-based lines where its items start.
func TestDialects(t *testing.T) {
	tests := []struct {
		file string
		want []int
	}{
		// Summary + Test plan: a plan-mode agent's layout. Each change
		// section is one item at its heading; the test bullets are checks.
		{"agent-layout.md", []int{6, 10, 14, 15}},
		// Front-matter todos are the items, plus the checks section; the
		// body restating the todos is not counted again.
		{"cursor-todos.md", []int{5, 8, 21}},
		// A numbered task heading under a work list is an item even with
		// nothing under it yet; "Phase 3: Deployment checks" groups the
		// checks under it, which are the items; "(ideas)" after a heading
		// says it is not work.
		{"heading-edges.md", []int{4, 5, 9, 10, 14}},
		// Kiro: top-level boxes; boxes nested under a box are its details.
		{"kiro.md", []int{3, 6, 9}},
		// Context and non-goal headings in Chinese, German, Japanese,
		// Korean, Spanish, Portuguese, French, Russian and Vietnamese.
		{"languages.md", []int{10, 11, 20, 44}},
		// "2." after a paragraph line is a list, as plan authors mean it.
		{"numbered-after-lead-in.md", []int{3, 5, 6}},
		// track makes a notes section work; skip drops a work section; a
		// "Do not" bullet is never work, a "Don't …" box is (a behaviour).
		{"overrides.md", []int{5, 12, 14}},
		// No markdown: "1) Title" lines are items, so are the lines after
		// "Acceptance Criteria:"; "1) Hygiene" over bullets is their label.
		{"plain-text.md", []int{3, 14, 16, 18, 25, 26}},
		// spec-kit: the T-numbered boxes; checkpoints, ordering, strategy
		// and a prose-only phase are not work (the plan tracks its boxes).
		{"spec-kit.md", []int{6, 7}},
		// superpowers: the step boxes are the items, led-in file lists are
		// not, and a file-structure heading does not swallow the tasks.
		{"superpowers.md", []int{13, 19, 22, 23}},
		// Task table rows and acceptance boxes; the overview table is not.
		{"table-tasks.md", []int{12, 13, 16, 17}},
		// Numbered task headings under a work list and "Step N" headings
		// are one item each; "3. Tests" is a checks section.
		{"task-headings.md", []int{7, 11, 15, 16, 18}},
	}
	for _, tc := range tests {
		src, err := os.ReadFile(filepath.Join("..", "testdata", "planparse", "dialects", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		p := Parse(src)
		checkInvariants(t, src, p)
		var got []int
		for _, it := range p.Items {
			got = append(got, bytes.Count(src[:it.Line.Start], []byte{'\n'})+1)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: items on lines %v, want %v", tc.file, got, tc.want)
		}
	}
}
