package verify

import (
	"context"
	"maps"
	"slices"
	"strings"
)

// StateDir is the directory below a workspace root where planls keeps its
// state (the store's DirName), as git names it.
const StateDir = ".planls"

// NotWork is the git pathspec that leaves the plan's own files out of the
// pathspec before it: the plan file (plan: slash-separated, relative to the
// directory git runs in; "" when there is none) and StateDir. A commit that
// changes some of those files and no file left after NotWork is plan-only:
// it writes or edits the plan, or records planls's state, so it is the work
// of no plan item. The language server's one-click evidence never offers
// such a commit, and verify fails evidence that names one.
func NotWork(plan string) []string {
	var out []string
	for _, p := range planPaths(plan) {
		out = append(out, ":(exclude,literal)"+p)
	}
	return out
}

// PlanOnly is the set of the commits among ids (full object ids) in the
// repository at root that are the work of no plan item: they change only
// the plan's files (NotWork) or only those and the .gitattributes lines
// for StateDir (the approval's merge set-up). It is the rule verify fails
// evidence on, for those who offer evidence; empty when git cannot answer.
func PlanOnly(ctx context.Context, root, plan string, ids []string) map[string]bool {
	set := map[string]bool{}
	r := newRepo(ctx, root)
	if r.err != nil {
		return set
	}
	out := map[string]lookupResult{}
	for _, id := range ids {
		out[id] = lookupResult{commit: &Commit{ID: id}}
	}
	r.markPlanOnly(out, plan)
	for id, lr := range out {
		if lr.planOnly {
			set[id] = true
		}
	}
	return set
}

// planPaths are the plan's own files as NotWork names them.
func planPaths(plan string) []string {
	if plan == "" {
		return []string{StateDir}
	}
	return []string{StateDir, plan}
}

// markPlanOnly sets planOnly on the results whose commit is plan-only
// (NotWork), measured against its first parent (a merge's change is what
// it brings to the branch it was made on; a root commit's, everything it
// adds). Two git processes for all of them, git log --no-walk listing of
// the commits given those whose first-parent diff touches the plan's
// files, then those that touch any other file. An empty commit is not
// plan-only. A commit git cannot answer for stays not plan-only: verify
// never fails evidence on a lookup that did not run.
func (r *repo) markPlanOnly(out map[string]lookupResult, plan string) {
	var ids []string
	for _, lr := range out {
		if lr.commit != nil && !slices.Contains(ids, lr.commit.ID) {
			ids = append(ids, lr.commit.ID)
		}
	}
	var planSpec []string
	for _, p := range planPaths(plan) {
		planSpec = append(planSpec, ":(literal)"+p)
	}
	touchPlan := r.touching(ids, planSpec)
	if len(touchPlan) == 0 {
		return
	}
	work := r.touching(slices.Collect(maps.Keys(touchPlan)), append([]string{":(top)"}, NotWork(plan)...))
	if work == nil {
		return
	}
	setup := r.stateSetup(touchPlan, work, plan)
	for id, lr := range out {
		if lr.commit == nil || !touchPlan[lr.commit.ID] {
			continue
		}
		switch {
		case !work[lr.commit.ID]:
			lr.planOnly = true
		case setup[lr.commit.ID]:
			lr.planOnly, lr.setup = true, true
		default:
			continue
		}
		out[id] = lr
	}
}

// attributesFile is the root .gitattributes, as a pathspec.
const attributesFile = ":(top,literal).gitattributes"

// stateSetup is the set of the commits in work (which touch the plan's
// files and more) whose only other change is lines of the root
// .gitattributes that name StateDir's files: the merge set-up planls asks
// the user to commit with the first approval ("approve plan" holding
// .gitattributes and .planls/). Such a commit is no item's work either. A
// .gitattributes line about anything else is work (a task may be "track
// the images with LFS"). One git process for the pathspec test, one per
// remaining commit for its lines; nil when git could not answer.
func (r *repo) stateSetup(touchPlan, work map[string]bool, plan string) map[string]bool {
	var ids []string
	for id := range touchPlan {
		if work[id] {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	beyond := r.touching(ids, append([]string{":(top)", ":(exclude,top,literal).gitattributes"}, NotWork(plan)...))
	if beyond == nil {
		return nil
	}
	set := map[string]bool{}
	for _, id := range ids {
		if !beyond[id] && r.onlyStateAttributes(id) {
			set[id] = true
		}
	}
	return set
}

// onlyStateAttributes reports whether every line commit id adds to or
// removes from the root .gitattributes (against its first parent) names a
// path under StateDir; false when git could not answer.
func (r *repo) onlyStateAttributes(id string) bool {
	raw, err := r.git(nil, "show", "--format=", "--diff-merges=first-parent", "--no-color", "--no-ext-diff", "-U0", id, "--", attributesFile)
	if err != nil {
		return false
	}
	changed := false
	for _, line := range strings.Split(string(raw), "\n") {
		if strings.HasPrefix(line, "+++") || strings.HasPrefix(line, "---") || (!strings.HasPrefix(line, "+") && !strings.HasPrefix(line, "-")) {
			continue
		}
		body := strings.TrimSpace(line[1:])
		if body == "" || strings.HasPrefix(body, "#") {
			continue
		}
		if !strings.HasPrefix(strings.TrimPrefix(body, "/"), StateDir+"/") {
			return false
		}
		changed = true
	}
	return changed
}

// touching is the set of the full commit ids whose first-parent diff
// changes a file pathspec matches; nil when git could not answer.
func (r *repo) touching(ids []string, pathspec []string) map[string]bool {
	if len(ids) == 0 {
		return map[string]bool{}
	}
	args := append([]string{"log", "--no-walk=unsorted", "--first-parent", "--stdin", "--format=%H", "--"}, pathspec...)
	raw, err := r.git([]byte(strings.Join(ids, "\n")+"\n"), args...)
	if err != nil {
		return nil
	}
	set := map[string]bool{}
	for _, id := range strings.Fields(string(raw)) {
		set[id] = true
	}
	return set
}

// planFiles names the files NotWork(plan) leaves out, for a person, and
// with setup also the .gitattributes lines stateSetup leaves out.
func planFiles(plan string, setup bool) string {
	if setup {
		return planFiles(plan, false) + ", and .gitattributes lines for " + StateDir + "/"
	}
	if plan == "" {
		return StateDir + "/"
	}
	return plan + " and " + StateDir + "/"
}
