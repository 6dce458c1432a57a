package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/planls/planls/core"
)

// defaultPlan is the plan file at the workspace root when none is named.
const defaultPlan = "PLAN.md"

// newApproveCmd is `planls approve [PLAN.md]`.
func newApproveCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "approve [PLAN.md]",
		Short: "Approve a plan: its top-level bullets become tracked plan items",
		Long: `Approve (or re-approve) a plan file, by default PLAN.md at the workspace root. Each top-level
bullet becomes a plan item that closes only with evidence or a reason. Approving the same content
again changes nothing; approving changed content keeps the ids and progress of unchanged items.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := openStore(cmd)
			if err != nil {
				return err
			}
			path := filepath.Join(st.Root, defaultPlan)
			if len(args) == 1 {
				if path, err = filepath.Abs(args[0]); err != nil {
					return fail(err)
				}
			}
			if _, err := os.Stat(path); err != nil {
				return failf("no plan file %s", displayPath(path, st.Root))
			}
			res, err := st.Approve(path, core.Options{})
			if err != nil {
				return fail(err)
			}
			asJSON, _ := cmd.Flags().GetBool("json")
			if asJSON {
				if err := printJSON(cmd, res.Envelope); err != nil {
					return fail(err)
				}
			}
			for _, n := range res.Notices {
				fmt.Fprintf(cmd.ErrOrStderr(), "%s: %s\n", n.Level, n.Text)
			}
			if res.Envelope.IsError() {
				if !asJSON {
					fmt.Fprintln(cmd.ErrOrStderr(), res.Envelope.Text())
				}
				return silentExit(exitRejected)
			}
			if !asJSON {
				text := res.Envelope.Text()
				if !res.Changed && text == "" {
					text = "Plan already approved: nothing changed"
				}
				fmt.Fprintln(cmd.OutOrStdout(), text)
			}
			return nil
		},
	}
	cmd.Flags().Bool("json", false, "print the tool's JSON envelope instead of its text")
	return cmd
}
