package lsp

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/planls/planls/core"
	"github.com/planls/planls/verify"
)

// What waits on git never sits in front of a request or a keystroke: HEAD
// (the first ready evidence of a code action) and the verification of the
// completed items' evidence (hover, planls/plan, evidence-failed) are
// refreshed on a group goroutine, one run at a time per folder, when a
// snapshot's completed items or their evidence differ from what the last
// run checked, and when .git/HEAD or the current branch's ref changes (a
// checkout, a commit, a rebase). Until a run lands, snapshots carry the
// last one with pending set; planls/stateChanged follows when it changes
// what planls/plan answers.

// verification is what one background run found: HEAD then and each
// completed plan item's verification, for the evidence it had then.
type verification struct {
	head     headCommit // HEAD then (zero outside a repository)
	evidence map[int]string
	results  map[int]verify.Result
	byID     map[int]core.Verdict
	refs     map[int][]evidenceRef // planls/plan's evidenceRefs
}

// verdicts returns the verdicts of st's completed plan items that v
// checked with the evidence they have now and, as pending, whether a
// completed item has none or HEAD has moved since (headKnown false: a
// change of HEAD was seen and not looked up yet).
func (v *verification) verdicts(st *core.State, head headCommit, headKnown bool) (map[int]core.Verdict, bool) {
	pending := false
	out := map[int]core.Verdict{}
	for i := range st.Tasks {
		t := &st.Tasks[i]
		if t.Source != "plan" || t.Status != core.Completed {
			continue
		}
		if v == nil || !headKnown || v.head != head || v.evidence[t.ID] != t.Evidence || v.results[t.ID].TaskID == 0 {
			pending = true
			continue
		}
		out[t.ID] = v.byID[t.ID]
	}
	return out, pending
}

// verdicts is f.ver.verdicts of f's state and HEAD, made again only when
// one of them changed: typing changes neither, and the map of a 1,000-item
// plan's verdicts was 150 KB a keystroke (BenchmarkInProcessKeystroke/repo1000).
// Caller holds mu.
func (f *folder) verdicts() (map[int]core.Verdict, bool) {
	c := &f.verdictsOf
	if c.out == nil || c.ver != f.ver || c.st != f.state || c.head != f.head || c.known != f.headKnown {
		*c = verdictsKey{ver: f.ver, st: f.state, head: f.head, known: f.headKnown}
		c.out, c.pending = f.ver.verdicts(f.state, f.head, f.headKnown)
	}
	return c.out, c.pending
}

// verdictsKey is what folder.verdicts last made, and from what.
type verdictsKey struct {
	ver     *verification
	st      *core.State
	head    headCommit
	known   bool
	out     map[int]core.Verdict // read-only once made
	pending bool
}

// result is the verification of completed item id when it is current for
// evidence (nil otherwise).
func (v *verification) result(id int, evidence string) *verify.Result {
	if v == nil || v.evidence[id] != evidence {
		return nil
	}
	if r, ok := v.results[id]; ok {
		return &r
	}
	return nil
}

// refresh starts a background run for f when its snapshot needs one (its
// verification is pending, or HEAD is not known yet), or asks the run in
// progress for another pass. Caller holds mu.
func (s *server) refresh(f *folder) {
	if !f.snap.pending {
		return
	}
	if f.refreshing {
		f.refreshAgain = true
		return
	}
	f.refreshing = s.grp.goFn(func(ctx context.Context) { s.runRefresh(ctx, f) })
}

// runRefresh looks up HEAD and verifies the completed items until a pass
// ends with nothing new to do. It waits on git, never holding mu.
func (s *server) runRefresh(ctx context.Context, f *folder) {
	s.mu.Lock()
	for {
		root, plan, tasks := f.root, f.relPath(f.planPath), verify.PlanItems(f.state)
		approved := f.state.PlanPath()
		f.refreshAgain = false
		s.mu.Unlock()
		gctx, cancel := context.WithTimeout(ctx, lookupTimeout)
		head := s.gitHeadOf(gctx, root, plan)
		watch := gitWatch(gctx, root)
		cancel()
		var results []verify.Result
		if len(tasks) > 0 {
			vctx, cancel := context.WithTimeout(ctx, lookupTimeout)
			results = s.opts.verifyTasks(vctx, root, approved, tasks)
			cancel()
		}
		s.mu.Lock()
		if ctx.Err() != nil || !slices.Contains(s.folders, f) {
			f.refreshing = false
			s.mu.Unlock()
			return
		}
		f.head, f.headKnown = head, true
		f.ver = newVerification(root, head, tasks, results)
		if !slices.Equal(watch, f.gitFiles) {
			f.gitFiles = watch
			s.rewatch()
		}
		s.swap(f, s.build(f))
		if !f.refreshAgain {
			f.refreshing = false
			s.mu.Unlock()
			return
		}
	}
}

func newVerification(root string, head headCommit, tasks []core.Task, results []verify.Result) *verification {
	v := &verification{head: head, evidence: map[int]string{}, results: map[int]verify.Result{},
		byID: map[int]core.Verdict{}, refs: map[int][]evidenceRef{}}
	for _, t := range tasks {
		v.evidence[t.ID] = t.Evidence
	}
	for _, r := range results {
		v.results[r.TaskID] = r
		v.byID[r.TaskID] = r.Verdict()
		v.refs[r.TaskID] = refsOf(root, r.Checks)
	}
	return v
}

// gitWatch names the files whose change moves HEAD in the repository at
// root: HEAD itself, packed-refs and the current branch's ref (in the
// common directory of a linked worktree). Nil outside a repository or
// when ctx ends first.
func gitWatch(ctx context.Context, root string) []string {
	cmd := exec.CommandContext(ctx, "git", "-C", root, "rev-parse", "--absolute-git-dir", "--git-common-dir", "--symbolic-full-name", "HEAD")
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0")
	out, err := cmd.Output()
	if err != nil {
		return nil
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 3 {
		return nil
	}
	gitDir, common, ref := lines[0], lines[1], lines[2]
	if !filepath.IsAbs(common) {
		common = filepath.Join(root, common)
	}
	files := []string{filepath.Join(gitDir, "HEAD"), filepath.Join(filepath.Clean(common), "packed-refs")}
	if strings.HasPrefix(ref, "refs/") {
		files = append(files, filepath.Join(filepath.Clean(common), filepath.FromSlash(ref)))
	}
	return files
}

// headMoved follows a change of one of f's gitFiles: HEAD is looked up
// again once the burst (a commit writes several files) is over. Caller
// holds mu.
func (s *server) headMoved(f *folder) {
	s.rearm(&f.gitTimer, s.opts.debounce, func() {
		f.headKnown = false
		s.swap(f, s.build(f))
	})
}
