package verify

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/planls/planls/core"
)

// gitRepo is a real repository in a temp dir with a fixed identity and
// clock, so commits are reproducible.
type gitRepo struct {
	t    testing.TB
	dir  string
	tick int
}

func newGitRepo(t testing.TB) *gitRepo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	g := &gitRepo{t: t, dir: t.TempDir()}
	g.git("init", "-q", "-b", "main")
	return g
}

// git runs git in the repository and returns its trimmed stdout.
func (g *gitRepo) git(args ...string) string {
	g.t.Helper()
	g.tick++
	date := time.Date(2026, 11, 1, 9, 0, g.tick, 0, time.UTC).Format(time.RFC3339)
	cmd := exec.Command("git", args...)
	cmd.Dir = g.dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=Test", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=Test", "GIT_COMMITTER_EMAIL=t@example.com",
		"GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date, "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		g.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// commit writes files (name → content) and commits them with subject;
// it returns the new commit's id.
func (g *gitRepo) commit(subject string, files ...string) string {
	g.t.Helper()
	for i := 0; i+1 < len(files); i += 2 {
		g.write(files[i], files[i+1])
	}
	g.git("add", "-A")
	g.git("commit", "-q", "--allow-empty", "-m", subject)
	return g.git("rev-parse", "HEAD")
}

func (g *gitRepo) write(name, content string) {
	g.t.Helper()
	p := filepath.Join(g.dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		g.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		g.t.Fatal(err)
	}
}

// done is a completed task with evidence.
func done(id int, evidence string) core.Task {
	return core.Task{ID: id, Subject: "item", Status: core.Completed, Evidence: evidence, Source: "plan"}
}
