package core

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/planls/planls/internal/plangen"
	"github.com/planls/planls/planparse"
)

// matchPlanRef is matchPlan as it was before alignedEnds and keyChains, kept
// to check that the rewrite gives identical results. Matching is in two passes:
//  1. exact key (scope, subject, planText): the k-th parsed item with a key
//     takes the k-th approved item with that key (in plan order), so
//     duplicate bullets each keep their own task;
//  2. the i-th still-unmatched parsed item takes the i-th still-unmatched
//     approved item (plan order) as Changed; the rest are New.
//
// Items with a blank subject are not plan items and get no entry.
func matchPlanRef(in *State, plan *planparse.Plan) ([]ItemMatch, []int) {
	st := sortedView(in)
	var approved []*Task // live plan items in plan order
	for _, t := range displayOrder(st) {
		if !t.isPlan() || t.Status == Deleted {
			break
		}
		approved = append(approved, t)
	}
	byKey := make(map[itemKey][]int, len(approved)) // key → indexes into approved, in order
	for i, t := range approved {
		k := taskKey(t)
		byKey[k] = append(byKey[k], i)
	}
	used := make([]bool, len(approved))
	items := usableItems(plan)
	matches := make([]ItemMatch, len(items))
	var unmatched []int // indexes into matches
	for m, i := range items {
		it := &plan.Items[i]
		matches[m] = ItemMatch{Item: i, Kind: New}
		k := keyOf(it.Scope, strings.TrimSpace(it.Subject), it.PlanText)
		if q := byKey[k]; len(q) > 0 {
			matches[m].TaskID, matches[m].Kind = approved[q[0]].ID, Same
			used[q[0]] = true
			byKey[k] = q[1:]
			continue
		}
		unmatched = append(unmatched, m)
	}
	var free []int
	for i := range approved {
		if !used[i] {
			free = append(free, i)
		}
	}
	for n, m := range unmatched {
		if n >= len(free) {
			break
		}
		matches[m].TaskID, matches[m].Kind = approved[free[n]].ID, Changed
		used[free[n]] = true
	}
	var missing []int
	for i, t := range approved {
		if !used[i] {
			missing = append(missing, t.ID)
		}
	}
	return matches, missing
}

// TestMatchPlanSameAsReference: on random approved states and random edited
// plans (duplicates, blank and padded subjects, shared and NUL-joined
// scopes, deleted and reordered plan items, agent todos), matchPlan gives
// exactly what the map-of-keys implementation gave.
func TestMatchPlanSameAsReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	scopes := [][]string{nil, {}, {"A"}, {"B"}, {"A", "B"}, {"A\x00B"}, {"A", "\x00B"}, {"A\x00", "B"}, {"", "A"}, {"A", ""}}
	subjects := []string{"a", "b", " a", "a ", "c", "", "  ", "d"}
	texts := []string{"", "x", "x\ny", "y"}
	randItem := func() planparse.Item {
		return item(scopes[r.IntN(len(scopes))], subjects[r.IntN(len(subjects))], texts[r.IntN(len(texts))])
	}
	for round := range 3000 {
		var st State
		n := r.IntN(12)
		for i := range n {
			it := randItem()
			tk := Task{ID: i + 1, Subject: it.Subject, Status: Pending, PlanScope: it.Scope, PlanText: it.PlanText}
			if r.IntN(5) > 0 {
				tk.Source = "plan"
				tk.PlanOrder = r.IntN(n + 1)
			}
			if r.IntN(6) == 0 {
				tk.Status = Deleted
			}
			st.Tasks = append(st.Tasks, tk)
		}
		if r.IntN(3) == 0 {
			r.Shuffle(len(st.Tasks), func(i, j int) { st.Tasks[i], st.Tasks[j] = st.Tasks[j], st.Tasks[i] })
		}
		plan := &planparse.Plan{}
		for range r.IntN(12) {
			plan.Items = append(plan.Items, randItem())
		}
		var in *State
		if r.IntN(20) > 0 {
			in = &st
		}
		gm, gmiss := MatchPlan(in, plan)
		wm, wmiss := matchPlanRef(in, plan)
		if !reflect.DeepEqual(gm, wm) || !reflect.DeepEqual(gmiss, wmiss) {
			t.Fatalf("round %d: got %v %v, want %v %v\nstate %+v\nplan %+v", round, gm, gmiss, wm, wmiss, st.Tasks, plan.Items)
		}
	}
}

// TestMatchPlanSameAsReferenceOnEdits: a generated plan, approved, then
// edited (items dropped, duplicated, changed, moved), matches as before.
func TestMatchPlanSameAsReferenceOnEdits(t *testing.T) {
	src := plangen.Generate(500, 2)
	p := planparse.Parse(src)
	st := Approve(Empty(), p, src, "PLAN.md", testOpts()).State
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 30 {
		q := &planparse.Plan{Items: append([]planparse.Item(nil), p.Items...)}
		for range 40 {
			i := r.IntN(len(q.Items))
			switch r.IntN(4) {
			case 0:
				q.Items = append(q.Items[:i], q.Items[i+1:]...)
			case 1:
				q.Items = append(q.Items, q.Items[i])
			case 2:
				q.Items[i].Subject += " changed"
			case 3:
				j := r.IntN(len(q.Items))
				q.Items[i], q.Items[j] = q.Items[j], q.Items[i]
			}
		}
		gm, gmiss := MatchPlan(st, q)
		wm, wmiss := matchPlanRef(st, q)
		if !reflect.DeepEqual(gm, wm) || !reflect.DeepEqual(gmiss, wmiss) {
			t.Fatalf("round %d differs", round)
		}
	}
}

// BenchmarkMatchPlan10kReference is BenchmarkMatchPlan10k with the former
// implementation, for the ratio on a loaded machine.
func BenchmarkMatchPlan10kReference(b *testing.B) {
	src := plangen.Generate(10000, 1)
	p := planparse.Parse(src)
	st := Approve(Empty(), p, src, "PLAN.md", testOpts()).State
	b.ReportAllocs()
	for b.Loop() {
		matchPlanRef(st, p)
	}
}

// editedPlan10k is a 10k-item plan approved, then with one bullet edited in
// the middle and re-parsed: the language server's case.
func editedPlan10k(b *testing.B) (*State, *planparse.Plan) {
	src := plangen.Generate(10000, 1)
	st := Approve(Empty(), planparse.Parse(src), src, "PLAN.md", testOpts()).State
	i := bytes.Index(src[len(src)/2:], []byte("\n- ")) + len(src)/2 + 3
	edited := append(append(append([]byte(nil), src[:i]...), "edited "...), src[i:]...)
	p := planparse.Parse(edited)
	if m, _ := MatchPlan(st, p); len(m) != 10000 {
		b.Fatalf("%d matches", len(m))
	}
	return st, p
}

// BenchmarkMatchPlan10kEdited: MatchPlan after a one-line edit (target < 5 ms).
func BenchmarkMatchPlan10kEdited(b *testing.B) {
	st, p := editedPlan10k(b)
	b.ReportAllocs()
	for b.Loop() {
		MatchPlan(st, p)
	}
}

// BenchmarkMatchPlan10kEditedReference is the former implementation on the
// same input.
func BenchmarkMatchPlan10kEditedReference(b *testing.B) {
	st, p := editedPlan10k(b)
	b.ReportAllocs()
	for b.Loop() {
		matchPlanRef(st, p)
	}
}
