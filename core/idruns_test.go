package core

import (
	"fmt"
	"strings"
	"testing"
)

func TestIDRuns(t *testing.T) {
	status := func(s ...string) func(int) string {
		return func(i int) string { return " (" + s[i] + ")" }
	}
	seq := func(from, to int) []int {
		var out []int
		for i := from; i <= to; i++ {
			out = append(out, i)
		}
		return out
	}
	tests := []struct {
		name  string
		ids   []int
		label func(int) string
		want  string
	}{
		{"empty", nil, nil, ""},
		{"one", []int{7}, nil, "#7"},
		{"two consecutive stay apart", []int{4, 5}, nil, "#4, #5"},
		{"three make a run", []int{4, 5, 6, 8}, nil, "#4–#6, #8"},
		{"the seed example", append(seq(1, 2999), 3001), nil, "#1–#2999, #3001"},
		{"descending is not a run", []int{3, 2, 1}, nil, "#3, #2, #1"},
		{"runs after singles", []int{9, 1, 2, 3, 5, 6, 7, 8}, nil, "#9, #1–#3, #5–#8"},
		{"labels split runs", []int{1, 2, 3, 4}, status("pending", "pending", "pending", "completed"), "#1–#3 (pending), #4 (completed)"},
		{"labels on singles", []int{6, 5}, status("deferred", "completed"), "#6 (deferred), #5 (completed)"},
		{"cut after maxRuns", seq2(1, 2*(maxRuns+5)), nil, strings.TrimSuffix(evens(maxRuns), ", ") + ", … and 5 more"},
	}
	for _, tt := range tests {
		if got := idRuns(tt.ids, tt.label); got != tt.want {
			t.Errorf("%s: idRuns = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// seq2 is every second id from from to to.
func seq2(from, to int) []int {
	var out []int
	for i := from; i <= to; i += 2 {
		out = append(out, i)
	}
	return out
}

// evens renders the first n ids of seq2(1, …) as idRuns lists them.
func evens(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "#%d, ", 2*i+1)
	}
	return b.String()
}

func TestUndoHint(t *testing.T) {
	if got := undoHint([]int{4, 5, 6, 8}); got != `{"action":"restore","ids":[4,5,6,8]}` {
		t.Errorf("short: %q", got)
	}
	if got := undoHint(make([]int, maxUndoIDs+1)); got != `{"action":"restore"} (without ids, restore undoes this delete_all)` {
		t.Errorf("long: %q", got)
	}
}

// TestBulkDeleteAllAndRestoreTexts: 3,000 tasks, one kept out of the run by
// completing-then-deleting it first: the texts stay short, the undo hint
// undoes exactly the delete_all, and details.ids has every id.
func TestBulkDeleteAllAndRestoreTexts(t *testing.T) {
	st := manyTasks(t, 3001)
	st, _ = mustCall(t, st, `{"action":"update","id":3000,"status":"completed","evidence":"done"}`)
	st, _ = mustCall(t, st, `{"action":"delete","id":2999}`)
	del, res := mustCall(t, st, `{"action":"delete_all","confirm_delete_all":true}`)
	want := `Deleted 3000 tasks: #1–#2998, #3000, #3001. Undo with {"action":"restore"} (without ids, restore undoes this delete_all)`
	if res.Envelope.Text() != want {
		t.Fatalf("delete_all text %q, want %q", res.Envelope.Text(), want)
	}
	ids := res.Envelope.Details.IDs
	if len(ids) != 3000 || ids[0] != 1 || ids[2997] != 2998 || ids[2998] != 3000 || ids[2999] != 3001 {
		t.Fatalf("details.ids: %d ids, %v…%v", len(ids), ids[:3], ids[len(ids)-3:])
	}
	back, res := mustCall(t, del, `{"action":"restore"}`)
	want = "Restored 3000 tasks: #1–#2998 (pending), #3000 (completed), #3001 (pending)"
	if res.Envelope.Text() != want {
		t.Fatalf("restore text %q, want %q", res.Envelope.Text(), want)
	}
	if len(res.Envelope.Details.IDs) != 3000 {
		t.Fatalf("restore details.ids: %d", len(res.Envelope.Details.IDs))
	}
	if back.task(2999).Status != Deleted || back.task(3000).Status != Completed || back.task(1).Status != Pending {
		t.Fatal("restore without ids did not undo exactly the delete_all")
	}
}

// TestDetailsIDsOnlyForBulkActions: other actions leave details.ids out; a
// batch gathers its delete_all and restore ops.
func TestDetailsIDsOnlyForBulkActions(t *testing.T) {
	st := manyTasks(t, 3)
	_, res := mustCall(t, st, `{"action":"update","id":1,"owner":"x"}`)
	if res.Envelope.Details.IDs != nil {
		t.Fatalf("update: details.ids %v", res.Envelope.Details.IDs)
	}
	_, res = mustCall(t, st, `{"ops":[{"action":"delete_all","confirm_delete_all":true},{"action":"restore","ids":[2]}]}`)
	if got := fmt.Sprint(res.Envelope.Details.IDs); got != "[1 2 3 2]" {
		t.Fatalf("batch details.ids %s", got)
	}
}
