package main

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/planls/planls/core"
	"github.com/planls/planls/verify"
)

// newCheckCmd is `planls check`: the analysis's findings (core.Analyze),
// for CI and stop hooks.
func newCheckCmd() *cobra.Command {
	var format, hook string
	var strict, withVerify bool
	cmd := &cobra.Command{
		Use:   "check [--format text|json|sarif|github] [--strict] [--verify=false] [--hook claude]",
		Short: "List open plan items, plan drift and the other findings; exit 1 while any item is open or drifted",
		Long: `List what is wrong with the plan, one finding per line where it stands in the plan file now, with
the same rules and messages as the editor's diagnostics:

  PLAN.md:LINE:COL: open plan item #N (pending): subject          (rule open-item)
  PLAN.md:LINE:COL: plan item #N in progress: subject              (rule in-progress)
  PLAN.md:LINE:COL: plan item #N is blocked by #M: subject         (rule blocked)

A plan item closed without its proof (completed without evidence or deferred without a reason, which
only a hand edit of state.json can do) counts as open too (rule closed-without-proof):

  PLAN.md:LINE:COL: plan item #N is completed without evidence (state.json edited by hand?): subject

A plan file that says more than, or other than, what was approved owes an approval (rule plan-drift):
one finding per bullet new or changed since approval, per approved item no longer in the file, per
item moved out of its approved order, and per edit outside the items, on the line that changed (an
item no longer in the file where it used to be: after the item before it, else before the one after it):

  PLAN.md:LINE:COL: not in the approved plan: subject (re-approve the plan to track it)
  PLAN.md:LINE:COL: plan item #N differs from the approved plan: re-approve to track the new text
  PLAN.md:LINE:COL: approved plan item #N is missing from the plan file: subject
  PLAN.md:LINE:COL: plan item #N moved since approval: re-approve to make the new order the plan
  PLAN.md:LINE:1: the plan file changed here since approval, outside its plan items: re-approve ...

A completed plan item whose evidence names nothing checkable (no commit, file, test, command with
its result or URL: "done", "works now") is a warning (rule weak-evidence); it fails the check only
with --strict. So are a ticked box on an open item (checked-not-completed) and a bullet without text
or a repeated one (empty-item, duplicate-item), which never fail it.

check also verifies the completed plan items as planls verify does without --run (git lookups and
file reads, no command run), as the editor does in the background; each one whose evidence fails is
a finding (rule evidence-failed), so a completion that names a commit a rebase dropped, or one that
never existed, fails the check:

  PLAN.md:LINE:COL: plan item #N failed verification: commit abc1234 not found in the repository

--verify=false skips that verification (only the plan file and the state are read).

planls verify reports every completed item in the same formats, with the rules evidence-verified,
evidence-unverifiable (nothing it names can be checked offline) and evidence-failed. A state file
that cannot be read is an error (rule state-invalid in the editor; exit 2 here), and so is running
check before any plan is approved (rule plan-not-approved in the editor).

LINE and COL are 1-based (COL counts bytes, at the list marker); findings about items no longer in
the file come last, at 1:1. The path is relative to the working directory (to the root in sarif and
github output). Exit 0 when nothing fails, 1 while an item is open, closed without proof, or
drifted, or its evidence failed, 2 on error (no plan approved, unreadable state).

Formats: text (above), json ({"plan":...,"findings":[...],"open":[...],"drift":[...],"weak":[...]},
each finding with its rule and level), sarif (SARIF 2.1.0, one rule per finding kind), github
(workflow commands: ::notice for notes such as open items, ::warning and ::error titled with the
rule for the others).

--hook claude runs as a Claude Code Stop hook: it reads the hook's JSON on stdin (input that is not
JSON counts as {}: the working directory) and, unless stop_hook_active is true, prints
{"decision":"block","reason":...} while plan items are open or closed without proof (the plan
reminder, then those items), while the plan file has drifted (the reason tells the agent to ask the
user to re-approve, never to approve itself), while an open item's box is ticked, while a
completed item's evidence fails verification (planls verify without --run, as check does), and
when the project's state cannot be read. It always
exits 0 and prints nothing otherwise, also outside a project and before any plan is approved.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cmd.Flags().Changed("hook") {
				if hook != "claude" {
					return usagef("--hook %q: the supported hook is claude", hook)
				}
				return runClaudeHook(cmd)
			}
			if err := checkFormat(format); err != nil {
				return err
			}
			s, st, err := openState(cmd)
			if err != nil {
				return err
			}
			if st.Plan == nil {
				return failf("no plan approved in %s: run planls approve %s first", s.Root, defaultPlan)
			}
			var verdicts map[int]core.Verdict
			if withVerify {
				verdicts = verify.Verdicts(offlineResults(cmd.Context(), s.Root, st))
			}
			v, err := loadPlanView(s.Root, st, verdicts)
			if err != nil {
				return fail(err)
			}
			// On stderr: stdout is the format's, read by machines.
			for _, w := range []string{s.RestoredWarning(st), s.JournalConflict()} {
				if w != "" {
					fmt.Fprintln(cmd.ErrOrStderr(), "warning: "+w)
				}
			}
			rep := newCheckReport(v)
			rep.strict = strict
			if err := rep.write(cmd, format); err != nil {
				return fail(err)
			}
			if rep.failing() {
				return silentExit(exitRejected)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text, json, sarif or github")
	cmd.Flags().BoolVar(&strict, "strict", false, "fail (exit 1) on weak evidence too")
	cmd.Flags().BoolVar(&withVerify, "verify", true, "verify completed items' evidence (planls verify, without --run); failures are findings (--verify=false skips it)")
	cmd.Flags().StringVar(&hook, "hook", "", "run as an agent hook: claude (Claude Code Stop hook, JSON on stdin)")
	return cmd
}

// checkReport is the analysis's findings with the paths each format
// shows.
type checkReport struct {
	v       *planView
	display string // plan path relative to the working directory (or root)
	rootRel string // plan path relative to the root, slash-separated
	strict  bool   // weak evidence fails the check
	// onlyVerify: planls verify, which shows each completed item's
	// verification (verdicts, by id) and nothing else.
	onlyVerify bool
	verdicts   []verdictLine
}

// failing reports whether check exits 1: a plan item is open (or closed
// without proof), the plan file says something the user did not approve,
// evidence failed verification, or, with --strict, evidence is weak.
func (r *checkReport) failing() bool {
	for _, f := range r.v.an.Findings {
		switch f.Rule {
		case core.RuleOpen, core.RuleInProgress, core.RuleBlocked, core.RuleNoProof, core.RuleDrift, core.RuleFailed:
			return true
		case core.RuleWeak:
			if r.strict {
				return true
			}
		}
	}
	return false
}

func newCheckReport(v *planView) *checkReport {
	rel, err := filepath.Rel(v.root, v.abs)
	if err != nil {
		rel = v.abs
	}
	return &checkReport{v: v, display: displayPath(v.abs, v.root), rootRel: filepath.ToSlash(rel)}
}

// write prints the report in format (checkFormat's).
func (r *checkReport) write(cmd *cobra.Command, format string) error {
	switch format {
	case "json":
		if r.onlyVerify {
			return writeJSON(cmd, r.verifyJSON(), "  ")
		}
		return writeJSON(cmd, r.jsonReport(), "  ")
	case "sarif":
		return writeJSON(cmd, r.sarif(), "  ")
	case "github":
		return r.writeGitHub(cmd.OutOrStdout())
	}
	return r.writeText(cmd.OutOrStdout())
}
