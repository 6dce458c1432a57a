package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planls/planls/core"
)

// A task keeps its identity (core.Task.UID) through every way git moves a
// change between branches: Bob's branch creates a task and, in a second
// commit, completes it, while main creates a different task with the same
// display id. Merging, rebasing onto main, or cherry-picking Bob's commits
// must complete Bob's task, never main's, and leave a clean doctor. Before
// tasks had an identity, the rebase's second step applied the completion
// to main's task (both were #4) and doctor blamed a merge "as text".

// bobAndMain is a team repository where branch bob created "bob task" (#4)
// in one commit and completed it in a second, and main then created its
// own #4 "main task". It ends on main.
func bobAndMain(t *testing.T) string {
	t.Helper()
	dir := teamRepo(t)
	git(t, dir, "checkout", "-q", "-b", "bob", "main")
	planls(t, dir, "todo", "create", "bob task")
	commitAll(t, dir, "bob: create")
	planls(t, dir, "todo", "complete", "4", "--evidence", "CHANGELOG.md:1")
	commitAll(t, dir, "bob: complete")
	git(t, dir, "checkout", "-q", "main")
	planls(t, dir, "todo", "create", "main task")
	commitAll(t, dir, "main: create")
	return dir
}

// bySubject is the task of that subject; it fails the test when there is
// not exactly one.
func bySubject(t *testing.T, st *core.State, subject string) core.Task {
	t.Helper()
	var out []core.Task
	for _, k := range st.Tasks {
		if k.Subject == subject {
			out = append(out, k)
		}
	}
	if len(out) != 1 {
		t.Fatalf("%d tasks %q in %+v", len(out), subject, st.Tasks)
	}
	return out[0]
}

// checkBobsCompletion is the check after every way of bringing Bob's two
// commits over: Bob's task completed with his evidence, main's still
// pending, both with the identity they were created with, and doctor
// clean (checkTeamState).
func checkBobsCompletion(t *testing.T, dir string, bobUID, mainUID string) {
	t.Helper()
	checkBobsTasks(t, dir, bobUID, mainUID)
	doc := planls(t, dir, "doctor")
	if strings.Contains(doc, "merged as text") || strings.Contains(doc, "journal line") {
		t.Errorf("doctor after a driver merge:\n%s", doc)
	}
}

// checkBobsTasks is checkBobsCompletion without its look at doctor's notes.
func checkBobsTasks(t *testing.T, dir string, bobUID, mainUID string) {
	t.Helper()
	st := checkTeamState(t, dir, nil)
	bob, main := bySubject(t, st, "bob task"), bySubject(t, st, "main task")
	if bob.Status != core.Completed || bob.Evidence != "CHANGELOG.md:1" {
		t.Errorf("bob's task: want completed with CHANGELOG.md:1, got %+v", bob)
	}
	if main.Status != core.Pending || main.Evidence != "" {
		t.Errorf("main's task: want pending without evidence, got %+v", main)
	}
	if main.ID != 4 || bob.ID == 4 {
		t.Errorf("main keeps #4 and bob's task moves: main #%d, bob #%d", main.ID, bob.ID)
	}
	if bob.UID != bobUID || main.UID != mainUID || bobUID == "" || mainUID == "" || bobUID == mainUID {
		t.Errorf("identities changed: bob %q (was %q), main %q (was %q)", bob.UID, bobUID, main.UID, mainUID)
	}
}

// uids are the identities of Bob's and main's tasks as each branch made them.
func uids(t *testing.T, dir string) (bob, main string) {
	t.Helper()
	git(t, dir, "checkout", "-q", "bob")
	bob = bySubject(t, readState(t, dir), "bob task").UID
	git(t, dir, "checkout", "-q", "main")
	main = bySubject(t, readState(t, dir), "main task").UID
	return bob, main
}

func TestIdentityRebaseKeepsCompletionOnItsTask(t *testing.T) {
	dir := bobAndMain(t)
	bobUID, mainUID := uids(t, dir)
	git(t, dir, "checkout", "-q", "bob")
	git(t, dir, "rebase", "main")
	if n := strings.TrimSpace(git(t, dir, "rev-list", "--count", "main..bob")); n != "2" {
		t.Fatalf("rebase left %s commits on bob", n)
	}
	checkBobsCompletion(t, dir, bobUID, mainUID)
	// The first step's state, replayed alone, already has Bob's task
	// renumbered and pending, and main's untouched.
	git(t, dir, "checkout", "-q", "bob~1")
	st := checkTeamState(t, dir, nil)
	if b := bySubject(t, st, "bob task"); b.Status != core.Pending || b.ID != 5 {
		t.Errorf("after the first step bob's task is %+v", b)
	}
}

func TestIdentityMergeKeepsCompletionOnItsTask(t *testing.T) {
	dir := bobAndMain(t)
	bobUID, mainUID := uids(t, dir)
	mergeBranch(t, dir, "bob")
	checkBobsCompletion(t, dir, bobUID, mainUID)
	// The identity is in the state file, never in the tool's results.
	if b, _ := os.ReadFile(filepath.Join(dir, ".planls", "state.json")); !strings.Contains(string(b), `"uid": "`+bobUID+`"`) {
		t.Errorf("state.json lacks bob's identity")
	}
	for _, args := range [][]string{{"todo", "list", "--json"}, {"todo", "get", "5", "--json"}, {"todo", "get", "5"}} {
		if out := planls(t, dir, args...); strings.Contains(out, "uid") || strings.Contains(out, bobUID) {
			t.Errorf("planls %s shows the identity:\n%s", strings.Join(args, " "), out)
		}
	}
}

