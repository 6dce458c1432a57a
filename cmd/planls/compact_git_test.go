package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planls/planls/core"
	"github.com/planls/planls/store"
)

// Merges and rebases of sealed journals, with the real git and the real
// binary as the driver, the tail sealed every few kilobytes so that each
// branch seals on its own after the fork. After each: the state is right,
// doctor is clean, the journal's tail replays to the state, a rebuild
// matches, and the whole history holds every change of every branch once.

// sealEvery makes every planls (and the driver git runs) seal the tail
// past a few kilobytes.
func sealEvery(t *testing.T) { t.Setenv(store.EnvSealBytes, "3000") }

// busy runs n owner updates of task id, one process each (one entry each).
func busy(t *testing.T, dir string, id, n int, who string) {
	t.Helper()
	for i := range n {
		planls(t, dir, "todo", "update", fmt.Sprint(id), "--owner", fmt.Sprintf("%s-%d", who, i))
	}
}

// historyOf is the whole history of dir's journal.
func historyOf(t *testing.T, dir string) []store.HistoryEntry {
	t.Helper()
	var out []store.HistoryEntry
	if err := store.Open(dir, "test").History(context.Background(), func(e store.HistoryEntry) error {
		out = append(out, e)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// completions counts, per task identity, the history's changes that
// completed it, and checks nothing is given twice.
func completions(t *testing.T, h []store.HistoryEntry) map[string]int {
	t.Helper()
	out := map[string]int{}
	seen := map[string]bool{}
	for _, e := range h {
		k := e.Time.String() + e.Actor + e.Result
		if seen[k] {
			t.Errorf("history gives an entry twice: %s %s", e.Time, e.Result)
		}
		seen[k] = true
		for _, c := range e.Changes {
			if c.To == core.Completed && c.From != core.Completed {
				out[c.UID]++
			}
		}
	}
	return out
}

func sealedSegments(t *testing.T, dir string) []string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, ".planls", "journal", "*.jsonl.gz"))
	return m
}

func TestTeamSealedJournalsMerge(t *testing.T) {
	sealEvery(t)
	dir := teamRepo(t)
	git(t, dir, "checkout", "-q", "-b", "a", "main")
	busy(t, dir, 1, 20, "a")
	planls(t, dir, "todo", "complete", "1", "--evidence", "a: go test ./...")
	commitAll(t, dir, "a")
	git(t, dir, "checkout", "-q", "-b", "b", "main")
	busy(t, dir, 2, 20, "b")
	planls(t, dir, "todo", "complete", "2", "--evidence", "b: ran the demo")
	planls(t, dir, "todo", "create", "b todo")
	planls(t, dir, "todo", "complete", "4", "--evidence", "b: todo done")
	commitAll(t, dir, "b")
	git(t, dir, "checkout", "-q", "main")
	busy(t, dir, 3, 10, "main")
	commitAll(t, dir, "main")
	mergeBranch(t, dir, "a")
	mergeBranch(t, dir, "b")
	if n := len(sealedSegments(t, dir)); n < 4 {
		t.Fatalf("only %d sealed segments: the branches did not seal", n)
	}
	st := checkTeamState(t, dir, map[int]string{1: "a: go test", 2: "b: ran the demo", 4: "b: todo done"})
	if doc := planls(t, dir, "doctor"); strings.Contains(doc, "journal line") || !strings.Contains(doc, "sealed history: ") {
		t.Errorf("doctor:\n%s", doc)
	}
	if out := planls(t, dir, "doctor", "--rebuild"); !strings.Contains(out, "matches the journal") {
		t.Errorf("rebuild:\n%s", out)
	}
	h := historyOf(t, dir)
	// 1 approval, a's 21, b's 23, main's 10, two merges.
	if len(h) != 1+21+23+10+2 {
		t.Errorf("history has %d entries, want 57", len(h))
	}
	done := completions(t, h)
	for _, id := range []int{1, 2, 4} {
		if k := findTask(st, id); done[k.UID] != 1 {
			t.Errorf("#%d completed %d times in the history, want once", id, done[k.UID])
		}
	}
}

