package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/planls/planls/core"
	"github.com/planls/planls/verify"
)

// newVerifyCmd is `planls verify [ids…]`: check what completed items'
// evidence names against the workspace (issue 14).
func newVerifyCmd() *cobra.Command {
	var format string
	var run, trusted bool
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "verify [ids...] [--run [--trust-recorded-commands] [--timeout D]] [--format text|json|sarif|github]",
		Short: "Check the evidence of completed items: commits, files, tests (and commands with --run)",
		Long: `Check what the evidence of each completed plan item (or of the tasks named by id) names, offline:

  commit ids (7-40 hex)      exist and are reachable from HEAD, else from a local branch (named)
  file paths (path:line)     exist in the workspace, and have that line
  test names (TestFoo,       a Go test, benchmark, fuzz or example function of that name exists
    pkg/foo_test.go:TestBar)   (in that file when one is named)
  commands in backticks      re-run only with --run (sh -c in the workspace root, each bounded by
                               --timeout); the exit status must match the stated result
                               ("passes", "ok": 0; "fails": non-zero; "exit 2": 2)

--run first lists every command it would run, with its item, who recorded it (the journal) and
in which commit (git log), and runs them only when you answer y on the terminal; without a
terminal it runs nothing unless --trust-recorded-commands says to (CI). The commands are text
from .planls/state.json, which any branch, merge or agent can change (docs/VERIFY.md).
  URLs                       named, not fetched

Each item is verified (something named holds and nothing failed), unverifiable (nothing named
can be checked offline: weak evidence such as "done", or only URLs or commands not run) or
failed (with the reason). Text output is one line per item:

  PLAN.md:LINE:COL: plan item #N verified: commit 1a2b3c4d5e6f "Add the parser" (2026-11-01) is on HEAD
  PLAN.md:LINE:COL: plan item #N failed verification: file internal/x.go does not exist

then a summary line. Formats: text, json, sarif (rules evidence-failed, evidence-unverifiable),
github (::error for failed items, ::notice for unverifiable ones). Exit 0 when nothing failed,
1 when any item failed, 2 on error (no plan approved, an id that is not a completed task).`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(format); err != nil {
				return err
			}
			if trusted && !run {
				return usagef("--%s only applies with --run", trustFlag)
			}
			var ids []int
			for _, a := range args {
				id, err := strconv.Atoi(strings.TrimPrefix(a, "#"))
				if err != nil || id < 1 {
					return usagef("%q is not a task id (a positive number, like 3 or #3)", a)
				}
				ids = append(ids, id)
			}
			s, st, err := openState(cmd)
			if err != nil {
				return err
			}
			if st.Plan == nil && len(ids) == 0 {
				return failf("no plan approved in %s: run planls approve %s first", s.Root, defaultPlan)
			}
			tasks, err := tasksToVerify(st, ids)
			if err != nil {
				return err
			}
			v, err := loadPlanView(s.Root, st)
			if err != nil {
				return fail(err)
			}
			var runner verify.Runner
			if run {
				if runner, err = commandRunner(cmd, s, tasks, timeout, trusted); err != nil {
					return err
				}
			}
			results := verify.Tasks(cmd.Context(), s.Root, tasks, verify.Options{Runner: runner, Timeout: timeout})
			rep := newVerifyReport(v)
			rep.setVerify(v, st, results, true)
			if err := rep.write(cmd, format); err != nil {
				return fail(err)
			}
			if verify.Failing(results) {
				return silentExit(exitRejected)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text, json, sarif or github")
	cmd.Flags().BoolVar(&run, "run", false, "re-run the backticked commands of the evidence (sh -c in the workspace root), after listing them and asking on the terminal")
	cmd.Flags().BoolVar(&trusted, trustFlag, false, "with --run: run the listed commands without asking (CI); you trust whoever could change .planls/state.json on this branch")
	cmd.Flags().DurationVar(&timeout, "timeout", verify.DefaultTimeout, "bound on each command re-run with --run")
	return cmd
}

// tasksToVerify is the completed plan items, or the tasks ids names (each
// must exist and be completed: nothing else has evidence).
func tasksToVerify(st *core.State, ids []int) ([]core.Task, error) {
	if len(ids) == 0 {
		var out []core.Task
		for _, t := range st.Tasks {
			if t.Source == "plan" && t.Status == core.Completed {
				out = append(out, t)
			}
		}
		return out, nil
	}
	byID := tasksByID(st)
	var out []core.Task
	for _, id := range ids {
		t, ok := byID[id]
		switch {
		case !ok:
			return nil, failf("#%d not found", id)
		case t.Status != core.Completed:
			return nil, failf("#%d is %s: only a completed task has evidence to verify", id, t.Status)
		}
		out = append(out, t)
	}
	return out, nil
}

// checkFormat refuses an unknown --format.
func checkFormat(format string) error {
	switch format {
	case "text", "json", "sarif", "github":
		return nil
	}
	return usagef("--format %q: use text, json, sarif or github", format)
}

// verifyFinding is one item's verification where the item stands in the
// plan file (Line 0: not in it, or not a plan item).
type verifyFinding struct {
	Result    verify.Result
	Line, Col int
	plan      bool   // a plan item (else an agent todo named by id)
	evidence  string // the item's evidence
}

// Rule ids of verification findings and of the weak-evidence warning.
const (
	ruleVerified     = "evidence-verified"
	ruleFailed       = "evidence-failed"
	ruleUnverifiable = "evidence-unverifiable"
	ruleWeak         = core.WeakEvidenceCode
)

func (f verifyFinding) rule() string {
	switch f.Result.State {
	case verify.Failed:
		return ruleFailed
	case verify.Unverifiable:
		return ruleUnverifiable
	}
	return ruleVerified
}

// message is the finding's text in every format.
func (f verifyFinding) message() string {
	r := f.Result
	switch r.State {
	case verify.Failed:
		return fmt.Sprintf("plan item #%d failed verification: %s", r.TaskID, r.Reason)
	case verify.Unverifiable:
		return fmt.Sprintf("plan item #%d evidence is unverifiable: %s", r.TaskID, r.Reason)
	}
	var held []string
	for _, c := range r.Checks {
		if c.State == verify.Verified && !slices.Contains(held, c.Detail) {
			held = append(held, c.Detail)
		}
	}
	return fmt.Sprintf("plan item #%d verified: %s", r.TaskID, strings.Join(held, "; "))
}

// setVerify adds verification results to the report, placed at their
// items; all keeps verified and unverifiable items (verify shows every
// item, check --verify only failures).
func (r *checkReport) setVerify(v *planView, st *core.State, results []verify.Result, all bool) {
	r.verifying = true
	where := map[int][2]int{}
	for _, o := range v.planItems(func(t core.Task) bool { return t.Status == core.Completed }) {
		where[o.Task.ID] = [2]int{o.Line, o.Col}
	}
	byID := tasksByID(st)
	for _, res := range results {
		r.counts[res.State]++
		if !all && res.State != verify.Failed {
			continue
		}
		pos := where[res.TaskID]
		t := byID[res.TaskID]
		r.verified = append(r.verified, verifyFinding{Result: res, Line: pos[0], Col: pos[1],
			plan: t.Source == "plan", evidence: t.Evidence})
	}
}

// weakItems are the completed plan items whose evidence names nothing
// checkable, where they stand in the plan file.
func (v *planView) weakItems() []openItem {
	return v.planItems(func(t core.Task) bool { return t.Status == core.Completed && core.WeakEvidence(t.Evidence) })
}

// verifyContext bounds the verification check --verify and the stop hook
// run: no command runs there, only git lookups.
func verifyContext(cmd *cobra.Command) (context.Context, context.CancelFunc) {
	return context.WithTimeout(cmd.Context(), 30*time.Second)
}

// newVerifyReport is the report planls verify prints: only verification.
func newVerifyReport(v *planView) *checkReport {
	r := newCheckReport(v)
	r.items, r.drift, r.weak, r.onlyVerify = nil, nil, nil, true
	return r
}

// ghCommand is the workflow command of each level.
var ghCommand = map[string]string{"note": "notice", "warning": "warning", "error": "error"}

// verifySummary is the last line of planls verify's text.
func (r *checkReport) verifySummary() string {
	n := r.counts[verify.Verified] + r.counts[verify.Unverifiable] + r.counts[verify.Failed]
	if n == 0 {
		return "verify: no completed item to verify"
	}
	return fmt.Sprintf("verify: %d verified, %d unverifiable, %d failed", r.counts[verify.Verified],
		r.counts[verify.Unverifiable], r.counts[verify.Failed])
}

// jsonVerify is one item's verification in json output.
type jsonVerify struct {
	ID       int            `json:"id"`
	Subject  string         `json:"subject"`
	Evidence string         `json:"evidence"`
	State    string         `json:"state"` // verified, unverifiable or failed
	Reason   string         `json:"reason,omitempty"`
	Weak     bool           `json:"weak"`
	Path     string         `json:"path"`   // the plan file, relative to the root
	Line     int            `json:"line"`   // 1-based; 0 when not in the plan file
	Column   int            `json:"column"` // 1-based, bytes; 0 when not in the plan file
	Message  string         `json:"message"`
	Rule     string         `json:"rule"`
	Checks   []jsonRefCheck `json:"checks"`
}

// jsonRefCheck is one reference of the evidence and its outcome.
type jsonRefCheck struct {
	Kind   string         `json:"kind"` // commit, file, test, command, url
	Text   string         `json:"text"` // as written in the evidence
	State  string         `json:"state"`
	Detail string         `json:"detail"`
	File   string         `json:"file,omitempty"` // the file it resolved to, relative to the root
	Line   int            `json:"line,omitempty"`
	Commit *verify.Commit `json:"commit,omitempty"`
}

func (r *checkReport) jsonVerifyItems() []jsonVerify {
	out := []jsonVerify{}
	for _, f := range r.verified {
		res := f.Result
		jv := jsonVerify{ID: res.TaskID, Subject: res.Subject, Evidence: f.evidence, State: string(res.State),
			Reason: res.Reason, Weak: res.Weak, Path: r.rootRel, Line: f.Line, Column: f.Col,
			Message: f.message(), Rule: f.rule(), Checks: []jsonRefCheck{}}
		for _, c := range res.Checks {
			jv.Checks = append(jv.Checks, jsonRefCheck{Kind: string(c.Ref.Kind), Text: c.Ref.Text, State: string(c.State),
				Detail: c.Detail, File: c.File, Line: c.Ref.Line, Commit: c.Commit})
		}
		out = append(out, jv)
	}
	return out
}

// jsonVerifyReport is planls verify --format json.
type jsonVerifyReport struct {
	Plan    jsonPlan     `json:"plan"`
	Items   []jsonVerify `json:"items"`
	Summary struct {
		Verified     int `json:"verified"`
		Unverifiable int `json:"unverifiable"`
		Failed       int `json:"failed"`
	} `json:"summary"`
}

func (r *checkReport) verifyJSON() jsonVerifyReport {
	out := jsonVerifyReport{Plan: r.jsonPlan()}
	out.Items = r.jsonVerifyItems()
	out.Summary.Verified = r.counts[verify.Verified]
	out.Summary.Unverifiable = r.counts[verify.Unverifiable]
	out.Summary.Failed = r.counts[verify.Failed]
	return out
}

// printWeak is status's line per completed plan item with weak evidence.
func printWeak(out io.Writer, v *planView) {
	weak := v.weakItems()
	if len(weak) == 0 {
		return
	}
	fmt.Fprintf(out, "Weak evidence (%s): names nothing checkable; record a commit, file, test or command with its result:\n", ruleWeak)
	for _, o := range weak {
		fmt.Fprintf(out, "  #%d %s: evidence %s\n", o.Task.ID, term(o.Task.Subject), strconv.Quote(term(o.Task.Evidence)))
	}
}

// hookVerify is the stop hook's part on evidence: the completed plan items
// whose evidence fails verification (no command is run), or "".
func hookVerify(cmd *cobra.Command, root string, st *core.State) string {
	tasks, _ := tasksToVerify(st, nil)
	if len(tasks) == 0 {
		return ""
	}
	ctx, cancel := verifyContext(cmd)
	defer cancel()
	var lines []string
	for _, r := range verify.Tasks(ctx, root, tasks, verify.Options{}) {
		if r.State == verify.Failed {
			lines = append(lines, fmt.Sprintf("- #%d %s: %s", r.TaskID, term(r.Subject), r.Reason))
		}
	}
	if len(lines) == 0 {
		return ""
	}
	return "Completed plan items whose evidence fails verification (planls verify); the work they claim is not " +
		"shown to be there. Fix the work, or record evidence that holds with planls todo update N --evidence ...:\n" +
		strings.Join(lines, "\n") + "\n"
}
