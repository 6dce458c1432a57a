package store

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planls/planls/core"
)

// History with the real core: an approval, calls, a re-approval and a
// snapshot entry written after the journal lost its last line.
func TestHistory(t *testing.T) {
	root := t.TempDir()
	s := Open(root, "test")
	ctx := context.Background()
	plan := filepath.Join(root, "PLAN.md")
	write := func(text string) {
		t.Helper()
		if err := os.WriteFile(plan, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	call := func(p string) {
		t.Helper()
		if res, err := s.Call(ctx, json.RawMessage(p), core.Options{}); err != nil || !res.Changed {
			t.Fatalf("%s: %q %v", p, res.Envelope.Text(), err)
		}
	}
	history := func() ([]HistoryEntry, error) {
		var out []HistoryEntry
		err := s.History(ctx, func(h HistoryEntry) error { out = append(out, h); return nil })
		return out, err
	}
	if ev, err := history(); err != nil || len(ev) != 0 {
		t.Fatalf("empty history: %v %v", ev, err)
	}
	write("# Ship\n\n## Work\n- one\n- two\n")
	if _, err := s.Approve(ctx, plan, core.Options{}, ApproveOptions{}); err != nil {
		t.Fatal(err)
	}
	call(`{"action":"update","id":1,"status":"completed","evidence":"abc1234"}`)
	call(`{"action":"update","id":2,"status":"deferred","reason":"later"}`)
	write("# Ship\n\n## Work\n- one\n- three\n")
	if _, err := s.Approve(ctx, plan, core.Options{}, ApproveOptions{}); err != nil {
		t.Fatal(err)
	}

	ev, err := history()
	if err != nil || len(ev) != 4 {
		t.Fatalf("history: %d events, %v", len(ev), err)
	}
	if ev[0].Kind != "approve" || ev[0].Actor != "test" || len(ev[0].Changes) != 2 || ev[0].Changes[0].From != "" || ev[0].Changes[0].To != core.Pending || ev[0].Changes[0].Subject != "one" {
		t.Errorf("approval: %+v", ev[0])
	}
	c := ev[1].Changes
	if ev[1].Kind != "call" || len(c) != 1 || c[0].ID != 1 || c[0].From != core.Pending || c[0].To != core.Completed || c[0].Task.Evidence != "abc1234" || !strings.Contains(string(ev[1].Params), `"evidence":"abc1234"`) {
		t.Errorf("completion: %+v", ev[1])
	}
	if c[0].UID == "" || c[0].UID != ev[0].Changes[0].UID {
		t.Errorf("the completed task's identity %q is not the one it was approved with (%q)", c[0].UID, ev[0].Changes[0].UID)
	}
	var kinds []string
	for _, ch := range ev[3].Changes {
		kinds = append(kinds, string(ch.To))
	}
	// The re-approval tombstones #2 ("two") and creates #3 ("three").
	if got := strings.Join(kinds, " "); got != "deleted pending" || ev[3].Changes[0].ID != 2 || ev[3].Changes[1].ID != 3 {
		t.Errorf("re-approval changes: %s (%+v)", got, ev[3].Changes)
	}
	for i := 1; i < len(ev); i++ {
		if ev[i].Time.Before(ev[i-1].Time) || ev[i].Revision != ev[i-1].Revision+1 {
			t.Errorf("event %d out of order", i)
		}
	}

	// Drop the journal's last line: the next commit writes a snapshot,
	// which History reads as the changes since the entry before it.
	data, _ := os.ReadFile(s.JournalPath())
	lines := strings.SplitAfter(strings.TrimSuffix(string(data), "\n"), "\n")
	if err := os.WriteFile(s.JournalPath(), []byte(strings.Join(lines[:len(lines)-1], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	call(`{"action":"update","id":3,"status":"in_progress"}`)
	ev, err = history()
	if err != nil || len(ev) != 4 {
		t.Fatalf("after the snapshot: %d events, %v", len(ev), err)
	}
	last := ev[3]
	var ids []int
	for _, ch := range last.Changes {
		ids = append(ids, ch.ID)
	}
	// #1 is unchanged since the entry before; #2 was tombstoned and #3
	// created and started by the changes the snapshot stands for.
	if len(ids) != 2 || ids[0] != 2 || ids[1] != 3 || last.Changes[1].To != core.InProgress || last.Changes[1].From != "" {
		t.Errorf("snapshot changes %v: %+v", ids, last.Changes)
	}
}