// A rebase of a branch that created and completed a task, on sealed journals: both sides seal between
// the fork and the rebase, and both created #4.
func TestTeamSealedJournalsRebase(t *testing.T) {
	sealEvery(t)
	dir := teamRepo(t)
	git(t, dir, "checkout", "-q", "-b", "bob", "main")
	busy(t, dir, 1, 15, "bob")
	planls(t, dir, "todo", "create", "bob task")
	commitAll(t, dir, "bob: create")
	busy(t, dir, 2, 15, "bob")
	planls(t, dir, "todo", "complete", "4", "--evidence", "CHANGELOG.md:1")
	commitAll(t, dir, "bob: complete")
	git(t, dir, "checkout", "-q", "main")
	busy(t, dir, 3, 15, "main")
	planls(t, dir, "todo", "create", "main task")
	commitAll(t, dir, "main: create")
	bobUID, mainUID := uids(t, dir)
	git(t, dir, "checkout", "-q", "bob")
	git(t, dir, "rebase", "main")
	checkBobsCompletion(t, dir, bobUID, mainUID)
	if out := planls(t, dir, "doctor", "--rebuild"); !strings.Contains(out, "matches the journal") {
		t.Errorf("rebuild:\n%s", out)
	}
	h := historyOf(t, dir)
	// 1 approval, bob's 32, main's 16, one merge per replayed commit.
	if len(h) != 1+32+16+2 {
		t.Errorf("history has %d entries, want 51", len(h))
	}
	if done := completions(t, h); done[bobUID] != 1 || done[mainUID] != 0 {
		t.Errorf("completions in the history: bob %d, main %d", done[bobUID], done[mainUID])
	}
}

// Merged as text by a clone without the driver after both branches
// sealed: the tails conflict whole. doctor --rebuild --move-aside finds
// the fork through the sealed segments and keeps both branches' work.
func TestTeamSealedJournalsMergedAsText(t *testing.T) {
	sealEvery(t)
	dir := teamRepo(t)
	git(t, dir, "config", "--remove-section", "merge.planls")
	git(t, dir, "checkout", "-q", "-b", "a", "main")
	busy(t, dir, 1, 15, "a")
	planls(t, dir, "todo", "complete", "1", "--evidence", "a proof")
	commitAll(t, dir, "a")
	git(t, dir, "checkout", "-q", "-b", "b", "main")
	busy(t, dir, 2, 15, "b")
	planls(t, dir, "todo", "complete", "2", "--evidence", "b proof")
	commitAll(t, dir, "b")
	git(t, dir, "checkout", "-q", "main")
	mergeBranch(t, dir, "a")
	if out := gitRun(t, dir, true, "merge", "-m", "merge b", "b"); !strings.Contains(out, "CONFLICT") {
		t.Fatalf("expected a text conflict:\n%s", out)
	}
	planls(t, dir, "doctor", "--rebuild", "--move-aside")
	git(t, dir, "add", ".planls")
	git(t, dir, "commit", "-q", "-m", "merge b (repaired)")
	planls(t, dir, "init")
	st := checkTeamState(t, dir, map[int]string{1: "a proof", 2: "b proof"})
	if k := findTask(st, 3); k.Status != core.Pending || k.Owner != nil {
		t.Errorf("#3 %+v", k)
	}
	if k := findTask(st, 1); k.Owner == nil || *k.Owner != "a-14" {
		t.Errorf("#1 lost a's last owner: %+v", k)
	}
	if k := findTask(st, 2); k.Owner == nil || *k.Owner != "b-14" {
		t.Errorf("#2 lost b's last owner: %+v", k)
	}
	if _, err := os.Stat(filepath.Join(dir, ".planls", "journal")); err != nil {
		t.Fatal(err)
	}
}
