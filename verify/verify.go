// Package verify checks what completed items' evidence names against the
// workspace: commits exist and are reachable from HEAD or a local branch,
// files exist and have the line named, test functions exist in the tree,
// and (only when asked) backticked commands still give their stated result.
// Recognition is core.ParseEvidence (pure); this package does the I/O: one
// git process per kind of lookup for the whole run, never one per item.
package verify

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/planls/planls/core"
)

// State is the outcome of a check, or of an item as a whole.
type State string

// The three outcomes: verified (something named was checked and
// holds, nothing failed), unverifiable (nothing named can be checked
// offline), failed (something named does not hold; Reason says what: a
// commit that is missing, reached by no branch, empty (it changes no
// file), or plan-only: NotWork).
const (
	Verified     State = "verified"
	Unverifiable State = "unverifiable"
	Failed       State = "failed"
)

// DefaultTimeout bounds each command re-run with Options.Run.
const DefaultTimeout = 2 * time.Minute

// Options control a verification run.
type Options struct {
	// Runner, when set, re-runs backticked commands (in the root) and the
	// exit status is compared with the stated result. nil (the default)
	// runs nothing: a command can do anything, and its text comes from a
	// state file that any branch or agent can change. Only `planls verify
	// --run` sets it (to shell.Run), after the commands were listed and
	// their running confirmed (docs/VERIFY.md).
	Runner Runner
	// Timeout bounds each command (DefaultTimeout when 0).
	Timeout time.Duration
	// Plan is the approved plan file, slash-separated and relative to the
	// root ("" when there is none). Evidence naming a commit that changes
	// only it and .planls/ fails (NotWork).
	Plan string
}

// Runner runs one command line in dir within timeout and returns its exit
// status and output; err is context.DeadlineExceeded on timeout, or why it
// could not run (shell.Run has this shape).
type Runner func(ctx context.Context, dir, line string, timeout time.Duration) (exit int, output []byte, err error)

// Check is the outcome for one reference of an item's evidence.
type Check struct {
	Ref    core.EvidenceRef
	State  State
	Detail string // what was found, or why it failed or cannot be checked
	// Commit is set for a commit that exists.
	Commit *Commit
	// File is the file a file or test reference resolved to (relative to
	// the root, slash-separated), "" when none.
	File string
	// Line is the 1-based line of File where a test reference's function
	// is declared (0 when not found, and for other references: a file
	// reference's line is Ref.Line).
	Line int
}

// Result is the outcome for one item.
type Result struct {
	TaskID  int
	Subject string
	State   State
	Reason  string // the failed checks' details; for unverifiable, why
	Weak    bool   // the evidence names nothing: core.WeakEvidence, unless it names a commit written as a number
	Checks  []Check
	// Fix is the evidence with each commit a rebase or an amend rewrote
	// replaced by its copy on HEAD (rewrittenEvidence), "" when none was;
	// Reason then ends with the planls todo update command that records it.
	Fix string
}

// PlanItems are the completed plan items of st: the tasks a plan's
// verification checks (planls verify without ids, check, status, the
// stop hook, the report and the language server).
func PlanItems(st *core.State) []core.Task {
	var out []core.Task
	for _, t := range st.Tasks {
		if t.Source == "plan" && t.Status == core.Completed {
			out = append(out, t)
		}
	}
	return out
}

