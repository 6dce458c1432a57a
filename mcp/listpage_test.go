package mcp

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/planls/planls/core"
	"github.com/planls/planls/store"
)

// A list op inside a batch is held to the page budget like a lone list:
// fewer rows, its cursor goes on after the last row shown, the
// batch's change is applied and journaled once, and details.params are the
// client's. A read-only batch is cut the same way.
func TestBatchListPageBudget(t *testing.T) {
	root := newProject(t)
	bigState(t, root, 3000)
	cs := connect(t, Options{Root: root})
	cursorRe := regexp.MustCompile(`\(1-(\d+) of 3000 shown; pass cursor "([^"]+)" for more\)`)
	cases := []struct {
		name, args, head string
	}{
		{"changes", `{"ops":[{"action":"update","id":2999,"status":"in_progress"},{"action":"list","limit":200},{"action":"get","id":3000}]}`,
			"Applied 3 ops\n[0] Updated #2999 (pending → in_progress)\n[1] [pending] #1 task number 1 with a longer subject line\n"},
		{"reads", `{"ops":[{"action":"list","limit":200},{"action":"get","id":3000}]}`,
			"Applied 2 ops\n[0] [pending] #1 task number 1 with a longer subject line\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := call(t, cs, tc.args)
			if got.IsError || len(got.Raw) > pageBytes {
				t.Fatalf("%d bytes (budget %d), error %v:\n%.300s", len(got.Raw), pageBytes, got.IsError, got.Text)
			}
			if !strings.HasPrefix(got.Text, tc.head) {
				t.Fatalf("text starts %q, want %q", got.Text[:min(len(got.Text), 200)], tc.head)
			}
			m := cursorRe.FindStringSubmatch(got.Text)
			if m == nil {
				t.Fatalf("no page line in:\n%s", got.Text[max(0, len(got.Text)-300):])
			}
			var n int
			fmt.Sscan(m[1], &n)
			if rows := len(rowIDs(got.Text)); n >= 200 || n < 50 || rows < n {
				t.Fatalf("the list shows %d rows (%d row lines in the text), want fewer than 200 and at least 50", n, rows)
			}
			var want any
			json.Unmarshal([]byte(tc.args), &want)
			if fmt.Sprint(got.Details.Params) != fmt.Sprint(want) {
				t.Errorf("details.params %v, want the client's %s", got.Details.Params, tc.args)
			}
			next := call(t, cs, fmt.Sprintf(`{"action":"list","limit":5,"cursor":%q}`, m[2]))
			if ids := rowIDs(next.Text); len(ids) == 0 || ids[0] != n+1 {
				t.Fatalf("the cursor goes on at %v, want #%d", ids, n+1)
			}
			st := readState(t, root)
			if st.Revision != 2 || taskByID(t, st, 2999).Status != core.InProgress {
				t.Fatalf("revision %d, #2999 %s", st.Revision, taskByID(t, st, 2999).Status)
			}
			entries, _, err := store.ReadJournal(store.Open(root, "test").JournalPath())
			if err != nil || len(entries) != 1 || string(entries[0].Params) != cases[0].args {
				t.Fatalf("journal: %d entries, %v", len(entries), err)
			}
		})
	}
}
