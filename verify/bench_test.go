package verify

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/planls/planls/core"
)

// historyRepo is a repository with n commits on main (made with one git
// fast-import) and their ids, oldest first.
func historyRepo(b testing.TB, n int) (*gitRepo, []string) {
	g := newGitRepo(b)
	var stream strings.Builder
	for i := 1; i <= n; i++ {
		msg := fmt.Sprintf("change %d", i)
		fmt.Fprintf(&stream, "commit refs/heads/main\nmark :%d\ncommitter Test <t@example.com> %d +0000\ndata %d\n%s\n", i, 1796115520+i, len(msg), msg)
		if i > 1 {
			fmt.Fprintf(&stream, "from :%d\n", i-1)
		}
		fmt.Fprintf(&stream, "M 644 inline f.txt\ndata %d\n%d\n\n", len(fmt.Sprint(i))+1, i)
	}
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir = g.dir
	cmd.Stdin = strings.NewReader(stream.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("fast-import: %v\n%s", err, out)
	}
	g.git("checkout", "-q", "main")
	ids := strings.Fields(g.git("rev-list", "--reverse", "main"))
	return g, ids
}

// BenchmarkVerify1000Commits verifies 1,000 completed plan items, each
// naming its own commit (abbreviated to 10 hex digits), in a 1,000-commit
// repository: three git processes for the whole run. The target is
// well under a second; measured on the 2-core dev machine: see
// notes/issue-14.md.
func BenchmarkVerify1000Commits(b *testing.B) {
	g, ids := historyRepo(b, 1000)
	tasks := make([]core.Task, len(ids))
	for i, id := range ids {
		tasks[i] = done(i+1, fmt.Sprintf("commit %s: `go test ./...` passes", id[:10]))
	}
	b.ResetTimer()
	for b.Loop() {
		res := Tasks(context.Background(), g.dir, tasks, Options{})
		if len(res) != 1000 || res[0].State != Verified || res[999].State != Verified {
			b.Fatalf("%d results, first %s %q", len(res), res[0].State, res[0].Reason)
		}
	}
}

// BenchmarkVerify1000OldCommitsIn10k: the same 1,000 items naming the
// 1,000 oldest commits of a 10,000-commit history, so rev-list walks all
// of it before every commit is seen.
func BenchmarkVerify1000OldCommitsIn10k(b *testing.B) {
	g, ids := historyRepo(b, 10000)
	tasks := make([]core.Task, 1000)
	for i := range tasks {
		tasks[i] = done(i+1, fmt.Sprintf("commit %s", ids[i][:10]))
	}
	b.ResetTimer()
	for b.Loop() {
		res := Tasks(context.Background(), g.dir, tasks, Options{})
		if len(res) != 1000 || res[0].State != Verified || res[999].State != Verified {
			b.Fatalf("%d results, first %s %q", len(res), res[0].State, res[0].Reason)
		}
	}
}

// BenchmarkVerifyRewrittenIn10k: the 1,000 items of
// BenchmarkVerify1000OldCommitsIn10k and one more naming a commit that no
// branch reaches, made on commit 100 and copied onto the tip of main, so
// the search for its copy reads the capped range (maxRewriteScan commits
// of 9,901).
func BenchmarkVerifyRewrittenIn10k(b *testing.B) {
	g, ids := historyRepo(b, 10000)
	stream := fmt.Sprintf("commit refs/heads/side\ncommitter Test <t@example.com> 1796200000 +0000\ndata 6\nbutton\nfrom %s\nM 644 inline g.txt\ndata 2\ng\n\n", ids[99])
	stream += fmt.Sprintf("commit refs/heads/main\ncommitter Test <t@example.com> 1796200001 +0000\ndata 6\nbutton\nfrom %s\nM 644 inline g.txt\ndata 2\ng\n\n", ids[len(ids)-1])
	cmd := exec.Command("git", "fast-import", "--quiet", "--force")
	cmd.Dir = g.dir
	cmd.Stdin = strings.NewReader(stream)
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("fast-import: %v\n%s", err, out)
	}
	g.git("reset", "-q", "--hard", "main")
	lost := g.git("rev-parse", "side")
	g.git("branch", "-q", "-D", "side")
	tasks := make([]core.Task, 1001)
	for i := range 1000 {
		tasks[i] = done(i+1, fmt.Sprintf("commit %s", ids[i][:10]))
	}
	tasks[1000] = done(1001, "commit "+lost[:10])
	b.ResetTimer()
	for b.Loop() {
		res := Tasks(context.Background(), g.dir, tasks, Options{})
		if len(res) != 1001 || res[0].State != Verified || !strings.Contains(res[1000].Reason, "was rewritten (rebased?)") {
			b.Fatalf("%d results, last %s %q", len(res), res[1000].State, res[1000].Reason)
		}
	}
}
