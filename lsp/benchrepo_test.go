package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/planls/planls/core"
	"github.com/planls/planls/internal/plangen"
	"github.com/planls/planls/store"
)

// The repository benchmarks run where users feel the editor waiting on
// git: a generated repository of repoCommits commits over a few thousand
// files (the size of golang/tools), with an approved plan whose completed
// items' evidence names commits deep in its history, files with lines,
// test functions and commands, some on a branch HEAD does not reach, some
// weak and some failing.

// repoCommits is the length of the generated history (main only).
const repoCommits = 10_000

// Files of the generated tree: repoPkgs packages of repoGoFiles files and
// repoTestFiles test files each (2,000 files, 500 of them _test.go).
const (
	repoPkgs      = 100
	repoGoFiles   = 15
	repoTestFiles = 5
)

// benchRepos caches one generated repository per plan size for the
// process: a benchmark function runs several times as b.N grows, and the
// before/after binaries must see the same repository. TestMain removes
// them.
var benchRepos struct {
	sync.Mutex
	roots map[int]string
	dirs  []string
}

func TestMain(m *testing.M) {
	if server := os.Getenv("PLANLS_BENCH_PROXY"); server != "" {
		os.Exit(runBenchProxy(server))
	}
	code := m.Run()
	removeBenchRepos()
	os.Exit(code)
}

func removeBenchRepos() {
	benchRepos.Lock()
	defer benchRepos.Unlock()
	for _, d := range benchRepos.dirs {
		_ = os.RemoveAll(d)
	}
}

// repoPlan returns the root of a generated repository with an approved
// plan of n items (PLAN.md, plangen seed 1) and its plan file and bytes.
// About half the items are completed, with evidence from repoEvidence;
// others are in progress or deferred.
func repoPlan(b testing.TB, n int) (root, plan string, src []byte) {
	b.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("needs git")
	}
	benchRepos.Lock()
	defer benchRepos.Unlock()
	if benchRepos.roots == nil {
		benchRepos.roots = map[int]string{}
	}
	root = benchRepos.roots[n]
	if root == "" {
		dir, err := os.MkdirTemp("", "planls-benchrepo-")
		if err != nil {
			b.Fatal(err)
		}
		benchRepos.dirs = append(benchRepos.dirs, dir)
		root = filepath.Join(dir, "repo")
		if err := makeBenchRepo(root, n); err != nil {
			b.Fatal(err)
		}
		benchRepos.roots[n] = root
	}
	plan = filepath.Join(root, "PLAN.md")
	src, err := os.ReadFile(plan)
	if err != nil {
		b.Fatal(err)
	}
	return root, plan, src
}

