package core

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"
)

// branchOff applies n random calls (and now and then an approval of one of
// two plans) to base, each with its own clock and evidence text.
func branchOff(rng *rand.Rand, base *State, n int, side string) *State {
	st := base
	for i := 0; i < n; i++ {
		now := testNow.Add(time.Duration(rng.IntN(1000)) * time.Second)
		if rng.IntN(15) == 0 {
			md := planAMarkdown
			plan := planA()
			if rng.IntN(2) == 0 {
				plan.Items = plan.Items[:2]
				md += "<!-- " + side + " -->"
			}
			st = Approve(st, plan, []byte(md), "PLAN.md", Options{Now: now}).State
			continue
		}
		params := randomCall(rng, st)
		params = strings.ReplaceAll(params, `"evidence":"ev"`, fmt.Sprintf(`"evidence":"%s ev %d"`, side, i))
		params = strings.ReplaceAll(params, `"reason":"why"`, fmt.Sprintf(`"reason":"%s why %d"`, side, i))
		st = call(st, json.RawMessage(params), Options{Now: now}).State
	}
	return st
}

// Merging any two branches of a state gives a valid state that keeps every
// evidence, reason and note of both, keeps every completion (as completed,
// or in a tombstone with its evidence), and is the same every time.
func TestMergeProperties(t *testing.T) {
	for seed := uint64(0); seed < 300; seed++ {
		rng := rand.New(rand.NewPCG(seed, 13))
		base := branchOff(rng, planAState(t), rng.IntN(8), "base")
		ours := branchOff(rng, base, 1+rng.IntN(10), "ours")
		theirs := branchOff(rng, base, 1+rng.IntN(10), "theirs")
		r := Merge(base, ours, theirs, MergeOptions{})
		if errs, _ := Validate(r.State); len(errs) > 0 {
			t.Fatalf("seed %d: invalid merge: %v", seed, errs)
		}
		merged := tasksByID(r.State)
		check := func(side *State, renum map[int]int) {
			for _, k := range side.Tasks {
				id := k.ID
				if n, ok := renum[id]; ok {
					id = n
				}
				m := merged[id]
				if b := tasksByID(base)[k.ID]; m == nil && b != nil && sameTask(b, &k) {
					continue // removed (clear) on the other side, unchanged on this one
				}
				if m == nil {
					t.Fatalf("seed %d: #%d lost", seed, id)
				}
				// A side's own change of a proof is kept; a value it only
				// inherited from base may be changed by the other side.
				var bk Task
				if b := tasksByID(base)[k.ID]; b != nil {
					bk = *b
				}
				for _, p := range [][3]string{{k.Evidence, m.Evidence, bk.Evidence}, {k.Reason, m.Reason, bk.Reason}, {k.Note, m.Note, bk.Note}} {
					if p[0] != p[2] && !strings.Contains(p[1], p[0]) {
						t.Fatalf("seed %d: #%d lost %q (merged %q)", seed, id, p[0], p[1])
					}
				}
				if k.Status == Completed && m.Status != Completed && m.Status != Deleted {
					if r.Conflict == "" && !reopenedOnOtherSide(base, ours, theirs, k.ID) {
						t.Fatalf("seed %d: #%d completed became %s", seed, id, m.Status)
					}
				}
			}
		}
		check(ours, nil)
		check(theirs, r.Renumbered)
		if again := Merge(base, ours, theirs, MergeOptions{}); !reflect.DeepEqual(again, r) {
			t.Fatalf("seed %d: not deterministic", seed)
		}
	}
}

// reopenedOnOtherSide reports a completion that is the base's, which the
// other branch reopened on purpose: a status moved on one side only wins.
func reopenedOnOtherSide(base, ours, theirs *State, id int) bool {
	b := tasksByID(base)[id]
	return b != nil && b.Status == Completed
}
