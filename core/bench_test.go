package core

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/planls/planls/internal/plangen"
	"github.com/planls/planls/planparse"
)

// BenchmarkBatch10kMutations: one ops call of 10,000 mutations (5,000
// creates, each followed by an update of the task it made).
func BenchmarkBatch10kMutations(b *testing.B) {
	ops := make([]string, 0, 10000)
	for i := 1; i <= 5000; i++ {
		ops = append(ops, fmt.Sprintf(`{"action":"create","subject":"task %d"}`, i),
			fmt.Sprintf(`{"action":"update","id":%d,"status":"in_progress","owner":"bench"}`, i))
	}
	params := json.RawMessage(`{"ops":[` + strings.Join(ops, ",") + `]}`)
	opts := testOpts()
	b.ReportAllocs()
	for b.Loop() {
		res := Call(Empty(), params, opts)
		if res.Envelope.IsError() || len(res.State.Tasks) != 5000 {
			b.Fatal(res.Envelope.Text()[:200])
		}
	}
}

// BenchmarkCalls10kOn1kState: 10,000 separate update calls (copy on write
// each) on a state of 1,000 tasks; ns/op is for all 10,000.
func BenchmarkCalls10kOn1kState(b *testing.B) {
	ops := make([]string, 1000)
	for i := range ops {
		ops[i] = fmt.Sprintf(`{"action":"create","subject":"task %d"}`, i+1)
	}
	opts := testOpts()
	start := Call(Empty(), json.RawMessage(`{"ops":[`+strings.Join(ops, ",")+`]}`), opts).State
	calls := make([]json.RawMessage, 10000)
	for i := range calls {
		calls[i] = json.RawMessage(fmt.Sprintf(`{"action":"update","id":%d,"owner":"o%d"}`, i%1000+1, i))
	}
	b.ReportAllocs()
	for b.Loop() {
		st := start
		for _, c := range calls {
			st = Call(st, c, opts).State
		}
		if st.task(1000).Owner == nil {
			b.Fatal("no change")
		}
	}
}

// BenchmarkListPage: one list call (first page of 20) on 1,000 tasks.
func BenchmarkListPage(b *testing.B) {
	ops := make([]string, 1000)
	for i := range ops {
		ops[i] = fmt.Sprintf(`{"action":"create","subject":"task %d"}`, i+1)
	}
	opts := testOpts()
	st := Call(Empty(), json.RawMessage(`{"ops":[`+strings.Join(ops, ",")+`]}`), opts).State
	params := json.RawMessage(`{"action":"list","item_status":"open"}`)
	b.ReportAllocs()
	for b.Loop() {
		Call(st, params, opts)
	}
}

// BenchmarkReapprove10k reconciles a 10,000-item re-approval (parsing not
// timed). "same": every item unchanged (all kept); "changed": a different
// plan of 10,000 items (all new, all old tombstoned).
func BenchmarkReapprove10k(b *testing.B) {
	src1 := plangen.Generate(10000, 1)
	p1 := planparse.Parse(src1)
	if len(p1.Items) != 10000 {
		b.Fatalf("plangen gave %d items", len(p1.Items))
	}
	opts := testOpts()
	st := Approve(Empty(), p1, src1, "PLAN.md", opts).State
	for _, tc := range []struct {
		name string
		src  []byte
		plan *planparse.Plan
	}{
		{"same", append([]byte("<!-- edited -->\n"), src1...), p1},
		{"changed", plangen.Generate(10000, 2), planparse.Parse(plangen.Generate(10000, 2))},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				res := Approve(st, tc.plan, tc.src, "PLAN.md", opts)
				if !res.Changed {
					b.Fatal("no change")
				}
			}
		})
	}
}

// BenchmarkMatchPlan10k links a 10,000-item plan file to its approved items.
func BenchmarkMatchPlan10k(b *testing.B) {
	src := plangen.Generate(10000, 1)
	p := planparse.Parse(src)
	st := Approve(Empty(), p, src, "PLAN.md", testOpts()).State
	b.ReportAllocs()
	for b.Loop() {
		MatchPlan(st, p)
	}
}

// plan1600 is a generated plan of about 1,600 lines (issue 10: approving a
// plan of that size must not get slower as the reading rules grow).
func plan1600(b *testing.B, seed int64) []byte {
	for n := 300; ; n += 10 {
		src := plangen.Generate(n, seed)
		if bytes.Count(src, []byte{'\n'}) >= 1600 {
			return src
		}
	}
}

// BenchmarkApprove1600Lines is the whole approval of a 1,600-line plan, as
// `planls approve` does it minus the disk: parse, then approve. "fresh":
// into an empty state; "edited": re-approval after another plan of that size.
//
// Measured on the 2-core dev machine: before issue 10 (with the parse cache's
// break prediction) fresh ≈ see docs/notes in the commit; after, see below.
func BenchmarkApprove1600Lines(b *testing.B) {
	src, other := plan1600(b, 1), plan1600(b, 2)
	opts := testOpts()
	base := Approve(Empty(), planparse.Parse(other), other, "PLAN.md", opts).State
	for _, tc := range []struct {
		name string
		st   *State
	}{{"fresh", Empty()}, {"edited", base}} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				res := Approve(tc.st, planparse.Parse(src), src, "PLAN.md", opts)
				if !res.Changed {
					b.Fatal("no change")
				}
			}
		})
	}
}
