package planparse

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// vectorItem is an item as testdata/planparse/vectors.json writes it.
type vectorItem struct {
	Group    string  `json:"group"`
	Subject  string  `json:"subject"`
	PlanText *string `json:"planText"`
	// Checkbox is only in planls overrides (P04); nil means "not compared".
	Checkbox *Checkbox `json:"-"`
}

type vector struct {
	ID    string       `json:"id"`
	Note  string       `json:"note"`
	MD    string       `json:"md"`
	Title string       `json:"title"`
	Items []vectorItem `json:"items"`
}

func loadVectors(t *testing.T) (p, tt []vector) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "testdata", "planparse", "vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var v struct{ P, T []vector }
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	if len(v.P) == 0 || len(v.T) == 0 {
		t.Fatal("vectors.json has no P or T vectors")
	}
	return v.P, v.T
}

func ptr[T any](v T) *T { return &v }

// planlsResults are the planls results of the ⚠ vectors (docs/PLAN-FORMAT.md,
// "Where planls differs from the rpiv vectors on purpose"). P18 and P22 are ⚠ but give rpiv's
// result under rule 4, so they are listed as sameAsRpiv.
var planlsResults = map[string]struct {
	title    string // "" means the vector's own title
	items    []vectorItem
	problems []int // 1-based lines of empty-item problems
}{
	"P04": {items: []vectorItem{
		{Group: "Work", Subject: "Write the parser", Checkbox: ptr(Unchecked)},
		{Group: "Work", Subject: "Add the lexer", Checkbox: ptr(Checked)},
		{Group: "Work", Subject: "Upper-case box", Checkbox: ptr(Checked)},
	}},
	"P13": {items: []vectorItem{}},
	// P08: "## Step 2: Scope the API" names a task; its bullet is a detail,
	// kept as the item's plan text, which starts with "\n" as a heading is
	// a block of its own (docs/PLAN-FORMAT.md "Task headings").
	"P08": {items: []vectorItem{
		{Group: "3. Implementation", Subject: "kept"},
		{Group: "Step 2: Scope the API", Subject: "Step 2: Scope the API", PlanText: ptr("\n- kept too")},
	}},
	"P16": {title: "Work", items: []vectorItem{
		{Group: "Work", Subject: "run it"},
		{Group: "Work", Subject: "next", PlanText: ptr("```js\nconst x = 1;\n```")},
	}},
	"P25": {items: []vectorItem{
		{Group: "Work", Subject: "indented first"},
		{Group: "Work", Subject: "column zero second"},
		{Group: "Work", Subject: "one space deeper nested"},
	}},
	"P26": {items: []vectorItem{{Group: "Work", Subject: "real"}}, problems: []int{3, 4}},
	"P28": {title: "Title", items: []vectorItem{{Group: "indented", Subject: "bullet under no heading"}}},
	"P36": {items: []vectorItem{
		{Group: "Work", Subject: "a", PlanText: ptr("loose continuation")},
		{Group: "Work", Subject: "b"},
	}},
	"T1": {title: "Add foo_bar support"},
	"T6": {title: "Real title"},
}

var sameAsRpiv = map[string]bool{"P18": true, "P22": true}

func TestVectorsP(t *testing.T) {
	ps, _ := loadVectors(t)
	for _, v := range ps {
		t.Run(v.ID, func(t *testing.T) {
			want, title := v.Items, v.Title
			var problems []int
			if o, ok := planlsResults[v.ID]; ok {
				want, problems = o.items, o.problems
				if o.title != "" {
					title = o.title
				}
			} else if strings.Contains(v.Note, "⚠") && !sameAsRpiv[v.ID] {
				t.Fatalf("⚠ vector %s has no planls result in this test", v.ID)
			}
			srcs := map[string][]byte{"LF": []byte(v.MD)}
			if !strings.Contains(v.MD, "\r") {
				for name, src := range lineEndingVariants([]byte(v.MD)) {
					srcs[name] = src
				}
			}
			for name, src := range srcs {
				plan := Parse(src)
				checkInvariants(t, src, plan)
				if plan.Title != title {
					t.Errorf("%s: title = %q, want %q", name, plan.Title, title)
				}
				compareItems(t, plan, want)
				var got []int
				for _, p := range plan.Problems {
					if p.Code == CodeEmptyItem {
						got = append(got, newLines(src).lineOf(p.Range.Start)+1)
					}
				}
				if !equalInts(got, problems) {
					t.Errorf("%s: empty-item problems on lines %v, want %v", name, got, problems)
				}
			}
		})
	}
}

func TestVectorsT(t *testing.T) {
	_, ts := loadVectors(t)
	for _, v := range ts {
		t.Run(v.ID, func(t *testing.T) {
			title := v.Title
			if o, ok := planlsResults[v.ID]; ok {
				title = o.title
			}
			if got := Parse([]byte(v.MD)).Title; got != title {
				t.Errorf("title of %q = %q, want %q", v.MD, got, title)
			}
		})
	}
}

func compareItems(t *testing.T, plan *Plan, want []vectorItem) {
	t.Helper()
	if len(plan.Items) != len(want) {
		t.Errorf("got %d items, want %d:\n%s", len(plan.Items), len(want), dumpItems(plan.Items))
		return
	}
	for i, w := range want {
		g := plan.Items[i]
		wantText := ""
		if w.PlanText != nil {
			wantText = *w.PlanText
		}
		if g.Group != w.Group || g.Subject != w.Subject || g.PlanText != wantText {
			t.Errorf("item %d = %q / %q [%q], want %q / %q [%q]", i, g.Group, g.Subject, g.PlanText, w.Group, w.Subject, wantText)
		}
		if w.Checkbox != nil && g.Checkbox != *w.Checkbox {
			t.Errorf("item %d checkbox = %v, want %v", i, g.Checkbox, *w.Checkbox)
		}
	}
}

func dumpItems(items []Item) string {
	var b strings.Builder
	for _, it := range items {
		b.WriteString("  " + it.Group + " / " + it.Subject)
		if it.PlanText != "" {
			b.WriteString(" [" + strings.ReplaceAll(it.PlanText, "\n", "⏎") + "]")
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
