package main

import (
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
// evidence names against the workspace.
func newVerifyCmd() *cobra.Command {
	var format string
	var run, trusted bool
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "verify [ids...] [--run [--trust-recorded-commands] [--timeout D]] [--format text|json|sarif|github]",
		Short: "Check the evidence of completed items: commits, files, tests (and commands with --run)",
		Long: `Check what the evidence of each completed plan item (or of the tasks named by id) names, offline:

  commit ids (7-40 hex)      exist and are reachable from HEAD, else from a local branch (named),
                               and change more than the plan file and .planls/
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
			var runner verify.Runner
			if run {
				if runner, err = commandRunner(cmd, s, tasks, timeout, trusted); err != nil {
					return err
				}
			}
			results := verify.Tasks(cmd.Context(), s.Root, tasks, verify.Options{Runner: runner, Timeout: timeout, Plan: st.PlanPath()})
			v, err := loadPlanView(s.Root, st, nil)
			if err != nil {
				return fail(err)
			}
			rep := newVerifyReport(v, results)
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

// tasksToVerify is the completed plan items (verify.PlanItems), or the
// tasks ids names (each must exist and be completed: nothing else has
// evidence).
func tasksToVerify(st *core.State, ids []int) ([]core.Task, error) {
	if len(ids) == 0 {
		return verify.PlanItems(st), nil
	}
	var out []core.Task
	for _, id := range ids {
		i := slices.IndexFunc(st.Tasks, func(t core.Task) bool { return t.ID == id })
		switch {
		case i < 0:
			return nil, failf("#%d not found", id)
		case st.Tasks[i].Status != core.Completed:
			return nil, failf("#%d is %s: only a completed task has evidence to verify", id, st.Tasks[i].Status)
		}
		out = append(out, st.Tasks[i])
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

// verdictLine is one item's verification where the item stands in the
// plan file (line 0: not in it, or not a plan item).
type verdictLine struct {
	rule, msg string
	line, col int
	id        int
	res       verify.Result
	evidence  string // the item's evidence
}

// newVerifyReport is the report planls verify prints: each result's
// verdict (core.VerdictMessage), at its item.
func newVerifyReport(v *planView, results []verify.Result) *checkReport {
	r := newCheckReport(v)
	r.onlyVerify = true
	for _, res := range results {
		d := verdictLine{id: res.TaskID, res: res}
		d.rule, d.msg = core.VerdictMessage(res.TaskID, res.Verdict())
		if it := v.an.ItemOf(res.TaskID); it != nil && it.Plan != nil {
			d.line, d.col = v.lines.LineCol(it.Plan.Line.Start)
		}
		if t := v.an.Task(res.TaskID); t != nil {
			d.evidence = t.Evidence
		}
		r.verdicts = append(r.verdicts, d)
	}
	return r
}

// ghCommand is the workflow command of each level.
var ghCommand = map[string]string{"note": "notice", "warning": "warning", "error": "error"}

// verifyCounts counts the verdicts by state.
func (r *checkReport) verifyCounts() (verified, unverifiable, failed int) {
	for _, d := range r.verdicts {
		switch d.res.State {
		case verify.Verified:
			verified++
		case verify.Unverifiable:
			unverifiable++
		case verify.Failed:
			failed++
		}
	}
	return verified, unverifiable, failed
}

// verifySummary is the last line of planls verify's text.
func (r *checkReport) verifySummary() string {
	if len(r.verdicts) == 0 {
		return "verify: no completed item to verify"
	}
	v, u, f := r.verifyCounts()
	return fmt.Sprintf("verify: %d verified, %d unverifiable, %d failed", v, u, f)
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
	out := jsonVerifyReport{Plan: r.jsonPlan(), Items: []jsonVerify{}}
	for _, d := range r.verdicts {
		res := d.res
		jv := jsonVerify{ID: res.TaskID, Subject: res.Subject, Evidence: d.evidence, State: string(res.State),
			Reason: res.Reason, Weak: res.Weak, Path: r.rootRel, Line: d.line, Column: d.col,
			Message: d.msg, Rule: d.rule, Checks: []jsonRefCheck{}}
		for _, c := range res.Checks {
			jv.Checks = append(jv.Checks, jsonRefCheck{Kind: string(c.Ref.Kind), Text: c.Ref.Text, State: string(c.State),
				Detail: c.Detail, File: c.File, Line: c.Ref.Line, Commit: c.Commit})
		}
		out.Items = append(out.Items, jv)
	}
	out.Summary.Verified, out.Summary.Unverifiable, out.Summary.Failed = r.verifyCounts()
	return out
}

// printFailed is status's line per evidence-failed finding: the
// completed plan item and why its evidence does not hold.
func printFailed(out io.Writer, v *planView) {
	lines := findingLines(v, core.RuleFailed, func(_ int, msg string) string { return "  " + msg })
	if len(lines) == 0 {
		return
	}
	fmt.Fprintf(out, "Failed verification (%s): fix the work, or record evidence that holds with planls todo update N --evidence ...:\n%s\n",
		core.RuleFailed, strings.Join(lines, "\n"))
}

// printWeak is status's line per weak-evidence finding.
func printWeak(out io.Writer, v *planView) {
	header := false
	for _, f := range v.an.Findings {
		if f.Rule != core.RuleWeak {
			continue
		}
		if !header {
			fmt.Fprintf(out, "Weak evidence (%s): names nothing checkable; record a commit, file, test or command with its result:\n", core.RuleWeak)
			header = true
		}
		it := v.an.Items[f.Item]
		// As people read it: no markdown, and no second colon after one
		// that ends a lead-in ("Read limits from config.yaml:").
		fmt.Fprintf(out, "  #%d %s: evidence %s\n", it.Task.ID, core.NoControls(strings.TrimRight(it.TaskSubject, ": ")), strconv.Quote(core.NoControls(it.Task.Evidence)))
	}
}