func makeBenchRepo(root string, n int) error {
	if err := os.MkdirAll(root, 0o755); err != nil {
		return err
	}
	git := func(stdin string, args ...string) (string, error) {
		cmd := exec.Command("git", append([]string{"-C", root}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if stdin != "" {
			cmd.Stdin = strings.NewReader(stdin)
		}
		out, err := cmd.CombinedOutput()
		if err != nil {
			return "", fmt.Errorf("git %s: %v\n%s", args[0], err, out)
		}
		return string(out), nil
	}
	if _, err := git("", "init", "-q", "-b", "main"); err != nil {
		return err
	}
	if _, err := git(historyStream(), "fast-import", "--quiet"); err != nil {
		return err
	}
	if _, err := git("", "checkout", "-q", "-f", "main"); err != nil {
		return err
	}
	out, err := git("", "rev-list", "--reverse", "main")
	if err != nil {
		return err
	}
	mainIDs := strings.Fields(out)
	out, err = git("", "rev-list", "--reverse", "main..feature")
	if err != nil {
		return err
	}
	branchIDs := strings.Fields(out)
	if len(mainIDs) < repoCommits || len(branchIDs) == 0 {
		return fmt.Errorf("history has %d commits on main, %d on feature", len(mainIDs), len(branchIDs))
	}
	if err := os.WriteFile(filepath.Join(root, "PLAN.md"), plangen.Generate(n, 1), 0o644); err != nil {
		return err
	}
	s := store.Open(root, "bench")
	ctx := context.Background()
	if _, err := s.Approve(ctx, "PLAN.md", core.Options{}, store.ApproveOptions{}); err != nil {
		return err
	}
	var ops []string // one `ops` call: the update ops as the tool's JSON
	for id := 1; id <= n; id++ {
		if op, ok := repoItemOp(id, mainIDs, branchIDs); ok {
			fields, _ := json.Marshal(op)
			ops = append(ops, `{"action":"update",`+string(fields[1:]))
		}
	}
	res, err := s.Call(ctx, json.RawMessage(`{"ops":[`+strings.Join(ops, ",")+`]}`), core.Options{})
	if err != nil {
		return err
	}
	if res.Envelope.IsError() {
		return fmt.Errorf("completing items: %s", res.Envelope.Text())
	}
	return nil
}

// repoItemOp is what happens to plan item id: every other item is
// completed with repoEvidence, and of the rest some are in progress and
// some deferred.
func repoItemOp(id int, mainIDs, branchIDs []string) (core.UpdateOp, bool) {
	op := core.UpdateOp{ID: id}
	var st core.Status
	switch {
	case id%2 == 1:
		st = core.Completed
		ev := repoEvidence(id, mainIDs, branchIDs)
		op.Evidence = &ev
	case id%6 == 2:
		st = core.InProgress
	case id%8 == 4:
		st = core.Deferred
		reason := "out of scope for this release"
		op.Reason = &reason
	default:
		return op, false
	}
	op.Status = &st
	return op, true
}

// repoEvidence is the evidence of completed item id: mostly a commit
// spread over the whole history with a file:line and a test, else a
// command with its result and a test, a commit only a branch reaches,
// weak evidence, or a commit and a file that do not exist.
func repoEvidence(id int, mainIDs, branchIDs []string) string {
	pkg, file := id%repoPkgs, id%repoGoFiles
	commit := mainIDs[(id*7919)%len(mainIDs)][:12]
	switch id % 10 {
	case 3:
		return fmt.Sprintf("`go test ./pkg/p%02d/...` passes; TestP%02dFile%d covers it", pkg, pkg, id%repoTestFiles)
	case 5:
		return fmt.Sprintf("commit %s on the feature branch", branchIDs[id%len(branchIDs)][:12])
	case 7:
		return "done, works now"
	case 9:
		return fmt.Sprintf("commit deadbeef%04d adds `pkg/p%02d/missing%d.go`", id%10000, pkg, id)
	}
	return fmt.Sprintf("commit %s: `pkg/p%02d/file%d.go:12` and TestP%02dFile%d pass", commit, pkg, file, pkg, id%repoTestFiles)
}

// historyStream is the git fast-import input of the history: a first
// commit with every file, then repoCommits-1 commits on main each
// rewriting one file, and a feature branch of 20 commits off commit 9,000.
func historyStream() string {
	var b strings.Builder
	b.Grow(repoCommits * 1200)
	when := 1700000000
	commit := func(ref string, mark, from int, msg string) {
		when += 60
		fmt.Fprintf(&b, "commit %s\nmark :%d\ncommitter Bench <bench@example.com> %d +0000\ndata %d\n%s\n", ref, mark, when, len(msg), msg)
		if from > 0 {
			fmt.Fprintf(&b, "from :%d\n", from)
		}
	}
	blob := func(path, content string) {
		fmt.Fprintf(&b, "M 644 inline %s\ndata %d\n%s\n", path, len(content), content)
	}
	commit("refs/heads/main", 1, 0, "initial tree")
	blob("go.mod", "module example.com/bench\n\ngo 1.22\n")
	for p := 0; p < repoPkgs; p++ {
		for f := 0; f < repoGoFiles; f++ {
			blob(goFile(p, f), goSource(p, f, 0))
		}
		for f := 0; f < repoTestFiles; f++ {
			blob(fmt.Sprintf("pkg/p%02d/file%d_test.go", p, f),
				fmt.Sprintf("package p%02d\n\nimport \"testing\"\n\nfunc TestP%02dFile%d(t *testing.T) {\n\tif f0() != 0 {\n\t\tt.Fatal(\"f0\")\n\t}\n}\n", p, p, f))
		}
	}
	b.WriteString("\n")
	for i := 2; i <= repoCommits; i++ {
		p, f := i%repoPkgs, (i/repoPkgs)%repoGoFiles
		commit("refs/heads/main", i, i-1, fmt.Sprintf("p%02d: revise file%d (change %d)", p, f, i))
		blob(goFile(p, f), goSource(p, f, i))
		b.WriteString("\n")
	}
	for i := 1; i <= 20; i++ {
		from := repoCommits + i - 1
		if i == 1 {
			from = 9000
		}
		commit("refs/heads/feature", repoCommits+i, from, fmt.Sprintf("feature: step %d", i))
		blob("feature.txt", fmt.Sprintf("step %d\n", i))
		b.WriteString("\n")
	}
	return b.String()
}

func goFile(p, f int) string { return fmt.Sprintf("pkg/p%02d/file%d.go", p, f) }

// goSource is a Go file of 40 functions, marked with the change that wrote it.
func goSource(p, f, change int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "package p%02d\n\n// file%d, change %d\n", p, f, change)
	for k := 0; k < 40; k++ {
		fmt.Fprintf(&b, "func f%d_%d() int { return %d }\n", f, k, k+change)
	}
	if f == 0 {
		b.WriteString("func f0() int { return 0 }\n")
	}
	return b.String()
}
