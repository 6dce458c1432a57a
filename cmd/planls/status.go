package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/planls/planls/core"
	"github.com/planls/planls/store"
	"github.com/planls/planls/verify"
)

// newStatusCmd is `planls status`: where the project stands.
func newStatusCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "status",
		Short: "Show the approved plan, the project id, open plan items and drift",
		Long: `Show the workspace root and project id, the approved plan, its open plan items (pending and
in_progress), the completed ones whose evidence fails verification (planls verify without --run: a
commit a rebase dropped, a file that is gone), those whose evidence is weak, and drift: bullets of the
plan file that changed, appeared or disappeared since approval. Reads only; creates nothing.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, st, err := openState(cmd)
			if err != nil {
				return err
			}
			warnings, _ := s.Check()
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "Project: %s (id %s)\n", s.Root, store.ProjectID(s.Root))
			if st.Plan == nil {
				fmt.Fprintf(out, "No plan approved (run planls approve %s)\n", defaultPlan)
				printWarnings(out, warnings)
				return nil
			}
			v, err := loadPlanView(s.Root, st, verify.Verdicts(offlineResults(cmd.Context(), s.Root, st)))
			if err != nil {
				return fail(err)
			}
			open := v.openItems()
			fmt.Fprintf(out, "Plan: %s -- %d/%d plan items open\n", core.NoControls(core.PlanLabel(st.Plan.Title)), len(open), v.an.Total)
			fmt.Fprintf(out, "  file %s, approved %s, revision %d\n", displayPath(v.abs, s.Root), st.Plan.ApprovedAt.UTC().Format(time.RFC3339), st.Revision)
			for _, it := range open {
				fmt.Fprintf(out, "  #%d [%s] %s\n", it.Task.ID, it.Task.Status, core.NoControls(it.TaskSubject))
			}
			printFailed(out, v)
			printWeak(out, v)
			printDrift(out, v)
			printWarnings(out, warnings)
			return nil
		},
	}
}

// printDrift reports the plan-drift findings: how the plan file differs
// from the approved plan.
func printDrift(out io.Writer, v *planView) {
	name := displayPath(v.abs, v.root)
	if !v.an.Exists {
		fmt.Fprintf(out, "Drift: %s is missing\n", name)
		return
	}
	var lines []string
	for _, f := range v.an.Findings {
		if f.Rule != core.RuleDrift {
			continue
		}
		if line := v.line(f); line > 0 {
			lines = append(lines, fmt.Sprintf("  line %d: %s", line, core.NoControls(f.Message)))
		} else {
			lines = append(lines, "  "+core.NoControls(f.Message))
		}
	}
	if len(lines) == 0 {
		if v.an.NeedsReapproval {
			fmt.Fprintf(out, "Drift: none in the items (%s was edited elsewhere since approval)\n", name)
		} else {
			fmt.Fprintf(out, "Drift: none (%s is the approved plan)\n", name)
		}
		return
	}
	fmt.Fprintf(out, "Drift: %s changed since approval (re-approve with planls approve):\n%s\n", name, strings.Join(lines, "\n"))
}

func printWarnings(out io.Writer, warnings []string) {
	for _, w := range warnings {
		fmt.Fprintf(out, "warning: %s\n", w)
	}
}
