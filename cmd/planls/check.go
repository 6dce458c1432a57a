package main

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/planls/planls/core"
	"github.com/planls/planls/verify"
)

// newCheckCmd is `planls check`: the open plan items and the plan drift, for
// CI and stop hooks.
func newCheckCmd() *cobra.Command {
	var format, hook string
	var strict, withVerify bool
	cmd := &cobra.Command{
		Use:   "check [--format text|json|sarif|github] [--strict] [--verify] [--hook claude]",
		Short: "List open plan items and plan drift; exit 1 while any is found",
		Long: `List every open (pending or in_progress) plan item where it stands in the plan file now:

  PLAN.md:LINE:COL: open plan item #N (pending): subject

A plan item closed without its proof (completed without evidence or deferred without a reason, which
only a hand edit of state.json can do) counts as open too:

  PLAN.md:LINE:COL: plan item #N is completed without evidence (state.json edited by hand?): subject

A plan file that says more than, or other than, what was approved owes an approval (rule plan-drift),
one finding per bullet new or changed since approval, as planls status shows them:

  PLAN.md:LINE:COL: not in the approved plan (re-approve with planls approve): subject
  PLAN.md:LINE:COL: plan item #N changed since approval (re-approve with planls approve): subject

An approved item no longer in the file adds no drift finding (while open it is reported as open).

A completed plan item whose evidence names nothing checkable (no commit, file, test, command with
its result or URL: "done", "works now") is a warning (rule weak-evidence); it fails the check only
with --strict:

  PLAN.md:LINE:COL: plan item #N is completed with weak evidence "done": it names no commit, ...

--verify also runs planls verify (without --run) on the completed plan items; each one that fails
is a finding (rule evidence-failed):

  PLAN.md:LINE:COL: plan item #N failed verification: commit abc1234 not found in the repository

LINE and COL are 1-based (COL counts bytes, at the list marker); the path is relative to the working
directory (to the root in sarif and github output). Exit 0 when nothing is found, 1 while any finding
is, 2 on error (no plan approved, unreadable state).

Formats: text (above), json ({"plan":...,"open":[...],"drift":[...]}, each finding with its rule),
sarif (SARIF 2.1.0, rules open-item, closed-without-proof and plan-drift), github (workflow commands:
::notice file=...,line=...,col=...::... for open items, ::warning with title=closed-without-proof or
title=plan-drift for the others).

--hook claude runs as a Claude Code Stop hook: it reads the hook's JSON on stdin (input that is not
JSON counts as {}: the working directory) and, unless stop_hook_active is true, prints
{"decision":"block","reason":...} while plan items are open or closed without proof (the plan
reminder, then those items), while the plan file has drifted (the reason tells the agent to ask the
user to re-approve, never to approve itself) and when the project's state cannot be read. It always
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
			v, err := loadPlanView(s.Root, st)
			if err != nil {
				return fail(err)
			}
			// On stderr: stdout is the format's, read by machines.
			if w := s.JournalConflict(); w != "" {
				fmt.Fprintln(cmd.ErrOrStderr(), "warning: "+w)
			}
			rep := newCheckReport(v)
			rep.strict = strict
			if withVerify {
				ctx, cancel := verifyContext(cmd)
				tasks, _ := tasksToVerify(st, nil)
				rep.setVerify(v, st, verify.Tasks(ctx, s.Root, tasks, verify.Options{}), false)
				cancel()
			}
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
	cmd.Flags().BoolVar(&withVerify, "verify", false, "also verify completed items' evidence (planls verify, without --run); failures are findings")
	cmd.Flags().StringVar(&hook, "hook", "", "run as an agent hook: claude (Claude Code Stop hook, JSON on stdin)")
	return cmd
}

// checkReport is the findings (open items, items closed without proof,
// drift) with the paths each format shows.
type checkReport struct {
	planTitle string
	planID    string
	display   string // plan path relative to the working directory (or root)
	rootRel   string // plan path relative to the root, slash-separated
	items     []openItem
	drift     []driftItem // bullets new or changed since approval, in file order
	missing   bool        // the plan file does not exist
	weak      []openItem  // completed items with weak evidence, in file order
	strict    bool        // weak evidence fails the check
	// Verification (planls verify, check --verify): the findings to show,
	// and how many items ended in each state.
	verifying  bool
	onlyVerify bool // planls verify: every item's outcome, nothing else
	verified   []verifyFinding
	counts     map[verify.State]int
}

// failing reports whether check exits 1: a plan item is open (or closed
// without proof), or the plan file says something the user did not approve.
func (r *checkReport) failing() bool {
	return len(r.items) > 0 || len(r.drift) > 0 || (r.strict && len(r.weak) > 0) || r.counts[verify.Failed] > 0
}

func newCheckReport(v *planView) *checkReport {
	rel, err := filepath.Rel(v.root, v.abs)
	if err != nil {
		rel = v.abs
	}
	return &checkReport{
		planTitle: v.st.Plan.Title,
		planID:    v.st.Plan.ID,
		display:   displayPath(v.abs, v.root),
		rootRel:   filepath.ToSlash(rel),
		items:     append(v.openItems(), v.unprovenItems()...),
		drift:     v.driftItems(),
		missing:   !v.exists,
		weak:      v.weakItems(),
		counts:    map[verify.State]int{},
	}
}

// write prints the report in format (checkFormat's).
func (r *checkReport) write(cmd *cobra.Command, format string) error {
	switch format {
	case "json":
		if r.onlyVerify {
			return printJSON(cmd, r.verifyJSON())
		}
		return printJSON(cmd, r.jsonReport())
	case "sarif":
		return printJSON(cmd, r.sarif())
	case "github":
		return r.writeGitHub(cmd.OutOrStdout())
	}
	return r.writeText(cmd.OutOrStdout())
}

// Rule ids of check's findings (SARIF ruleId, json rule, github title).
const (
	ruleOpenItem = "open-item"
	ruleUnproven = "closed-without-proof"
	ruleDrift    = "plan-drift"
)

// rule is the id of the finding o is.
func (o openItem) rule() string {
	if o.Unproven {
		return ruleUnproven
	}
	return ruleOpenItem
}

// message is the diagnostic text shared by every format (and PROTOCOL.md's
// open-item diagnostic).
func (o openItem) message() string {
	if o.Unproven {
		return fmt.Sprintf("plan item #%d is %s (state.json edited by hand?): %s", o.Task.ID, missingProof(o.Task), subjectOf(o.Task))
	}
	return fmt.Sprintf("open plan item #%d (%s): %s", o.Task.ID, o.Task.Status, subjectOf(o.Task))
}

// missingProof says which proof a hand-closed task lacks.
func missingProof(t core.Task) string {
	if t.Status == core.Deferred {
		return "deferred without a reason"
	}
	return "completed without evidence"
}

// position is where to point for an item: its list marker, or the start of
// the file (gone) when the item is no longer in it (line 0).
func position(line, col int) (int, int, bool) {
	if line == 0 {
		return 1, 1, true
	}
	return line, col, false
}

func (r *checkReport) suffix(gone bool) string {
	if !gone {
		return ""
	}
	if r.missing {
		return " (the plan file is missing)"
	}
	return " (no longer in the plan file; re-approve it with planls approve)"
}
