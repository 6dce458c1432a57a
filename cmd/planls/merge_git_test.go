package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planls/planls/core"
	"github.com/planls/planls/store"
)

// With the real git and the real binary as its merge
// driver, in temporary repositories. After each: state.json is valid,
// doctor is clean, every completion and its evidence is present, and the
// journal replays to the same state (checkTeamState).

const teamPlan = "# Ship it\n\n## Work\n- one\n- two\n- three\n"

// gitRun runs git in dir and returns its combined output, failing the test
// on a non-zero exit unless allowFail.
func gitRun(t testing.TB, dir string, allowFail bool, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_EDITOR=true", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "PLANLS_ROOT=")
	out, err := cmd.CombinedOutput()
	if err != nil && !allowFail {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func git(t testing.TB, dir string, args ...string) string { return gitRun(t, dir, false, args...) }

// teamRepo is a git repository on main whose PLAN.md (items #1–#3) was
// approved by its first planls approve, which set up the merge driver, and
// committed.
func teamRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(dir, "PLAN.md"), []byte(teamPlan), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := planlsCmd(dir, "approve")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if out, err := cmd.Output(); err != nil || !strings.Contains(string(out), "3 plan items") {
		t.Fatalf("approve: %v %s %s", err, out, stderr.String())
	}
	if !strings.Contains(stderr.String(), "notice: first approval in this clone: ran planls init") {
		t.Fatalf("approve did not run init: %q", stderr.String())
	}
	commitAll(t, dir, "plan approved")
	return dir
}

func commitAll(t *testing.T, dir, msg string) {
	t.Helper()
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", msg)
}

// onBranch runs planls commands on a new branch from main and commits them.
func onBranch(t *testing.T, dir, branch string, cmds ...[]string) {
	t.Helper()
	git(t, dir, "checkout", "-q", "-b", branch, "main")
	for _, c := range cmds {
		planls(t, dir, c...)
	}
	commitAll(t, dir, branch)
	git(t, dir, "checkout", "-q", "main")
}

// mergeBranch merges branch into the current branch and returns git's output.
func mergeBranch(t *testing.T, dir, branch string) string {
	t.Helper()
	return git(t, dir, "merge", "--no-ff", "-m", "merge "+branch, branch)
}

// checkTeamState is the check after every scenario: a valid state, a clean
// doctor, the journal replaying to the state, and want's evidence on the
// named tasks (id → evidence substring) with status completed.
func checkTeamState(t *testing.T, dir string, want map[int]string) *core.State {
	t.Helper()
	st := readState(t, dir)
	if errs, _ := core.Validate(st); len(errs) > 0 {
		t.Fatalf("invalid state: %v", errs)
	}
	doc := planlsCmd(dir, "doctor")
	out, err := doc.CombinedOutput()
	if err != nil || strings.Contains(string(out), "warning") {
		t.Errorf("doctor: %v\n%s", err, out)
	}
	journal := filepath.Join(dir, ".planls", "journal.jsonl")
	entries, probs, err := store.ReadJournal(journal)
	if err != nil {
		t.Fatal(err)
	}
	// As for doctor, lines before the last full snapshot no longer count.
	data, _ := os.ReadFile(journal)
	lastFull := 0
	for i, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, `"full":true`) {
			lastFull = i + 1
		}
	}
	for _, p := range probs {
		if p.Line > lastFull {
			t.Errorf("journal problem %+v", p)
		}
	}
	a, _ := json.Marshal(store.Replay(entries))
	b, _ := json.Marshal(st)
	if !bytes.Equal(a, b) {
		t.Errorf("journal replays to\n%s\nstate is\n%s", a, b)
	}
	for id, ev := range want {
		k := findTask(st, id)
		if k == nil || k.Status != core.Completed || !strings.Contains(k.Evidence, ev) {
			t.Errorf("#%d: want completed with %q, got %+v", id, ev, k)
		}
	}
	return st
}

