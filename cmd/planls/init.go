package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/planls/planls/internal/gitclone"
	"github.com/planls/planls/store"
)

// newInitCmd is `planls init`.
func newInitCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "init",
		Short: "Set up git merging of .planls/ for a team: .gitattributes and this clone's merge driver",
		Long: `Make git merge .planls/state.json and .planls/journal.jsonl with planls merge instead of as
text (docs/TEAMS.md): add the two merge=planls lines to .gitattributes at the workspace root
(commit it, so every clone merges the same way), and register the driver in this clone's git
config (merge.planls.driver; git keeps it out of the repository, so every clone runs planls init
once). Running it again changes nothing. The first planls approve in a git clone runs it too.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			root, err := findRoot(cmd)
			if err != nil {
				return err
			}
			lines, err := gitclone.SetUpMerging(root)
			for _, l := range lines {
				fmt.Fprintln(cmd.OutOrStdout(), l)
			}
			if err != nil {
				return fail(err)
			}
			return nil
		},
	}
}

// reportMergeSetup prints doctor's lines about git merging of .planls/:
// the driver's set-up, and .planls/ files git holds as conflicted with
// how to repair them; after a rebuild (rebuilt) that repaired them, only
// that git still needs telling. It is false when something needs attention
// (exit 1): a clone lacking the driver .gitattributes asks for, or a
// conflict.
func reportMergeSetup(cmd *cobra.Command, root string, rebuilt bool) bool {
	out := cmd.OutOrStdout()
	ok, warn, msg := gitclone.MergeSetup(root)
	switch {
	case warn:
		fmt.Fprintln(out, "warning: "+msg)
	case msg != "":
		fmt.Fprintln(out, msg)
	}
	conflicted, _ := gitclone.Out(root, "diff", "--name-only", "--diff-filter=U", "--", store.DirName)
	if conflicted == "" {
		return !warn
	}
	files := strings.Fields(conflicted)
	switch {
	case rebuilt:
		fmt.Fprintf(out, "rebuilt: git still holds %s as conflicted; mark them resolved: git add %s\n", strings.Join(files, " and "), store.DirName)
	default:
		fmt.Fprintf(out, "warning: git holds %s as conflicted (merged without the planls driver, or a merge it could not finish)\n", strings.Join(files, " and "))
		fmt.Fprintln(out, "repair: planls doctor --rebuild --move-aside merges both sides from the journal, keeping the conflicted files as *.corrupt-<time>; then git add "+store.DirName)
	}
	if len(files) == 2 && !rebuilt {
		redo := "git checkout -m -- " + strings.Join(files, " ")
		if !ok {
			redo = "planls init, then " + redo
		}
		fmt.Fprintln(out, "or: "+redo+" merges them again with the driver; then git add "+store.DirName)
	}
	if !ok {
		fmt.Fprintln(out, "next time: planls init sets the merge driver up, so git merges .planls/ by task id")
	}
	return false
}

// firstApproval reports whether s has no approved plan yet.
func firstApproval(s *store.Store) bool {
	st, err := s.Read()
	return err == nil && st.Plan == nil
}

// initNotice runs planls init after a git clone's first approval, when the
// clone is not set up yet (gitclone.SetUpIfNeeded, as the language
// server's approval does), and says so on stderr.
func initNotice(cmd *cobra.Command, root string) {
	lines, ran, err := gitclone.SetUpIfNeeded(root)
	if !ran {
		return
	}
	errw := cmd.ErrOrStderr()
	if err != nil {
		fmt.Fprintln(errw, "notice: planls init (git merging of .planls/) failed: "+err.Error())
		return
	}
	fmt.Fprintln(errw, "notice: "+gitclone.FirstApprovalNotice)
	for _, l := range lines {
		fmt.Fprintln(errw, "notice: "+l)
	}
}
