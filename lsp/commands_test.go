package lsp

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/planls/planls/core"
	"github.com/planls/planls/store"
	"github.com/planls/planls/verify"
)

const seedEvidenceErr = "evidence required to mark a task completed: pass evidence with the check that proves it (command + result, commit, or test name). If it isn't done, leave it open"

func details(res map[string]any) map[string]any {
	d, _ := res["details"].(map[string]any)
	return d
}

// askEnv is an approved plan whose client supports showMessageRequest and
// answers it with pick (nil: dismiss).
func askEnv(t *testing.T, pick func(protocol.ShowMessageRequestParams) any) (*env, string, *[]protocol.ShowMessageRequestParams) {
	t.Helper()
	root, plan := workspace(t, basicPlan(t))
	cliApprove(t, root)
	var mu sync.Mutex
	var asked []protocol.ShowMessageRequestParams
	caps := map[string]any{"window": map[string]any{"showMessage": map[string]any{"messageActionItem": map[string]any{}}}}
	e := newEnv(t, envConfig{noInit: true})
	e.answer = func(method string, params json.RawMessage) (any, error) {
		if method != "window/showMessageRequest" {
			return nil, nil
		}
		var p protocol.ShowMessageRequestParams
		_ = json.Unmarshal(params, &p)
		mu.Lock()
		asked = append(asked, p)
		mu.Unlock()
		return pick(p), nil
	}
	e.initialize(envConfig{folders: []string{root}, caps: caps})
	u := uriOf(plan)
	e.waitDiags(u, "open", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleOpen) == 7 })
	return e, root, &asked
}

func TestCompleteAsksWithSuggestions(t *testing.T) {
	e, root, asked := askEnv(t, func(p protocol.ShowMessageRequestParams) any { return p.Actions[0] })
	cli(t, root, `{"action":"update","id":7,"status":"completed","evidence":"k6 run: p99 12 ms"}`)
	res, err := e.exec("planls.complete", map[string]any{"id": 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(*asked) != 1 {
		t.Fatalf("asked %d times", len(*asked))
	}
	var sugg []string
	for _, a := range (*asked)[0].Actions {
		sugg = append(sugg, a.Title)
	}
	// #7's evidence proves #7, not #1: it is never offered.
	if strings.Join(sugg, " | ") != "abc1234 Add the limiter" {
		t.Errorf("suggestions %q", sugg)
	}
	if !strings.Contains((*asked)[0].Message, "#1") {
		t.Errorf("question %q", (*asked)[0].Message)
	}
	if details(res)["error"] != nil {
		t.Fatalf("envelope %v", res)
	}
	st := readState(t, root)
	if t1 := findTask(st, 1); t1.Status != "completed" || t1.Evidence != "abc1234 Add the limiter" {
		t.Errorf("task 1 %+v", t1)
	}
}

func TestDismissedAskAnswersSeedError(t *testing.T) {
	e, root, asked := askEnv(t, func(protocol.ShowMessageRequestParams) any { return nil })
	res, err := e.exec("planls.complete", map[string]any{"id": 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(*asked) != 1 || envelopeText(res) != "Error: "+seedEvidenceErr || details(res)["error"] != seedEvidenceErr {
		t.Errorf("asked %d, envelope %v", len(*asked), res)
	}
	if findTask(readState(t, root), 2).Status != "pending" {
		t.Error("a dismissed prompt changed the item")
	}
}

// A client that declares no window capabilities is still asked through
// window/showMessageRequest (eglot answers it and declares nothing), also
// when there is nothing to suggest: the question then says how to pass the
// value. Unanswered, the reply is the seed's error, and a showMessage says
// how to pass it.
func TestPromptWithoutCapabilities(t *testing.T) {
	e, _, _ := diskEnv(t, options{})
	res, err := e.exec("planls.defer", map[string]any{"id": 3})
	if err != nil {
		t.Fatal(err)
	}
	if details(res)["error"] != "reason required to defer a task: pass reason saying why it is descoped; the user is told" {
		t.Errorf("envelope %v", res)
	}
	e.mu.Lock()
	var asked []string
	for _, r := range e.reqs {
		if r.method == "window/showMessageRequest" {
			asked = append(asked, string(r.params))
		}
	}
	e.mu.Unlock()
	if len(asked) != 1 || !strings.Contains(asked[0], `Reason to defer #3 Read limits from config.yaml: nothing to suggest. planls.defer needs \"reason\": run it again with the argument {\"id\": 3, \"reason\": `) {
		t.Errorf("showMessageRequest: %q", asked)
	}
}

// A net plan deferral (core Result.Notices) is confirmed to the person who
// made it with one showMessage naming the item as they read it: its
// subject without markdown, the reason, not the seed's "--" notice.
func TestDeferNoticeAndReopen(t *testing.T) {
	e, root, u := diskEnv(t, options{})
	if _, err := e.exec("planls.defer", map[string]any{"id": 3, "reason": "needs a load rig", "uri": uriOf(root)}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.exec("planls.defer", map[string]any{"id": 4, "reason": "metrics come later", "uri": uriOf(root)}); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"planls: Deferred #3 Read limits from config.yaml, reason: needs a load rig",
		`planls: Deferred #4 Export ingest_ratelimit_decisions_total{decision="allow|deny"}, reason: metrics come later`,
	}
	var got []string
	e.waitFor("deferral messages", func() bool {
		got = nil
		for _, n := range e.notes {
			var p protocol.ShowMessageParams
			if n.method == "window/showMessage" && json.Unmarshal(n.params, &p) == nil && strings.Contains(p.Message, "eferred") {
				if p.Type != protocol.MessageTypeInfo {
					t.Errorf("%q is a %v message, want Info", p.Message, p.Type)
				}
				got = append(got, p.Message)
			}
		}
		return len(got) >= len(want)
	})
	if !slices.Equal(got, want) {
		t.Errorf("deferral messages:\n got %q\nwant %q", got, want)
	}
	e.waitDiags(u, "#3 and #4 closed", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleOpen) == 5 })
	acts := e.actions(u, 20, nil)
	if titles(acts) != "Reopen #4 | Start #4" {
		t.Errorf("actions on a deferred item: %q", titles(acts))
	}
	if _, err := e.runAction(acts[0]); err != nil {
		t.Fatal(err)
	}
	e.waitDiags(u, "#4 open again", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleOpen) == 6 })
}