func TestIdentityCherryPickKeepsCompletionOnItsTask(t *testing.T) {
	dir := bobAndMain(t)
	bobUID, mainUID := uids(t, dir)
	git(t, dir, "cherry-pick", "bob~1", "bob")
	checkBobsCompletion(t, dir, bobUID, mainUID)
}

// Picking only the completion brings Bob's task along (it is the change's
// task), renumbered past main's #4, which stays as it was.
func TestIdentityCherryPickOfTheCompletionAlone(t *testing.T) {
	dir := bobAndMain(t)
	bobUID, mainUID := uids(t, dir)
	git(t, dir, "cherry-pick", "bob")
	checkBobsCompletion(t, dir, bobUID, mainUID)
}

// Bob merges main into his branch, then keeps working on his task under
// its old number; main merges bob twice. The second merge's common
// ancestor holds Bob's task as #4, main holds it as #5 and its own task as
// #4: the change lands on Bob's task, not on main's #4.
func TestIdentityRepeatedMergeOfARenumberedTask(t *testing.T) {
	dir := teamRepo(t)
	git(t, dir, "checkout", "-q", "-b", "bob", "main")
	planls(t, dir, "todo", "create", "bob task")
	commitAll(t, dir, "bob: create")
	git(t, dir, "checkout", "-q", "main")
	planls(t, dir, "todo", "create", "main task")
	commitAll(t, dir, "main: create")
	bobUID, mainUID := uids(t, dir)
	mergeBranch(t, dir, "bob")
	git(t, dir, "checkout", "-q", "bob")
	planls(t, dir, "todo", "complete", "4", "--evidence", "CHANGELOG.md:1")
	commitAll(t, dir, "bob: complete")
	git(t, dir, "checkout", "-q", "main")
	out := mergeBranch(t, dir, "bob")
	if !strings.Contains(out, "#4→#5") {
		t.Errorf("the second merge does not say bob's #4 is #5 here:\n%s", out)
	}
	checkBobsCompletion(t, dir, bobUID, mainUID)
}

// A state file written before tasks had an identity (or edited by hand
// without one) loads, and every task gets one derived from what never
// changes about it (its id and creation time), so every branch and every
// clone derives the same; the next write keeps it, and a merge of two
// branches that both upgraded matches the tasks by it.
func TestIdentityLegacyStateGetsOne(t *testing.T) {
	dir := teamRepo(t)
	statePath := filepath.Join(dir, ".planls", "state.json")
	journalPath := filepath.Join(dir, ".planls", "journal.jsonl")
	strip := func(path string) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), `"uid":`) {
				continue
			}
			out = append(out, l)
		}
		s := strings.Join(out, "\n")
		// The journal's records are on one line each.
		for strings.Contains(s, `"uid":"`) {
			i := strings.Index(s, `"uid":"`)
			j := strings.Index(s[i+7:], `"`)
			s = s[:i] + s[i+7+j+2:]
		}
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	strip(statePath)
	strip(journalPath)
	if b, _ := os.ReadFile(statePath); strings.Contains(string(b), "uid") {
		t.Fatalf("uid left in the hand-edited state:\n%s", b)
	}
	commitAll(t, dir, "an older planls wrote these")
	first := readState(t, dir)
	again := readState(t, dir)
	for i, k := range first.Tasks {
		if k.UID == "" || k.UID != again.Tasks[i].UID {
			t.Fatalf("#%d: identity %q, then %q", k.ID, k.UID, again.Tasks[i].UID)
		}
	}
	if doc := planls(t, dir, "doctor"); strings.Contains(doc, "warning") {
		t.Errorf("doctor on an old state:\n%s", doc)
	}
	onBranch(t, dir, "a", []string{"todo", "complete", "1", "--evidence", "a proof"})
	onBranch(t, dir, "b", []string{"todo", "complete", "2", "--evidence", "b proof"})
	mergeBranch(t, dir, "a")
	mergeBranch(t, dir, "b")
	st := checkTeamState(t, dir, map[int]string{1: "a proof", 2: "b proof"})
	if len(st.Tasks) != 3 {
		t.Errorf("the upgrade duplicated tasks: %+v", st.Tasks)
	}
	for i, k := range st.Tasks {
		if k.UID != first.Tasks[i].UID {
			t.Errorf("#%d: identity %q after the merges, %q when first read", k.ID, k.UID, first.Tasks[i].UID)
		}
	}
	if b, _ := os.ReadFile(statePath); !strings.Contains(string(b), `"uid": "`+first.Tasks[0].UID+`"`) {
		t.Errorf("the next write did not keep the identity:\n%s", b)
	}
}

// Merged as text by a clone without the driver, then repaired with
// doctor --rebuild: the rebuild merges the journal's two branches by
// identity too.
func TestIdentityRebuildAfterTextMerge(t *testing.T) {
	dir := bobAndMain(t)
	bobUID, mainUID := uids(t, dir)
	git(t, dir, "config", "--remove-section", "merge.planls")
	if out := gitRun(t, dir, true, "merge", "-m", "merge bob", "bob"); !strings.Contains(out, "CONFLICT") {
		t.Fatalf("expected a text conflict:\n%s", out)
	}
	planls(t, dir, "doctor", "--rebuild", "--move-aside")
	git(t, dir, "add", ".planls")
	git(t, dir, "commit", "-q", "-m", "merge bob (repaired)")
	planls(t, dir, "init")
	// Doctor still notes the text merge's lines before the rebuild's
	// snapshot, rightly: they were merged as text.
	checkBobsTasks(t, dir, bobUID, mainUID)
}