func findTask(st *core.State, id int) *core.Task {
	for i := range st.Tasks {
		if st.Tasks[i].ID == id {
			return &st.Tasks[i]
		}
	}
	return nil
}

func TestTeamTwoBranchesCompleteDifferentItems(t *testing.T) {
	dir := teamRepo(t)
	onBranch(t, dir, "a", []string{"todo", "complete", "1", "--evidence", "a: go test ./..."})
	onBranch(t, dir, "b", []string{"todo", "complete", "2", "--evidence", "b: ran the demo"})
	mergeBranch(t, dir, "a")
	mergeBranch(t, dir, "b")
	st := checkTeamState(t, dir, map[int]string{1: "a: go test", 2: "b: ran the demo"})
	if k := findTask(st, 3); k.Status != core.Pending {
		t.Errorf("#3 %+v", k)
	}
	// The rebuild after a merge keeps both sides (it had dropped branch b's).
	out := planls(t, dir, "doctor", "--rebuild")
	if !strings.Contains(out, "matches the journal") {
		t.Errorf("rebuild: %s", out)
	}
}

func TestTeamSameItemDifferentEvidence(t *testing.T) {
	dir := teamRepo(t)
	onBranch(t, dir, "a", []string{"todo", "complete", "1", "--evidence", "a: CI run 7"})
	onBranch(t, dir, "b", []string{"todo", "complete", "1", "--evidence", "b: local run"})
	mergeBranch(t, dir, "a")
	out := mergeBranch(t, dir, "b")
	if !strings.Contains(out, `#1 "one" was completed on both branches with different evidence; both kept: a: CI run 7; b: local run`) {
		t.Errorf("merge did not report it:\n%s", out)
	}
	checkTeamState(t, dir, map[int]string{1: "a: CI run 7; b: local run"})
}

func TestTeamCollidingIDs(t *testing.T) {
	dir := teamRepo(t)
	onBranch(t, dir, "a", []string{"todo", "create", "a task"})
	onBranch(t, dir, "b", []string{"todo", "create", "b first"}, []string{"todo", "create", "b second", "--blocked-by", "4"},
		[]string{"todo", "complete", "4", "--evidence", "b did it"})
	mergeBranch(t, dir, "a")
	out := mergeBranch(t, dir, "b")
	if !strings.Contains(out, "renumbered: #4→#6") {
		t.Errorf("merge output:\n%s", out)
	}
	st := checkTeamState(t, dir, map[int]string{6: "b did it"})
	if k := findTask(st, 4); k.Subject != "a task" {
		t.Errorf("#4 %+v", k)
	}
	if k := findTask(st, 5); k.Subject != "b second" || len(k.BlockedBy) != 1 || k.BlockedBy[0] != 6 {
		t.Errorf("#5 %+v", k)
	}
	if st.NextID != 7 {
		t.Errorf("nextId %d", st.NextID)
	}
	// New ids continue above every id.
	if out := planls(t, dir, "todo", "create", "after"); !strings.Contains(out, "#7") {
		t.Errorf("create after merge: %s", out)
	}
}