// A completed item is reopened only with a reason (a person's correction,
// core.Reopen): the code action "Reopen #N…" asks for it, and the journal
// keeps who, why and the evidence it had.
func TestReopenCompletedNeedsReason(t *testing.T) {
	e, root, asked := askEnv(t, func(protocol.ShowMessageRequestParams) any { return nil })
	cli(t, root, `{"action":"update","id":4,"status":"completed","evidence":"go test ./metrics: ok"}`)
	u := uriOf(filepath.Join(root, "PLAN.md"))
	e.waitDiags(u, "#4 closed", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleOpen) == 6 })
	acts := e.actions(u, 20, nil)
	if titles(acts) != "Reopen #4…" {
		t.Fatalf("actions on a completed item: %q", titles(acts))
	}
	res, err := e.runAction(acts[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(*asked) != 1 || !strings.Contains((*asked)[0].Message, "Reason to reopen #4") {
		t.Errorf("asked %+v", *asked)
	}
	if !strings.HasPrefix(fmt.Sprint(details(res)["error"]), "reason required to reopen a task") {
		t.Errorf("unanswered: %v", res)
	}
	res, err = e.exec("planls.reopen", map[string]any{"id": 4, "reason": "the counter is never exported"})
	if err != nil || envelopeText(res) != "Reopened #4 (completed → pending): the counter is never exported" {
		t.Fatalf("reopen: %v %v", res, err)
	}
	e.waitDiags(u, "#4 open again", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleOpen) == 7 })
	entries, _, err := store.ReadJournal(filepath.Join(root, ".planls", "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	last := entries[len(entries)-1]
	var p core.ReopenedParams
	if err := json.Unmarshal(last.Params, &p); err != nil || last.Kind != "reopen" || last.Actor != "lsp" ||
		p.Evidence != "go test ./metrics: ok" || p.Reason != "the counter is never exported" || p.From != core.Completed {
		t.Errorf("journal entry %+v, params %s", last, last.Params)
	}
}

// An action offered on an item that is gone meanwhile is refused clearly.
func TestStaleItemRefused(t *testing.T) {
	e, _, _ := diskEnv(t, options{})
	_, err := e.exec("planls.start", map[string]any{"id": 99})
	if rpcCode(err) != jsonrpc2.InvalidParams || !strings.Contains(err.Error(), "plan item #99 is gone") {
		t.Errorf("stale: %v", err)
	}
	if _, err := e.exec("planls.start", map[string]any{}); rpcCode(err) != jsonrpc2.InvalidParams {
		t.Errorf("no id: %v", err)
	}
	if _, err := e.exec("planls.nope", map[string]any{"id": 1}); rpcCode(err) != jsonrpc2.InvalidParams {
		t.Errorf("unknown command: %v", err)
	}
}

func TestTodoCommand(t *testing.T) {
	e, root, u := diskEnv(t, options{})
	res, err := e.exec("planls.todo", map[string]any{"params": map[string]any{"action": "create", "subject": "Write the runbook"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(envelopeText(res), "#8") || details(res)["nextId"] != float64(9) {
		t.Errorf("envelope %v", res)
	}
	res, err = e.exec("planls.todo", map[string]any{"params": map[string]any{"action": "update", "id": 1, "status": "deleted"}})
	if err != nil || details(res)["error"] == nil {
		t.Errorf("deleting a plan item: %v %v", res, err)
	}
	if _, err := e.exec("planls.todo", map[string]any{}); rpcCode(err) != jsonrpc2.InvalidParams {
		t.Errorf("no params: %v", err)
	}
	_ = root
	_ = u
}

// Trap 7: a client that never answers showMessageRequest cannot hang the
// command: after askTimeout it answers with the seed's error.
func TestAskTimeout(t *testing.T) {
	root, plan := workspace(t, basicPlan(t))
	cliApprove(t, root)
	o := testOptions()
	o.askTimeout = 100 * time.Millisecond
	never := make(chan struct{})
	defer close(never)
	e := newEnv(t, envConfig{noInit: true, opts: o})
	e.answer = func(method string, _ json.RawMessage) (any, error) {
		if method == "window/showMessageRequest" {
			<-never
		}
		return nil, nil
	}
	e.initialize(envConfig{folders: []string{root}, caps: map[string]any{"window": map[string]any{"showMessage": map[string]any{}}}})
	e.waitDiags(uriOf(plan), "open", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleOpen) == 7 })
	res, err := e.exec("planls.complete", map[string]any{"id": 1})
	if err != nil || details(res)["error"] != seedEvidenceErr {
		t.Errorf("after an unanswered prompt: %v %v", res, err)
	}
	e.barrier() // the worker was never blocked by the prompt
}

// The evidence a code action offers: the newest commit that changes more
// than the plan and .planls/ (real git). A commit that only adds PLAN.md
// proves nothing, so nothing is offered then.
func TestGitHeadSkipsPlanOnlyCommits(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	if verify.StateDir != store.DirName {
		t.Fatalf("verify.StateDir %q is not the store's %q: the plan-only rule would miss the state", verify.StateDir, store.DirName)
	}
	dir := t.TempDir()
	if got := gitHead(t.Context(), dir, "PLAN.md"); got.Line != "" {
		t.Errorf("a directory without a repository has a head: %+v", got)
	}
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command(git, append([]string{"-c", "user.name=t", "-c", "user.email=t@x"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	commit := func(file, msg string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, file)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, file), []byte(msg), 0o644); err != nil {
			t.Fatal(err)
		}
		run("add", "-A")
		run("commit", "-q", "-m", msg)
	}
	run("init", "-q")
	commit("PLAN.md", "Add the plan")
	if got := gitHead(t.Context(), dir, "PLAN.md"); got.Line != "" {
		t.Errorf("a commit that only adds PLAN.md is offered: %+v", got)
	}
	commit("limiter.go", "Add the limiter")
	commit(".planls/state.json", "Approve the plan")
	commit("PLAN.md", "Reword the plan")
	got := gitHead(t.Context(), dir, "PLAN.md")
	if !regexp.MustCompile(`^(commit )?[0-9a-f]{7,} Add the limiter$`).MatchString(got.Line) || !strings.Contains(got.Line, got.Hash+" ") ||
		time.Since(got.At) > time.Hour {
		t.Errorf("gitHead = %+v, want the limiter commit", got)
	}
	old := &core.Task{CreatedAt: got.At.Add(time.Minute)}
	if got.offers(old) {
		t.Error("a commit made before the item's approval is offered")
	}
	if !got.offers(&core.Task{CreatedAt: got.At.Add(300 * time.Millisecond)}) {
		t.Error("a commit of the approval's second is not offered")
	}
	// The approval commit planls asks for holds .planls/ and the
	// .gitattributes lines for it: verify refuses it as evidence, so the
	// code action must not offer it either (one rule: verify.PlanOnly).
	if err := os.WriteFile(filepath.Join(dir, ".gitattributes"), []byte(".planls/** merge=planls\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	commit(".planls/state.json", "approve plan")
	if again := gitHead(t.Context(), dir, "PLAN.md"); again.Line != got.Line {
		t.Errorf("after the approval commit gitHead = %+v, want the limiter commit %q", again, got.Line)
	}
}

// The offered evidence reads as a commit however the abbreviated id is
// spelt: all digits or all letters get the word commit before them; and a
// commit another item's evidence names that way is not offered again.
func TestOfferedCommitReadsAsACommit(t *testing.T) {
	for _, tc := range []struct{ hash, want string }{
		{"abc1234", "abc1234 Add the limiter"},
		{"1234567", "commit 1234567 Add the limiter"},
		{"deadbee", "commit deadbee Add the limiter"},
	} {
		line := offeredLine(tc.hash, "Add the limiter")
		if line != tc.want {
			t.Errorf("offeredLine(%q) = %q, want %q", tc.hash, line, tc.want)
		}
		refs := core.ParseEvidence(line)
		if len(refs) == 0 || refs[0].Kind != core.RefCommit || refs[0].Commit != tc.hash {
			t.Errorf("%q reads as %+v, not commit %s", line, refs, tc.hash)
		}
	}
	head := headCommit{Line: "commit 1234567 Add the limiter", Hash: "1234567", At: time.Now()}
	st := &core.State{Tasks: []core.Task{
		{ID: 1, Status: core.Completed, Evidence: "1234567890 added the limiter"},
		{ID: 2, Status: core.Pending},
	}}
	if !provesAnother(head, st, &st.Tasks[1]) {
		t.Error("a commit item 1's evidence names as a number is offered to item 2")
	}
	st.Tasks[0].Evidence = "7654321 added the limiter"
	if provesAnother(head, st, &st.Tasks[1]) {
		t.Error("another number counts as head's commit")
	}
}

// An editor's first approval sets git merging of .planls/ up as the CLI's
// does (real git): .gitattributes routes both files to the driver, the
// clone has it registered, and the user is told once.
func TestFirstApprovalSetsUpMerging(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	root, _ := workspace(t, basicPlan(t))
	if out, err := exec.Command(git, "-C", root, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	e := newEnv(t, envConfig{folders: []string{root}})
	if _, err := e.exec("planls.approve", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	attrs, err := os.ReadFile(filepath.Join(root, ".gitattributes"))
	if err != nil || !strings.Contains(string(attrs), ".planls/state.json merge=planls\n.planls/journal.jsonl merge=planls\n") {
		t.Fatalf(".gitattributes: %q %v", attrs, err)
	}
	if out, err := exec.Command(git, "-C", root, "config", "merge.planls.driver").Output(); err != nil || !strings.Contains(string(out), " merge %O %A %B %P") {
		t.Fatalf("merge.planls.driver: %q %v", out, err)
	}
	told := func() int { // caller holds e.mu
		n := 0
		for _, m := range e.notes {
			if m.method == "window/showMessage" && strings.Contains(string(m.params), "first approval in this clone: ran planls init") {
				n++
			}
		}
		return n
	}
	e.waitFor("the set-up message", func() bool { return told() == 1 })
	// Approving again changes nothing and says nothing more.
	writeFile(t, filepath.Join(root, "PLAN.md"), basicPlan(t)+"\n- one more\n")
	if _, err := e.exec("planls.approve", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	e.barrier()
	e.mu.Lock()
	defer e.mu.Unlock()
	if n := told(); n != 1 {
		t.Errorf("told %d times", n)
	}
}