// Tasks verifies the completed tasks among tasks (others are skipped)
// against the workspace at root, in the order given. It never fails as a
// whole: a lookup that cannot run (no git, no repository) makes the
// checks it serves unverifiable, with the reason. ctx bounds every process.
func Tasks(ctx context.Context, root string, tasks []core.Task, opts Options) []Result {
	type pending struct {
		res      Result
		evidence string
		refs     []core.EvidenceRef
		cands    []core.EvidenceRef // core.ParseEvidenceCandidates: commits if the repository has them
	}
	var items []pending
	var commits []string
	needTree := false
	for _, t := range tasks {
		if t.Status != core.Completed {
			continue
		}
		refs, cands := core.ParseEvidenceCandidates(t.Evidence)
		items = append(items, pending{res: Result{TaskID: t.ID, Subject: t.Subject}, evidence: t.Evidence, refs: refs, cands: cands})
		for _, r := range cands {
			commits = append(commits, r.Commit)
		}
		for _, r := range refs {
			switch r.Kind {
			case core.RefCommit:
				commits = append(commits, r.Commit)
			case core.RefTest:
				needTree = true
			case core.RefFile:
				if !strings.ContainsAny(r.Path, `/\`) {
					needTree = true // a bare name may live anywhere
				}
			}
		}
	}
	repo := newRepo(ctx, root)
	found := repo.lookup(commits)
	repo.markEmpty(found)
	repo.markPlanOnly(found, opts.Plan)
	var tree *tree
	if needTree {
		tree = loadTree(ctx, root, repo)
	}
	out := make([]Result, 0, len(items))
	for _, it := range items {
		res := it.res
		refs := withCommits(it.refs, it.cands, found)
		res.Weak = len(refs) == 0
		for _, r := range refs {
			var c Check
			switch r.Kind {
			case core.RefCommit:
				c = commitCheck(r, found[r.Commit], opts.Plan)
			case core.RefFile:
				c = fileCheck(root, tree, r)
			case core.RefTest:
				c = testCheck(root, tree, r)
			case core.RefCommand:
				c = commandCheck(ctx, root, r, opts)
			case core.RefURL:
				c = Check{Ref: r, State: Unverifiable, Detail: "URL " + r.URL + ": not checked (verify works offline)"}
			}
			res.Checks = append(res.Checks, c)
		}
		res.State, res.Reason = summarize(res)
		if res.Fix = rewrittenEvidence(it.evidence, res.Checks); res.Fix != "" {
			res.Reason += "; update the evidence with planls todo update " + strconv.Itoa(res.TaskID) + " --evidence " + shellQuote(res.Fix)
		}
		out = append(out, res)
	}
	return out
}

// withCommits is refs with the candidates that name a commit of the
// repository (one whose id starts with the candidate, so not a branch or
// tag that happens to be spelt like a number), in order of position. A
// candidate that names no commit, or one git cannot tell (ambiguous, no
// repository), stays what it was: no reference.
func withCommits(refs, cands []core.EvidenceRef, found map[string]lookupResult) []core.EvidenceRef {
	out := refs
	for _, c := range cands {
		if lr := found[c.Commit]; lr.commit != nil && strings.HasPrefix(lr.commit.ID, c.Commit) {
			if len(out) == len(refs) {
				out = slices.Clone(refs)
			}
			out = append(out, c)
		}
	}
	if len(out) != len(refs) {
		slices.SortStableFunc(out, func(a, b core.EvidenceRef) int { return a.Start - b.Start })
	}
	return out
}

// summarize is the item's state: failed if any check failed, verified if
// any held, else unverifiable.
func summarize(res Result) (State, string) {
	var failed, unver []string
	verified := false
	for _, c := range res.Checks {
		switch c.State {
		case Failed:
			failed = append(failed, c.Detail)
		case Verified:
			verified = true
		default:
			unver = append(unver, c.Detail)
		}
	}
	switch {
	case len(failed) > 0:
		return Failed, strings.Join(failed, "; ")
	case verified:
		return Verified, ""
	case res.Weak:
		return Unverifiable, "the evidence names nothing checkable (no commit, file, test, command or URL)"
	}
	return Unverifiable, strings.Join(unver, "; ")
}

// Failing reports whether any result failed.
func Failing(results []Result) bool {
	return slices.ContainsFunc(results, func(r Result) bool { return r.State == Failed })
}

// Verdict is r as the analysis reads it (core.Verdict): its state, its
// reason, and what held, each detail once.
func (r Result) Verdict() core.Verdict {
	v := core.Verdict{State: string(r.State), Reason: r.Reason}
	for _, c := range r.Checks {
		if c.State == Verified && !slices.Contains(v.Held, c.Detail) {
			v.Held = append(v.Held, c.Detail)
		}
	}
	return v
}

// Verdicts are the verdicts of results by task id.
func Verdicts(results []Result) map[int]core.Verdict {
	out := make(map[int]core.Verdict, len(results))
	for _, r := range results {
		out[r.TaskID] = r.Verdict()
	}
	return out
}