func TestTeamStaleBranchAfterReapproval(t *testing.T) {
	dir := teamRepo(t)
	onBranch(t, dir, "stale", []string{"todo", "complete", "2", "--evidence", "two is done"})
	// main edits the plan: "two" leaves it, "four" joins.
	if err := os.WriteFile(filepath.Join(dir, "PLAN.md"), []byte("# Ship it\n\n## Work\n- one\n- three\n- four\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	planls(t, dir, "approve")
	commitAll(t, dir, "re-approved")
	out := mergeBranch(t, dir, "stale")
	if !strings.Contains(out, `#2 "two" was completed on theirs, but the plan approved on ours removed it: it stays removed (not reopened)`) {
		t.Errorf("merge did not report the stale completion:\n%s", out)
	}
	st := checkTeamState(t, dir, nil)
	if k := findTask(st, 2); k.Status != core.Deleted || k.Evidence != "two is done" {
		t.Errorf("#2 %+v", k)
	}
	journal, _ := os.ReadFile(filepath.Join(dir, ".planls", "journal.jsonl"))
	if !bytes.Contains(journal, []byte(`"evidence":"two is done"`)) || !bytes.Contains(journal, []byte(`was completed on theirs, but the plan approved on ours removed it`)) {
		t.Errorf("journal lacks the stale completion or its report")
	}
	if doc := planls(t, dir, "doctor"); !strings.Contains(doc, `last merge (revision 4): note: #2 "two" was completed on theirs`) {
		t.Errorf("doctor does not repeat the merge's report:\n%s", doc)
	}
	check := planlsCmd(dir, "check")
	cout, _ := check.Output()
	if strings.Contains(string(cout), "two") || !strings.Contains(string(cout), "four") {
		t.Errorf("check:\n%s", cout)
	}
}

func TestTeamThreeBranchesInTurn(t *testing.T) {
	dir := teamRepo(t)
	for i, b := range []string{"a", "b", "c"} {
		id := []string{"1", "2", "3"}[i]
		onBranch(t, dir, b, []string{"todo", "complete", id, "--evidence", b + " proof"}, []string{"todo", "create", b + " todo"})
	}
	for _, b := range []string{"a", "b", "c"} {
		mergeBranch(t, dir, b)
	}
	st := checkTeamState(t, dir, map[int]string{1: "a proof", 2: "b proof", 3: "c proof"})
	subjects := map[string]int{}
	for _, k := range st.Tasks {
		subjects[k.Subject] = k.ID
	}
	for _, s := range []string{"a todo", "b todo", "c todo"} {
		if subjects[s] == 0 {
			t.Errorf("lost %q: %v", s, subjects)
		}
	}
	if len(st.Tasks) != 6 || st.NextID != 7 {
		t.Errorf("tasks %d nextId %d", len(st.Tasks), st.NextID)
	}
}

func TestTeamRebase(t *testing.T) {
	dir := teamRepo(t)
	onBranch(t, dir, "a", []string{"todo", "complete", "1", "--evidence", "a proof"}, []string{"todo", "create", "a todo"})
	onBranch(t, dir, "b", []string{"todo", "complete", "2", "--evidence", "b proof"}, []string{"todo", "create", "b todo"})
	mergeBranch(t, dir, "a")
	git(t, dir, "checkout", "-q", "b")
	git(t, dir, "rebase", "main")
	git(t, dir, "checkout", "-q", "main")
	git(t, dir, "merge", "--ff-only", "b")
	st := checkTeamState(t, dir, map[int]string{1: "a proof", 2: "b proof"})
	if k := findTask(st, 4); k == nil || k.Subject != "a todo" {
		t.Errorf("#4 %+v (the upstream keeps its ids)", k)
	}
	if k := findTask(st, 5); k == nil || k.Subject != "b todo" {
		t.Errorf("#5 %+v (the rebased branch's task is renumbered)", k)
	}
}

// mergedWithoutDriver is a team repository in a clone without the merge
// driver: branch a completes #1 ("a proof"), branch b runs bCmds, and
// merging b after a stops with git's text conflict in .planls/.
func mergedWithoutDriver(t *testing.T, bCmds ...[]string) string {
	t.Helper()
	dir := teamRepo(t)
	git(t, dir, "config", "--remove-section", "merge.planls") // a fresh clone has no driver
	onBranch(t, dir, "a", []string{"todo", "complete", "1", "--evidence", "a proof"})
	onBranch(t, dir, "b", bCmds...)
	mergeBranch(t, dir, "a")
	if out := gitRun(t, dir, true, "merge", "-m", "merge b", "b"); !strings.Contains(out, "CONFLICT") {
		t.Fatalf("expected a conflict:\n%s", out)
	}
	return dir
}

// Without the driver git merges the files as text: a conflict. Nothing
// overwrites the conflicted state, doctor says what happened and how to
// repair, and the repair keeps both sides.
func TestTeamMergeWithoutDriver(t *testing.T) {
	dir := mergedWithoutDriver(t, []string{"todo", "complete", "2", "--evidence", "b proof"}, []string{"todo", "create", "b todo"})
	statePath := filepath.Join(dir, ".planls", "state.json")
	before, _ := os.ReadFile(statePath)
	if w := planlsCmd(dir, "todo", "create", "x"); w.Run() == nil {
		t.Errorf("a write succeeded on a conflicted state")
	}
	if after, _ := os.ReadFile(statePath); !bytes.Equal(before, after) {
		t.Errorf("the conflicted state file was overwritten")
	}
	doc, err := planlsCmd(dir, "doctor").CombinedOutput()
	for _, want := range []string{
		"warning: this clone lacks the planls merge driver .gitattributes asks for",
		"warning: git holds .planls/journal.jsonl and .planls/state.json as conflicted",
		"repair: planls doctor --rebuild --move-aside merges both sides from the journal",
		"next time: planls init sets the merge driver up",
	} {
		if err == nil || !strings.Contains(string(doc), want) {
			t.Errorf("doctor (err %v) lacks %q:\n%s", err, want, doc)
		}
	}
	rebuilt := planls(t, dir, "doctor", "--rebuild", "--move-aside")
	if !strings.Contains(rebuilt, "merged a branch of the journal") {
		t.Errorf("rebuild:\n%s", rebuilt)
	}
	// Repaired: what is left is telling git, not running the repair again.
	if !strings.Contains(rebuilt, "rebuilt: git still holds .planls/journal.jsonl and .planls/state.json as conflicted; mark them resolved: git add .planls") ||
		strings.Contains(rebuilt, "repair:") || strings.Contains(rebuilt, "warning: git holds") {
		t.Errorf("rebuild's next step:\n%s", rebuilt)
	}
	git(t, dir, "add", ".planls")
	git(t, dir, "commit", "-q", "-m", "merge b (repaired)")
	planls(t, dir, "init")
	st := checkTeamState(t, dir, map[int]string{1: "a proof", 2: "b proof"})
	if k := findTask(st, 4); k == nil || k.Subject != "b todo" {
		t.Errorf("#4 %+v", k)
	}
}

// When git's text merge left markers only in the journal (state.json
// merged, or resolved to one side by hand), every command could read the
// state: status and check warn, naming the repair, and a write is refused
// rather than appended after the conflict block.
func TestTeamJournalConflictStateClean(t *testing.T) {
	dir := mergedWithoutDriver(t, []string{"todo", "complete", "2", "--evidence", "b proof"})
	git(t, dir, "checkout", "--ours", "--", ".planls/state.json")
	journal := filepath.Join(dir, ".planls", "journal.jsonl")
	before, _ := os.ReadFile(journal)
	if !bytes.Contains(before, []byte("<<<<<<<")) {
		t.Fatalf("the journal holds no conflict markers:\n%s", before)
	}
	const warn = "warning: .planls/journal.jsonl holds git conflict markers (line "
	const repair = "planls doctor --rebuild --move-aside merges both sides' entries and writes it without them (then git add .planls)"
	if out := planls(t, dir, "status"); !strings.Contains(out, warn) || !strings.Contains(out, repair) {
		t.Errorf("status:\n%s", out)
	}
	var stderr bytes.Buffer
	c := planlsCmd(dir, "check")
	c.Stderr = &stderr
	_ = c.Run() // #3 is open: exit 1
	if !strings.Contains(stderr.String(), warn) || !strings.Contains(stderr.String(), repair) {
		t.Errorf("check's stderr:\n%s", stderr.String())
	}
	stderr.Reset()
	w := planlsCmd(dir, "todo", "create", "x")
	w.Stderr = &stderr
	err := w.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(stderr.String(), "nothing written: .planls/journal.jsonl holds git conflict markers") {
		t.Errorf("a write on a journal with markers: %v\n%s", err, stderr.String())
	}
	if after, _ := os.ReadFile(journal); !bytes.Equal(before, after) {
		t.Errorf("the write appended to the journal with markers")
	}
	// The named repair makes writes work again and keeps both sides.
	planls(t, dir, "doctor", "--rebuild", "--move-aside")
	planls(t, dir, "todo", "create", "x")
	if out := planls(t, dir, "status"); strings.Contains(out, warn) {
		t.Errorf("status after the repair:\n%s", out)
	}
	git(t, dir, "add", ".planls")
	git(t, dir, "commit", "-q", "-m", "merge b (repaired)")
	planls(t, dir, "init")
	checkTeamState(t, dir, map[int]string{1: "a proof", 2: "b proof"})
}

// The other repair: set the driver up and let git merge the files again.
func TestTeamMergeWithoutDriverRedoneWithIt(t *testing.T) {
	dir := mergedWithoutDriver(t, []string{"todo", "complete", "1", "--evidence", "b proof"})
	doc, _ := planlsCmd(dir, "doctor").CombinedOutput()
	if !strings.Contains(string(doc), "or: planls init, then git checkout -m -- .planls/journal.jsonl .planls/state.json merges them again with the driver") {
		t.Errorf("doctor:\n%s", doc)
	}
	planls(t, dir, "init")
	git(t, dir, "checkout", "-m", "--", ".planls/journal.jsonl", ".planls/state.json")
	git(t, dir, "add", ".planls")
	git(t, dir, "commit", "-q", "-m", "merge b")
	checkTeamState(t, dir, map[int]string{1: "a proof; b proof"})
}

func TestInitIsIdempotentAndKeepsAttributes(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	git(t, dir, "init", "-q")
	attrs := filepath.Join(dir, ".gitattributes")
	if err := os.WriteFile(attrs, []byte("*.png binary"), 0o644); err != nil {
		t.Fatal(err)
	}
	first := planls(t, dir, "init")
	second := planls(t, dir, "init")
	b, _ := os.ReadFile(attrs)
	want := "*.png binary\n# planls: merge the plan state by task id (planls init, docs/TEAMS.md)\n.planls/state.json merge=planls\n.planls/journal.jsonl merge=planls\n"
	if string(b) != want {
		t.Errorf(".gitattributes %q", b)
	}
	if !strings.Contains(first, "registered in this clone's git config") || !strings.Contains(second, "already registered") {
		t.Errorf("first:\n%s\nsecond:\n%s", first, second)
	}
	if out := planls(t, dir, "doctor"); !strings.Contains(out, "merge driver: set up") {
		t.Errorf("doctor:\n%s", out)
	}
}

// Both branches approve a different edit of the plan: git merges PLAN.md
// into a text neither approved, so the driver keeps ours's approval, marks
// the state conflicted, and planls approve of the merged file resolves it.
func TestTeamBothApproveDifferentPlans(t *testing.T) {
	dir := teamRepo(t)
	write := func(body string) {
		if err := os.WriteFile(filepath.Join(dir, "PLAN.md"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git(t, dir, "checkout", "-q", "-b", "a")
	write(teamPlan + "- four\n")
	planls(t, dir, "approve")
	planls(t, dir, "todo", "complete", "4", "--evidence", "four done")
	commitAll(t, dir, "a")
	git(t, dir, "checkout", "-q", "-b", "b", "main")
	write(strings.Replace(teamPlan, "# Ship it", "# Ship it soon", 1))
	planls(t, dir, "approve")
	commitAll(t, dir, "b")
	git(t, dir, "checkout", "-q", "main")
	mergeBranch(t, dir, "a")
	out := gitRun(t, dir, true, "merge", "-m", "merge b", "b")
	if !strings.Contains(out, "both branches approved a different plan") || !strings.Contains(out, "after the merge: planls approve") {
		t.Fatalf("merge output:\n%s", out)
	}
	if st := readState(t, dir); st.Plan == nil || st.Plan.Title != "Ship it" {
		t.Fatalf("ours's approval not kept: %+v", st.Plan)
	}
	if out := planls(t, dir, "approve"); !strings.Contains(out, `Approved plan "Ship it soon"`) {
		t.Errorf("approve:\n%s", out)
	}
	git(t, dir, "add", ".planls")
	git(t, dir, "commit", "-q", "-m", "merge b")
	st := checkTeamState(t, dir, map[int]string{4: "four done"})
	if k := findTask(st, 4); k.Subject != "four" {
		t.Errorf("#4 %+v", k)
	}
}

// A side the driver cannot read leaves CURRENT untouched and exits 2, so
// git keeps the file conflicted; an unknown file name is refused.
func TestMergeDriverRefusals(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := `{"version":1,"revision":1,"nextId":1,"tasks":[]}` + "\n"
	o, a, b := write("o", good), write("a", "{\n<<<<<<< HEAD\n=======\n>>>>>>> b\n}\n"), write("b", good)
	cmd := planlsCmd(dir, "merge", o, a, b, ".planls/state.json")
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), "is left as ours's version and marked conflicted") {
		t.Errorf("conflicted side: %v\n%s", err, out)
	}
	if data, _ := os.ReadFile(a); !strings.Contains(string(data), "<<<<<<<") {
		t.Errorf("CURRENT was overwritten: %q", data)
	}
	out, err = planlsCmd(dir, "merge", o, b, b, "notes.txt").CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), "notes.txt is neither state.json nor journal.jsonl") {
		t.Errorf("unknown file: %v\n%s", err, out)
	}
}

// When git's merge of PLAN.md is exactly the text one branch approved, that
// approval wins without a conflict: here theirs made ours's edit and more.
func TestTeamBothApproveMergedPlanIsTheirs(t *testing.T) {
	for _, rebase := range []bool{false, true} {
		t.Run(map[bool]string{false: "merge", true: "rebase"}[rebase], func(t *testing.T) { bothApproveTheirsWins(t, rebase) })
	}
}

func bothApproveTheirsWins(t *testing.T, rebase bool) {
	dir := teamRepo(t)
	write := func(body string) {
		if err := os.WriteFile(filepath.Join(dir, "PLAN.md"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	renamed := strings.Replace(teamPlan, "# Ship it", "# Ship it soon", 1)
	git(t, dir, "checkout", "-q", "-b", "a")
	write(renamed)
	planls(t, dir, "approve")
	planls(t, dir, "todo", "complete", "1", "--evidence", "a one")
	commitAll(t, dir, "a")
	git(t, dir, "checkout", "-q", "-b", "b", "main")
	write(renamed + "- four\n")
	planls(t, dir, "approve")
	planls(t, dir, "todo", "complete", "4", "--evidence", "b four")
	commitAll(t, dir, "b")
	git(t, dir, "checkout", "-q", "main")
	mergeBranch(t, dir, "a")
	var out string
	if rebase {
		git(t, dir, "checkout", "-q", "b")
		out = git(t, dir, "rebase", "main")
		git(t, dir, "checkout", "-q", "main")
		git(t, dir, "merge", "--ff-only", "b")
	} else {
		out = mergeBranch(t, dir, "b")
	}
	if strings.Contains(out, "conflict") {
		t.Fatalf("merge output:\n%s", out)
	}
	plan, _ := os.ReadFile(filepath.Join(dir, "PLAN.md"))
	st := checkTeamState(t, dir, map[int]string{1: "a one", 4: "b four"})
	if st.Plan == nil || st.Plan.ID != core.PlanID(plan) {
		t.Errorf("approved %+v, PLAN.md is %s", st.Plan, core.PlanID(plan))
	}
	if out := planls(t, dir, "approve"); !strings.Contains(out, "already approved") {
		t.Errorf("approve after the merge: %s", out)
	}
}
