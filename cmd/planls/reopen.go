package main

import (
	"time"

	"github.com/spf13/cobra"

	"github.com/planls/planls/core"
	"github.com/planls/planls/internal/gitclone"
)

// runReopen is `planls todo reopen N --reason R`: a person's correction
// (core.ReopenOp), journaled with who made it. p are the sugar's tool
// params (id, reason, status pending).
func runReopen(cmd *cobra.Command, p map[string]any) error {
	for _, f := range []string{"expected-version", "client-mutation-id"} {
		if cmd.Flags().Changed(f) {
			return usagef("reopen --reason is a person's correction, not a todo tool call: it takes no --%s", f)
		}
	}
	id, _ := p["id"].(int)
	reason, _ := p["reason"].(string)
	s, err := openStore(cmd)
	if err != nil {
		return err
	}
	res, err := s.Reopen(cmd.Context(), core.ReopenOp{ID: id, Reason: reason, By: gitclone.Person(s.Root)}, core.Options{Zone: time.Local})
	if err != nil {
		return fail(err)
	}
	return printResult(cmd, res, "")
}
