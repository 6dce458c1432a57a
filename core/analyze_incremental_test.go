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
		func(s string) string { return strings.Replace(s, "- [ ] ", "- [x] ", 1) }, // a box ticked
	}
	// Completed items (one with weak evidence), a deferred one, one that
	// is blocked: each item's findings, kept or written again, vary.
	last := st.Tasks[len(st.Tasks)-1].ID
	done := Do(st, UpdateOp{ID: last, Status: ptr(Completed), Evidence: ptr("commit 1234abcd: the tests pass")}, testOpts()).State
	done = Do(done, UpdateOp{ID: last - 1, Status: ptr(Completed), Evidence: ptr("done")}, testOpts()).State
	done = Do(done, UpdateOp{ID: last - 2, Status: ptr(Deferred), Reason: ptr("later")}, testOpts()).State
	done = Do(done, UpdateOp{ID: last - 3, AddBlockedBy: []int{last - 4}}, testOpts()).State
	states := []*State{st,
		Do(st, UpdateOp{ID: st.Tasks[0].ID, Status: ptr(InProgress)}, testOpts()).State,
		Approve(st, planparse.Parse([]byte(reworded)), []byte(reworded), "PLAN.md", testOpts()).State,
		done,
	}
	// The verification of the completed items changes under the same
	// state and text: their findings must follow it.
	verdicts := []map[int]Verdict{nil,
		{last: {State: "failed", Reason: "no such commit"}},
		{last: {State: "failed", Reason: "the commit changes nothing"}},
		{last: {State: "verified", Held: []string{"commit 1234abcd"}}, last - 1: {State: "verified", Held: []string{"x"}}},
		{last: {State: "verified", Held: []string{"commit 1234abcd", "more"}}},
	}
	var prev *Analysis
	for round := 0; round < 2; round++ {
		for j, s := range states {
			for k, edit := range edits {
				for v, vs := range verdicts {
					text := []byte(edit(src))
					in := Input{State: s, Src: text, Exists: true, Verdicts: vs}
					fresh := Analyze(in)
					in.Prev = prev
					got := Analyze(in)
					if !sameAnalysis(got, fresh) {
						t.Fatalf("round %d, edit %d, state %d, verdicts %d: the analysis from the one before differs from a fresh one", round, k, j, v)
					}
					prev = got
				}
			}
		}
	}
}

// sameAnalysis compares what an Analysis says (not what it keeps for the
// next one).
func sameAnalysis(a, b *Analysis) bool {
	x, y := *a, *b
	x.memo, y.memo = nil, nil
	x.kept, y.kept = [2]int{}, [2]int{}
	px, py := *x.Plan, *y.Plan
	x.Plan, y.Plan = nil, nil
	return reflect.DeepEqual(x, y) && reflect.DeepEqual(px.Items, py.Items) && reflect.DeepEqual(px.Problems, py.Problems) &&
		reflect.DeepEqual(px.Headings, py.Headings) && px.Title == py.Title && px.TitleRange == py.TitleRange
}
