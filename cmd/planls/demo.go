package main

import (
	"context"
	_ "embed"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/planls/planls/internal/demo"
	"github.com/planls/planls/planparse"
)

// demoName is how the demo's messages name its plan.
func demoName(args []string) string {
	if len(args) == 1 {
		return args[0]
	}
	return "the built-in example plan"
}

// demoPlan is examples/basic/PLAN.md, embedded so `planls demo` works from
// any directory (go:embed cannot reach ../../examples, so the copy lives here
// and a test keeps it equal to the example).
//
//go:embed demo_plan.md
var demoPlan []byte

// newDemoCmd is `planls demo [PLAN.md]`: a real LSP session against
// `planls serve` started as a child process (this same executable). It exits
// 0 when the session behaved as expected, non-zero otherwise.
func newDemoCmd() *cobra.Command {
	var evidence string
	cmd := &cobra.Command{
		Use:          "demo [PLAN.md]",
		Short:        "Show what the language server reports for a plan",
		Args:         cobra.MaximumNArgs(1),
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			plan := demoPlan
			if len(args) == 1 {
				b, err := os.ReadFile(args[0])
				if err != nil {
					return fmt.Errorf("demo: %w", err)
				}
				plan = b
			}
			// Refuse before the session: its first diagnostic would offer to
			// "track its 0 items", and approving such a plan tracks nothing.
			if len(planparse.Parse(plan).Items) == 0 {
				return fmt.Errorf("demo: %s has no plan items (top-level bullets under a heading), so there is nothing to approve or track", demoName(args))
			}
			exe, err := os.Executable()
			if err != nil {
				return fmt.Errorf("demo: cannot find this executable: %w", err)
			}
			ctx, stop := demoSignals(cmd.Context())
			defer stop()
			return demo.Demo(ctx, demo.Options{
				Plan: plan, Server: []string{exe, "serve"},
				Out: cmd.OutOrStdout(), Stderr: os.Stderr, Evidence: evidence,
			})
		},
	}
	cmd.Flags().StringVar(&evidence, "evidence", "", "evidence used to complete the first item")
	return cmd
}

// demoSignals keeps the demo alive to remove its temp workspace: with
// SIGPIPE ignored, a write to a closed stdout (`planls demo | head`) fails
// with EPIPE instead of killing the process, and an interrupt or SIGTERM
// cancels the returned context (ending the session) instead of exiting at
// once. stop undoes both.
func demoSignals(parent context.Context) (context.Context, func()) {
	signal.Ignore(syscall.SIGPIPE)
	ctx, stop := signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
	return ctx, func() {
		stop()
		signal.Reset(syscall.SIGPIPE)
	}
}
