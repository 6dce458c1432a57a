package verify

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/planls/planls/core"
)

// A commit that changes nothing but the plan file and .planls/ fails as
// evidence (real git): the root commit adding the plan, the approval's
// commit, a plan-only merge; a commit or merge that brings other files
// holds. Plan-only is measured against the first parent; an empty commit
// is not plan-only.
func TestPlanOnlyCommits(t *testing.T) {
	g := newGitRepo(t)
	addPlan := g.commit("Add the plan", "PLAN.md", "# Plan\n\n- a\n")
	approve := g.commit("Approve", ".planls/state.json", "{}\n", ".planls/journal.jsonl", "\n")
	code := g.commit("Add the parser", "parse.go", "package parse\n", "PLAN.md", "# Plan\n\n- [x] a\n")
	g.git("checkout", "-q", "-b", "feature")
	g.commit("Add the lexer", "lex.go", "package lex\n")
	g.git("checkout", "-q", "main")
	g.commit("Reword", "PLAN.md", "# Plan\n\n- [x] the a\n")
	g.git("merge", "-q", "--no-edit", "feature")
	mergeWork := g.git("rev-parse", "HEAD")
	g.git("checkout", "-q", "-b", "replan")
	g.commit("Replan", "PLAN.md", "# Plan\n\n- [x] the a\n- b\n")
	g.git("checkout", "-q", "main")
	g.git("merge", "-q", "--no-ff", "--no-edit", "replan")
	mergePlan := g.git("rev-parse", "HEAD")

	empty := g.commit("Nothing")
	plan := Options{Plan: "PLAN.md"}
	for _, tc := range []struct {
		evidence string
		opts     Options
		want     State
	}{
		{addPlan[:7], plan, Failed},
		{"commit " + approve[:9], plan, Failed},
		{code[:7], plan, Verified},
		{mergeWork[:7], plan, Verified},
		{mergePlan[:7], plan, Failed},
		{addPlan[:7] + " and parse.go:1", plan, Failed},
		// An empty commit changes no file at all: no work either.
		{empty[:7], plan, Failed},
		// Without the plan's path only .planls/ is the plan's.
		{addPlan[:7], Options{}, Verified},
		{approve[:7], Options{}, Failed},
	} {
		res := verifyOne(t, g.dir, tc.evidence, tc.opts)
		if res.State != tc.want {
			t.Errorf("%q with plan %q: %s (%s), want %s", tc.evidence, tc.opts.Plan, res.State, res.Reason, tc.want)
		}
	}
	res := verifyOne(t, g.dir, addPlan[:7], plan)
	if want := `commit ` + addPlan[:12] + ` "Add the plan" (2026-11-01) changes nothing but the plan (PLAN.md and .planls/), so it is no proof of the item's work`; res.Reason != want {
		t.Errorf("reason %q, want %q", res.Reason, want)
	}

	// A workspace in a subdirectory: its plan and .planls/ are below it; a
	// commit outside it is not plan-only.
	sub := g.commit("Add a sub-plan", "svc/PLAN.md", "# Plan\n\n- s\n")
	other := g.commit("Other root", "PLAN.md", "# Plan\n\n- other\n")
	dir := filepath.Join(g.dir, "svc")
	for _, tc := range []struct {
		id   string
		want State
	}{{sub[:7], Failed}, {other[:7], Verified}} {
		got := Tasks(context.Background(), dir, []core.Task{done(1, tc.id)}, plan)
		if got[0].State != tc.want {
			t.Errorf("in svc/: %s is %s (%s), want %s", tc.id, got[0].State, got[0].Reason, tc.want)
		}
	}
}
