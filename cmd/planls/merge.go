package main

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/planls/planls/store"
)

// newMergeCmd is `planls merge ANCESTOR CURRENT OTHER [PATH]`: the git merge
// driver of .planls/state.json and .planls/journal.jsonl (docs/TEAMS.md).
func newMergeCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "merge ANCESTOR CURRENT OTHER [PATH]",
		Short: "Git merge driver for .planls/state.json and .planls/journal.jsonl (set up by planls init)",
		Long: `Merge three versions of a planls state file or journal the way git asks a merge driver to
(git config merge.planls.driver "planls merge %O %A %B %P", which planls init sets): ANCESTOR is
the common ancestor's version, CURRENT ours (the result is written over it), OTHER theirs, PATH
the file's path in the repository (it tells a state file from a journal; without it, CURRENT's
name does).

Tasks merge by id, field by field; no completion, evidence, reason or note is dropped; tasks
created on both branches with the same id are renumbered on theirs; the journal keeps both
branches' entries and ends with a merge entry. Every decision worth knowing is printed (once,
for the state file). The rules are in docs/TEAMS.md.

Exit 0: merged. Exit 1: merged, but both branches approved a different plan and the merged plan
file matches neither: the file holds a valid state with ours's approval, and git marks it
conflicted until planls approve has approved the merged plan and the file is added. Exit 2: a
side cannot be read (for example it holds conflict markers); CURRENT is left as it was.`,
		Args: cobra.RangeArgs(3, 4),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := filepath.ToSlash(args[1])
			if len(args) == 4 {
				name = filepath.ToSlash(args[3])
			}
			var data [3][]byte
			for i, p := range args[:3] {
				b, err := os.ReadFile(p)
				if err != nil {
					return failf("planls merge: %v", err)
				}
				data[i] = b
			}
			wd, _ := os.Getwd()
			// PATH is relative to the repository, where git runs drivers;
			// the plan path in a state is relative to the .planls root.
			root := path.Dir(path.Dir(name))
			planID := func(plan string) string { return mergedPlanID(wd, path.Join(root, plan)) }
			var out *store.MergeOutcome
			var err error
			switch path.Base(name) {
			case store.JournalName:
				out, err = store.MergeJournalFiles(data[0], data[1], data[2], planID, time.Now())
			case store.StateName:
				out, err = store.MergeStateFiles(name, data[0], data[1], data[2], planID)
			default:
				return failf("planls merge: %s is neither %s nor %s", name, store.StateName, store.JournalName)
			}
			stderr := cmd.ErrOrStderr()
			if err != nil {
				fmt.Fprintf(stderr, "planls merge: %s: %v\n", name, err)
				fmt.Fprintf(stderr, "planls merge: %s is left as ours's version and marked conflicted; see planls doctor\n", name)
				return silentExit(exitError)
			}
			if err := os.WriteFile(args[1], out.Data, 0o644); err != nil {
				return failf("planls merge: %v", err)
			}
			if path.Base(name) == store.StateName {
				for _, line := range strings.Split(store.MergeSummary(out.Result), "\n") {
					fmt.Fprintf(stderr, "planls merge: %s\n", line)
				}
			}
			if out.Result.Conflict != "" {
				if path.Base(name) == store.StateName {
					fmt.Fprintln(stderr, "planls merge: after the merge: planls approve, then git add .planls")
				}
				return silentExit(exitRejected)
			}
			return nil
		},
	}
}
