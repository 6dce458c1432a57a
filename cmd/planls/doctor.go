package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

// newDoctorCmd is `planls doctor [--rebuild] [--move-aside]`.
func newDoctorCmd() *cobra.Command {
	var rebuild, moveAside, keepState bool
	cmd := &cobra.Command{
		Use:   "doctor [--rebuild] [--move-aside] [--keep-state]",
		Short: "Check the state file and the journal; rebuild the state from the journal",
		Long: `Check .planls/state.json (errors and warnings such as dangling blockedBy or cycles) and
.planls/journal.jsonl. Without flags nothing is changed.

--rebuild replays the journal (from its last full snapshot) and writes the result when there is
no state file. A state file that is missing while the journal has entries stops every command
until it is rebuilt, so nothing starts over at #1. Replacing an
existing state file (damaged, or different from the journal) also needs --move-aside, which first
renames it to state.json.corrupt-<time>; nothing is ever deleted. --move-aside alone moves a damaged
state file aside (the state is then empty until rebuilt).

A state file older than the journal (an older copy put back, as by git checkout .planls/state.json)
refuses every change, since a change would drop the journal's newer ones from the state: either
--rebuild --move-aside brings back the journal's state (the older copy is kept aside), or --keep-state
makes the older copy the state (the journal keeps the newer entries, before a snapshot of it).

Exit 0 when all is well (or the repair succeeded); 1 when the state is usable but needs attention
(warnings such as a dangling blockedBy or a cycle, a task closed without its proof, a state
file older than the journal's last revision, damaged journal lines); 2 when the state file is
unusable or a repair was refused.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, err := openStore(cmd)
			if err != nil {
				return err
			}
			if keepState {
				if rebuild || moveAside {
					return usagef("--keep-state keeps the state file as it is: it does not go with --rebuild or --move-aside")
				}
				note, err := s.KeepState(cmd.Context())
				if err != nil {
					return fail(err)
				}
				fmt.Fprintln(cmd.OutOrStdout(), note)
				return nil
			}
			rep, err := s.Doctor(cmd.Context(), rebuild, moveAside)
			out := cmd.OutOrStdout()
			if rep != nil {
				for _, n := range rep.Notes {
					fmt.Fprintln(out, n)
				}
			}
			if err != nil {
				return fail(err)
			}
			setupOK := reportMergeSetup(cmd, s.Root, rep.Rebuilt)
			if rep.Rebuilt || (rep.MovedAside != "" && !rebuild) {
				return nil
			}
			switch {
			case rep.StateErr != nil:
				if !rebuild && !moveAside {
					if r := stateRepair(rep.StateErr); r != "" {
						fmt.Fprintln(cmd.ErrOrStderr(), "hint: "+r)
					}
				}
				return silentExit(exitError)
			case !rep.OK() || !setupOK:
				return silentExit(exitRejected)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&rebuild, "rebuild", false, "rebuild the state from the journal")
	cmd.Flags().BoolVar(&keepState, "keep-state", false, "make a state file older than the journal (restored from a copy) the state, journaled as a snapshot")
	cmd.Flags().BoolVar(&moveAside, "move-aside", false, "move a damaged or replaced state file to state.json.corrupt-<time> (never deleted)")
	return cmd
}
