package verify

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/planls/planls/core"
	"github.com/planls/planls/verify/shell"
)

func verifyOne(t *testing.T, root, evidence string, opts Options) Result {
	t.Helper()
	res := Tasks(context.Background(), root, []core.Task{done(1, evidence)}, opts)
	if len(res) != 1 {
		t.Fatalf("%d results", len(res))
	}
	return res[0]
}

// verifyCase is one evidence string, the state it verifies to and a part
// of the reason or a check's detail.
type verifyCase struct {
	evidence string
	state    State
	detail   string
}

func checkCases(t *testing.T, root string, cases []verifyCase) {
	t.Helper()
	for _, tc := range cases {
		res := verifyOne(t, root, tc.evidence, Options{})
		all := res.Reason
		for _, c := range res.Checks {
			all += " | " + c.Detail
		}
		if res.State != tc.state || !strings.Contains(all, tc.detail) {
			t.Errorf("%q: %s %q, want %s containing %q", tc.evidence, res.State, all, tc.state, tc.detail)
		}
	}
}

func TestCommits(t *testing.T) {
	g := newGitRepo(t)
	first := g.commit("Add the parser", "parse.go", "package parse\n")
	// A branch with a commit HEAD does not reach.
	g.git("checkout", "-q", "-b", "feature")
	onBranch := g.commit("Add the lexer", "lex.go", "package lex\n")
	g.git("checkout", "-q", "main")
	second := g.commit("Fix CRLF handling", "crlf.go", "package crlf\n")
	// A commit rebased away: feature2's commit is replayed onto main, the
	// old id stays in the object store but no branch reaches it.
	g.git("checkout", "-q", "-b", "feature2", first)
	rebased := g.commit("Add the printer", "print.go", "package print\n")
	g.git("rebase", "-q", "main")
	g.git("checkout", "-q", "main")
	blob := g.git("hash-object", "-w", "parse.go")

	tests := []verifyCase{
		{"commit " + first[:7], Verified, `commit ` + first[:12] + ` "Add the parser" (2026-11-01) is on HEAD`},
		{first, Verified, "is on HEAD"},
		{"fixed in " + strings.ToUpper(second[:10]), Verified, `"Fix CRLF handling"`},
		{"commit " + onBranch[:8], Verified, `"Add the lexer" (2026-11-01) is on branch feature, not on HEAD`},
		{"commit " + rebased[:8], Failed, `"Add the printer" exists but no local branch reaches it (rebased or reset away?)`},
		{"commit 0badc0de1", Failed, "commit 0badc0de1 not found in the repository"},
		{"commit " + blob[:9], Failed, "names a blob, not a commit"},
		{"commit " + first[:7] + ", commit 0badc0de1", Failed, "0badc0de1 not found"},
	}
	checkCases(t, g.dir, tests)
}

func TestNotARepository(t *testing.T) {
	dir := t.TempDir()
	res := verifyOne(t, dir, "commit abc1234", Options{})
	if res.State != Unverifiable || !strings.Contains(res.Reason, "not a git repository") {
		t.Fatalf("%s %q", res.State, res.Reason)
	}
}

func TestFilesAndTests(t *testing.T) {
	g := newGitRepo(t)
	g.commit("files",
		"internal/ratelimit/bucket.go", "package ratelimit\n\nfunc Take() {}\n",
		"internal/ratelimit/bucket_test.go", "package ratelimit\n\nimport \"testing\"\n\nfunc TestTake(t *testing.T) {}\n\nfunc BenchmarkTake(b *testing.B) {}\n",
		"docs/Design Notes.md", "# Notes\none\ntwo",
		"README.md", "hi\n")
	g.write("untracked_test.go", "package x\nfunc TestUntracked(t *testing.T) {}\n")
	tests := []verifyCase{
		{"internal/ratelimit/bucket.go", Verified, "file internal/ratelimit/bucket.go exists"},
		{"internal/ratelimit/bucket.go:3", Verified, "has line 3"},
		{"internal/ratelimit/bucket.go:4", Failed, "file internal/ratelimit/bucket.go has 3 lines: no line 4"},
		{"internal/ratelimit/bucket.go:2-9", Failed, "no line 9"},
		{`internal\ratelimit\bucket.go:1`, Verified, "has line 1"},
		{"`docs/Design Notes.md:3`", Verified, "file docs/Design Notes.md has line 3"},
		{"`docs/Design Notes.md:4`", Failed, "has 3 lines"},
		{"bucket.go", Verified, "file internal/ratelimit/bucket.go exists"},
		{"README.md updated", Verified, "file README.md exists"},
		{"internal/ratelimit/gone.go", Failed, "file internal/ratelimit/gone.go does not exist"},
		{"internal/ratelimit/:1", Failed, "is a directory"},
		{"../outside.go", Unverifiable, "outside the workspace"},
		{`C:\Users\me\proj\main.go`, Unverifiable, "outside the workspace"},
		{"TestTake passes", Verified, "test TestTake is in internal/ratelimit/bucket_test.go"},
		{"TestTake/burst", Verified, "test TestTake is in"},
		{"BenchmarkTake", Verified, "BenchmarkTake"},
		{"TestUntracked", Verified, "untracked_test.go"},
		{"TestMissing", Failed, "test TestMissing not found in any _test.go file"},
		{"internal/ratelimit/bucket_test.go:TestTake", Verified, "test TestTake is in internal/ratelimit/bucket_test.go"},
		{"internal/ratelimit/bucket_test.go:TestOther", Failed, "test TestOther not found in internal/ratelimit/bucket_test.go"},
		{"nope/x_test.go:TestTake", Failed, "test file nope/x_test.go does not exist"},
		{"https://example.com/ci/1", Unverifiable, "not checked (verify works offline)"},
		{"done", Unverifiable, "names nothing checkable"},
		{"`go test ./...` passes", Unverifiable, "pass --run to re-run it"},
		{"npm test: 42 passed", Unverifiable, "only backticked commands are re-run"},
	}
	checkCases(t, g.dir, tests)
}

