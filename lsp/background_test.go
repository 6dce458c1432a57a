package lsp

import (
	"context"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/planls/planls/core"
	"github.com/planls/planls/verify"
)

// While git hangs, requests still answer at once from the snapshot: the
// plan with pending set, hover and code actions without what git would
// add. When git answers, the refresh lands: planls/stateChanged, HEAD in
// the ready evidence, the verification in planls/plan.
func TestRequestsNeverWaitOnGit(t *testing.T) {
	root, plan := workspace(t, "# P\n\n- one\n- two\n")
	cliApprove(t, root)
	cli(t, root, `{"action":"update","id":1,"status":"completed","evidence":"src/missing.go"}`)
	release := make(chan struct{})
	opts := testOptions()
	opts.gitHead = func(ctx context.Context, dir, plan string) headCommit {
		select {
		case <-release:
			return headCommit{Line: "abc1234 Add the limiter", Hash: "abc1234", At: time.Now()}
		case <-ctx.Done():
			return headCommit{}
		}
	}
	e := newEnv(t, envConfig{folders: []string{root}, opts: opts})
	u := e.open(plan, "# P\n\n- one\n- two\n")
	e.waitDiags(u, "open item", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleOpen) == 1 })

	var res planResult
	e.call("planls/plan", map[string]any{"uri": u}, &res)
	if !res.Pending || res.Groups[0].Items[0].Verify != nil {
		t.Errorf("plan while git hangs: pending %v, verify %+v", res.Pending, res.Groups[0].Items[0].Verify)
	}
	if h := e.hoverAt(u, 2, 3); h == "" {
		t.Error("no hover while git hangs")
	}
	if titles := e.actionTitles(u, 3); len(titles) == 0 || slices.ContainsFunc(titles, func(s string) bool { return strings.Contains(s, "abc1234") }) {
		t.Errorf("actions while git hangs: %q", titles)
	}

	close(release)
	res = e.settle(u)
	if v := res.Groups[0].Items[0].Verify; v == nil || v.State != "failed" {
		t.Errorf("verify after the refresh: %+v", v)
	}
	if titles := e.actionTitles(u, 3); len(titles) < 2 || titles[1] != "Complete #2 with abc1234 Add the limiter" {
		t.Errorf("actions after the refresh: %q", titles)
	}
	e.waitDiags(u, "evidence-failed", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleFailed) == 1 })
}

// A commit moves HEAD: the server sees .git change and verifies again, so
// evidence that failed (a file not there yet) holds once it is committed.
func TestCommitRefreshesVerification(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	root, plan := workspace(t, "# P\n\n- one\n")
	gitIn(t, root, "init", "-q", "-b", "main")
	gitIn(t, root, "add", "PLAN.md")
	gitIn(t, root, "commit", "-q", "-m", "plan")
	cliApprove(t, root)
	cli(t, root, `{"action":"update","id":1,"status":"completed","evidence":"src/b.go and the commit after it"}`)
	opts := testOptions()
	opts.gitHead = gitHead
	e := newEnv(t, envConfig{folders: []string{root}, opts: opts})
	u := uriOf(plan)
	e.waitDiags(u, "evidence-failed", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleFailed) == 1 })
	if res := e.settle(u); res.Groups[0].Items[0].Verify.State != string(verify.Failed) {
		t.Fatalf("verify %+v", res.Groups[0].Items[0].Verify)
	}
	writeFile(t, filepath.Join(root, "src", "b.go"), "package src\n")
	gitIn(t, root, "add", "src/b.go")
	gitIn(t, root, "commit", "-q", "-m", "Add b")
	e.waitDiags(u, "evidence-failed gone after the commit", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleFailed) == 0 })
	res := e.settle(u)
	if v := res.Groups[0].Items[0].Verify; v == nil || v.State != string(verify.Verified) {
		t.Errorf("verify after the commit: %+v", v)
	}
}

// actionTitles are the titles of the code actions on line (0-based).
func (e *env) actionTitles(u string, line int) []string {
	e.t.Helper()
	var actions []protocol.CodeAction
	pos := protocol.Position{Line: uint32(line)}
	e.call("textDocument/codeAction", protocol.CodeActionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: protocol.DocumentURI(u)},
		Range:        protocol.Range{Start: pos, End: pos},
		Context:      protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{}},
	}, &actions)
	var out []string
	for _, a := range actions {
		out = append(out, a.Title)
	}
	return out
}
