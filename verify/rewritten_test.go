package verify

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// A commit that no branch reaches any more is looked for on HEAD: a
// rebase (with or without a conflict to resolve), an amend or a reword
// leaves a copy, named with the evidence that records it; a commit reset
// away leaves none, and the verdict stays what it was.
func TestRewrittenCommits(t *testing.T) {
	tests := []struct {
		name string
		// rewrite makes the commit (a new branch on main) and rewrites or
		// drops it; it returns the old id and the copy's ("" when none).
		rewrite func(g *gitRepo) (old, copy string)
		// evidence is the item's evidence, OLD standing for the id as
		// written; fix is the evidence the verdict says to record (NEW
		// standing for the copy's 12-digit id), "" for none.
		evidence, fix string
	}{
		{
			name: "rebase",
			rewrite: func(g *gitRepo) (string, string) {
				old := g.commit("button", "web/button.tsx", "export const b = 1\n")
				g.git("checkout", "-q", "main")
				g.commit("routes", "web/routes.tsx", "routes\n")
				g.git("checkout", "-q", "topic")
				g.git("rebase", "-q", "main")
				return old, g.git("rev-parse", "HEAD")
			},
			evidence: "OLD[:7] web/button.tsx", fix: "NEW web/button.tsx",
		},
		{
			name: "rebase resolving a conflict",
			rewrite: func(g *gitRepo) (string, string) {
				old := g.commit("button", "shared.txt", "one\ntopic\n")
				g.git("checkout", "-q", "main")
				g.commit("routes", "shared.txt", "one\nmain\n")
				g.git("checkout", "-q", "topic")
				g.gitFails("rebase", "main")
				g.write("shared.txt", "one\nmain\ntopic\n")
				g.git("add", "shared.txt")
				g.git("-c", "core.editor=true", "rebase", "--continue")
				return old, g.git("rev-parse", "HEAD")
			},
			evidence: "commit OLD", fix: "commit NEW40",
		},
		{
			name: "amend",
			rewrite: func(g *gitRepo) (string, string) {
				old := g.commit("button", "web/button.tsx", "export const b = 1\n")
				g.write("web/button.tsx", "export const b = 2\n")
				g.git("commit", "-q", "-a", "--amend", "--no-edit")
				return old, g.git("rev-parse", "HEAD")
			},
			evidence: "it's OLD[:10], see `go test ./web` passes", fix: "it's NEW, see `go test ./web` passes",
		},
		{
			name: "reword",
			rewrite: func(g *gitRepo) (string, string) {
				old := g.commit("button", "web/button.tsx", "export const b = 1\n")
				g.git("commit", "-q", "--amend", "-m", "web: the button")
				return old, g.git("rev-parse", "HEAD")
			},
			evidence: "commit OLD[:12] and commit OLD[:9]", fix: "commit NEW and commit NEW",
		},
		{
			name: "reset away",
			rewrite: func(g *gitRepo) (string, string) {
				old := g.commit("button", "web/button.tsx", "export const b = 1\n")
				g.git("reset", "-q", "--hard", "HEAD~1")
				g.commit("other", "other.txt", "x\n")
				return old, ""
			},
			evidence: "commit OLD[:8]",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := newGitRepo(t)
			g.commit("base", "shared.txt", "one\n")
			g.git("checkout", "-q", "-b", "topic")
			old, cp := tc.rewrite(g)
			r := strings.NewReplacer("OLD[:7]", old[:7], "OLD[:8]", old[:8], "OLD[:9]", old[:9], "OLD[:10]", old[:10], "OLD[:12]", old[:12], "OLD", old)
			res := verifyOne(t, g.dir, r.Replace(tc.evidence), Options{})
			if res.State != Failed {
				t.Fatalf("%s %q, want failed", res.State, res.Reason)
			}
			if cp == "" {
				want := `commit ` + old[:12] + ` "button" exists but no local branch reaches it (rebased or reset away?)`
				if res.Reason != want || res.Fix != "" {
					t.Fatalf("reason %q fix %q, want %q and no fix", res.Reason, res.Fix, want)
				}
				return
			}
			fix := strings.NewReplacer("NEW40", cp, "NEW", cp[:12]).Replace(tc.fix)
			detail := `commit ` + old[:12] + ` "button" was rewritten (rebased?) as ` + cp[:12] + ` on HEAD`
			want := detail + "; update the evidence with planls todo update 1 --evidence " + shellQuote(fix)
			if strings.Count(tc.evidence, "OLD") == 2 {
				want = detail + "; " + want
			}
			if res.Reason != want || res.Fix != fix {
				t.Fatalf("reason %q\nwant   %q\nfix %q, want %q", res.Reason, want, res.Fix, fix)
			}
			if got := res.Checks[0].Commit.RewrittenAs; got != cp {
				t.Fatalf("RewrittenAs %q, want %q", got, cp)
			}
			// The fix holds as written.
			if res := verifyOne(t, g.dir, fix, Options{}); res.State == Failed {
				t.Fatalf("fixed evidence %q: %s %q", fix, res.State, res.Reason)
			}
		})
	}
}

// gitFails runs a git command that must fail (a rebase that stops at a
// conflict).
func (g *gitRepo) gitFails(args ...string) {
	g.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = g.dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=Test", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=Test", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err == nil {
		g.t.Fatalf("git %s succeeded:\n%s", strings.Join(args, " "), out)
	}
}
