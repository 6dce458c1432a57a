package verify

import (
	"testing"
)

// A commit that changes no file fails as evidence, naming the commit
// (real git): one made with --allow-empty, an empty root commit. A merge
// is empty only when it changes nothing against every parent, so the
// merge of a branch with work holds, and so does a merge that kept only
// its first parent's files (-s ours: it changes the other side).
func TestEmptyCommits(t *testing.T) {
	g := newGitRepo(t)
	root := g.commit("Start")
	code := g.commit("Add the parser", "parse.go", "package parse\n")
	empty := g.commit("Nothing yet")
	g.git("checkout", "-q", "-b", "feature")
	g.commit("Add the lexer", "lex.go", "package lex\n")
	g.git("checkout", "-q", "main")
	g.git("merge", "-q", "--no-ff", "--no-edit", "feature")
	merge := g.git("rev-parse", "HEAD")
	g.git("checkout", "-q", "-b", "dropped")
	g.commit("Add a tool", "tool.go", "package tool\n")
	g.git("checkout", "-q", "main")
	g.git("merge", "-q", "-s", "ours", "--no-edit", "dropped")
	ours := g.git("rev-parse", "HEAD")

	for _, tc := range []struct {
		name, evidence string
		want           State
	}{
		{"allow-empty", empty[:7], Failed},
		{"allow-empty, full id", "commit " + empty, Failed},
		{"empty root", "commit " + root[:7], Failed},
		{"empty beside a file that holds", empty[:7] + " and parse.go:1", Failed},
		{"work", code[:7], Verified},
		{"merge of a branch", merge[:7], Verified},
		{"merge -s ours", ours[:7], Verified},
	} {
		res := verifyOne(t, g.dir, tc.evidence, Options{Plan: "PLAN.md"})
		if res.State != tc.want {
			t.Errorf("%s (%q): %s (%s), want %s", tc.name, tc.evidence, res.State, res.Reason, tc.want)
		}
	}
	res := verifyOne(t, g.dir, empty[:7], Options{Plan: "PLAN.md"})
	if want := `commit ` + empty[:12] + ` "Nothing yet" (2026-11-01) changes no files, so it is no proof of the item's work`; res.Reason != want {
		t.Errorf("reason %q, want %q", res.Reason, want)
	}
}
