package core

import (
	"reflect"
	"strings"
	"testing"

	"github.com/planls/planls/internal/plangen"
	"github.com/planls/planls/planparse"
)

// TestAnalyzeFromPrevIsFresh: an analysis made from the one before it
// (Input.Prev: the parts, match keys and texts it keeps) is the analysis
// made from nothing, through a run of edits of every kind and changes of
// the state between them (a status, a re-approval).
func TestAnalyzeFromPrevIsFresh(t *testing.T) {
	src := string(plangen.Generate(60, 3))
	st := Approve(Empty(), planparse.Parse([]byte(src)), []byte(src), "PLAN.md", testOpts()).State
	it := planparse.Parse([]byte(src)).Items[0]
	first, line := it.SubjectRange.Start, src[it.Line.Start:it.Line.End] // an item's subject and line
	reworded := src[:first] + "reworded " + src[first:]
	edits := []func(string) string{
		func(s string) string { return strings.Replace(s, "\n## ", "\n- an extra bullet\n\n## ", 1) },
		func(s string) string { return s[:first] + "edited " + s[first:] },
		func(s string) string { return s + "\n- a new item at the end\n" },
		func(s string) string { return s + "\n" + line + "\n" }, // a duplicate
		func(s string) string { // the plan text of an item
			end := it.Line.End
			return s[:end] + "\n  more of its plan text" + s[end:]
		},
		func(s string) string { return strings.Replace(s, "\n## ", "\n### ", 2) },
		func(s string) string { return strings.Replace(s, " ", "\n", 1) },
		func(s string) string { return "" },
		func(s string) string { return s },
	}
	states := []*State{st,
		Do(st, UpdateOp{ID: st.Tasks[0].ID, Status: ptr(InProgress)}, testOpts()).State,
		Approve(st, planparse.Parse([]byte(reworded)), []byte(reworded), "PLAN.md", testOpts()).State,
	}
	var prev *Analysis
	for round := 0; round < 2; round++ {
		for j, s := range states {
			for k, edit := range edits {
				text := []byte(edit(src))
				in := Input{State: s, Src: text, Exists: true}
				fresh := Analyze(in)
				in.Prev = prev
				got := Analyze(in)
				if !sameAnalysis(got, fresh) {
					t.Fatalf("round %d, edit %d, state %d: the analysis from the one before differs from a fresh one", round, k, j)
				}
				prev = got
			}
		}
	}
}

// sameAnalysis compares what an Analysis says (not what it keeps for the
// next one).
func sameAnalysis(a, b *Analysis) bool {
	x, y := *a, *b
	x.memo, y.memo = nil, nil
	px, py := *x.Plan, *y.Plan
	x.Plan, y.Plan = nil, nil
	return reflect.DeepEqual(x, y) && reflect.DeepEqual(px.Items, py.Items) && reflect.DeepEqual(px.Problems, py.Problems) &&
		reflect.DeepEqual(px.Headings, py.Headings) && px.Title == py.Title && px.TitleRange == py.TitleRange
}