func TestRun(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		evidence string
		state    State
		detail   string
	}{
		{"`test 1 = 1` passes", Verified, "command `test 1 = 1` exited 0 as stated"},
		{"`sh -c 'echo boom; exit 1'` passes", Failed, "command `sh -c 'echo boom; exit 1'` exited 1, the evidence states exit 0: boom"},
		{"`sh -c 'exit 3'` exits 3", Verified, "exited 3 as stated"},
		{"`test 1 = 2` fails", Verified, "exited 1 as stated"},
		{"`test 1 = 1` fails", Failed, "exited 0, the evidence states a non-zero exit"},
		{"`no-such-tool-xyz --flag`: ok", Failed, "exited 127"},
		{"`pwd | grep -q " + dir + "` ok", Verified, "exited 0"},
		{"`sleep 30` passes", Failed, "command `sleep 30` timed out after 300ms"},
		{"`sh -c 'sleep 30 & wait'` passes", Failed, "timed out after 300ms"},
	}
	for _, tc := range tests {
		start := time.Now()
		res := verifyOne(t, dir, tc.evidence, Options{Runner: shell.Run, Timeout: 300 * time.Millisecond})
		if len(res.Checks) != 1 {
			t.Fatalf("%q: checks %+v", tc.evidence, res.Checks)
		}
		if res.State != tc.state || !strings.Contains(res.Checks[0].Detail, tc.detail) {
			t.Errorf("%q: %s %q, want %s containing %q", tc.evidence, res.State, res.Checks[0].Detail, tc.state, tc.detail)
		}
		// The timeout kills the whole process group: nothing waits for sleep 30.
		if d := time.Since(start); d > 20*time.Second {
			t.Errorf("%q took %s", tc.evidence, d)
		}
	}
}

func TestOnlyCompleted(t *testing.T) {
	tasks := []core.Task{done(1, "done"), {ID: 2, Status: core.Pending}, {ID: 3, Status: core.Deferred, Reason: "later"}}
	res := Tasks(context.Background(), t.TempDir(), tasks, Options{})
	if len(res) != 1 || res[0].TaskID != 1 || !res[0].Weak {
		t.Fatalf("%+v", res)
	}
	if Failing(res) {
		t.Fatal("weak evidence counted as a failure")
	}
}

// A test reference's check gives the line its function is declared on, so
// a report can link it.
func TestTestLine(t *testing.T) {
	g := newGitRepo(t)
	g.commit("tests", "a/x_test.go", "package a\n\nimport \"testing\"\n\n// doc\nfunc TestOne(t *testing.T) {}\n\nfunc TestTwo(t *testing.T) {\n}\n")
	for _, tc := range []struct {
		evidence string
		line     int
	}{
		{"TestOne", 6},
		{"TestTwo passes", 8},
		{"a/x_test.go:TestTwo", 8},
		{"TestGone", 0},
	} {
		res := Tasks(context.Background(), g.dir, []core.Task{{ID: 1, Status: core.Completed, Evidence: tc.evidence}}, Options{})
		if len(res) != 1 || len(res[0].Checks) != 1 || res[0].Checks[0].Line != tc.line {
			t.Errorf("%q: checks %+v, want line %d", tc.evidence, res[0].Checks, tc.line)
		}
	}
}
