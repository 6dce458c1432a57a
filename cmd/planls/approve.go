package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/planls/planls/core"
	"github.com/planls/planls/store"
)

// defaultPlan is the plan file at the workspace root when none is named.
const defaultPlan = "PLAN.md"

// newApproveCmd is `planls approve [PLAN.md]`.
func newApproveCmd() *cobra.Command {
	var force, replace, dry bool
	cmd := &cobra.Command{
		Use:   "approve [PLAN.md]",
		Short: "Approve a plan: each piece of work in it becomes a tracked plan item",
		Long: `Approve (or re-approve) a plan file, by default PLAN.md at the workspace root. Each piece of
work in it (a task bullet, a checkbox, a numbered step, a task heading; context sections are
skipped) becomes a plan item that closes only with evidence or a reason. Approving the same content
again changes nothing; approving changed content keeps the ids and progress of unchanged items.
An item whose text changed becomes a new pending item; a note names every completed, deferred or
in-progress item removed that way (without guessing which new item replaced it), and every task
that no longer waits on one.

A relative PLAN.md is looked up in the working directory, then at the workspace root. A file
outside the workspace root is refused, so is a file that is not UTF-8 text, and so is a plan in
which planls finds nothing to track (--force approves it anyway; over an approved plan that
removes every plan item, and a note lists the open ones). A plan file other than the approved one
that would remove approved items is refused too, saying which plan is approved and what would go.
--replace approves it anyway, as the plan chosen on purpose in place of the approved one (an
agent's plan the user accepted): the items it lacks are tombstoned, and a note names each
completed, deferred or in-progress one. Unlike --force, --replace still refuses a plan with
nothing to track; --force allows both. Outside a git work tree and a .planls/ directory, the
working directory is the workspace root, as an editor's folder is. The result names the sections
that gave no items and why. --dry-run prints what would be tracked and skipped, and approves nothing.
docs/PLAN-FORMAT.md says how a plan is read and how <!-- planls: skip --> and
<!-- planls: track --> under a heading change it.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := approveStore(cmd, dry)
			if err != nil {
				return err
			}
			path := filepath.Join(st.Root, defaultPlan)
			if len(args) == 1 {
				if path, err = resolvePlan(args[0], st.Root); err != nil {
					return err
				}
			}
			if _, err := os.Stat(path); err != nil {
				return failf("no plan file %s", displayPath(path, st.Root))
			}
			if dry {
				return dryRun(cmd.OutOrStdout(), st, path, force, replace)
			}
			first := firstApproval(st)
			res, err := st.Approve(cmd.Context(), path, core.Options{}, store.ApproveOptions{Force: force, Replace: replace})
			if err != nil {
				return fail(err)
			}
			if err := printResult(cmd, res, "Plan already approved: nothing changed"); err != nil {
				return err
			}
			if first && res.Changed {
				initNotice(cmd, st.Root)
			}
			return nil
		},
	}
	cmd.Flags().Bool("json", false, "print the tool's JSON envelope instead of its text")
	cmd.Flags().BoolVar(&force, "force", false, "approve a plan with no items (nothing planls reads as work, or removing every plan item), or one that replaces the approved plan file")
	cmd.Flags().BoolVar(&replace, "replace", false, "approve a plan file other than the approved one even though it drops some of its items (a plan with no items is still refused; --force allows that too)")
	cmd.Flags().BoolVar(&dry, "dry-run", false, "print what would be tracked, grouped by heading with line numbers, and the sections skipped and why; approve nothing")
	return cmd
}

// resolvePlan finds a plan file named on the command line: an absolute
// name as is; a relative one in the working directory first, then at the
// workspace root (so `planls approve PLAN.md` works from a subdirectory).
// Not found in either place is an exit-2 error naming both.
func resolvePlan(name, root string) (string, error) {
	if filepath.IsAbs(name) {
		return filepath.Clean(name), nil
	}
	here, err := filepath.Abs(name)
	if err != nil {
		return "", fail(err)
	}
	if _, err := os.Stat(here); err == nil {
		return here, nil
	}
	atRoot := filepath.Join(root, name)
	if _, err := os.Stat(atRoot); err == nil {
		return atRoot, nil
	}
	if atRoot == here {
		return "", failf("no plan file %s", displayPath(here, root))
	}
	return "", failf("no plan file %s (looked in the working directory: %s, and at the workspace root: %s)", name, filepath.ToSlash(here), filepath.ToSlash(atRoot))
}

// approveStore is the store approve writes to: the workspace root's, or,
// when no root is found (no --root, $PLANLS_ROOT, .planls/ or .git here or
// above), the working directory's, as an editor approves in the folder it
// has open; a notice on stderr says where the state goes. Every later
// command run there finds the .planls/ it creates.
func approveStore(cmd *cobra.Command, dry bool) (*store.Store, error) {
	st, err := openStore(cmd)
	if _, none := errors.AsType[*store.NoRootError](err); !none {
		return st, err
	}
	wd, werr := os.Getwd()
	if werr != nil {
		return nil, fail(werr)
	}
	verb := "approving here, the state goes to"
	if dry {
		verb = "an approval here keeps its state in"
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "notice: no .planls/ or .git in %s or above: %s %s\n",
		filepath.ToSlash(wd), verb, filepath.ToSlash(filepath.Join(wd, store.DirName)))
	return store.Open(wd, actor), nil
}
