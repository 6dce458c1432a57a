package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/planls/planls/store"
)

// The merge driver's name in .gitattributes and git config.
const driverName = "planls"

// gitattributesLines route both .planls files through the driver. A pattern
// with a slash is relative to the .gitattributes file, written at the root.
var gitattributesLines = []string{
	store.DirName + "/" + store.StateName + " merge=" + driverName,
	store.DirName + "/" + store.JournalName + " merge=" + driverName,
}

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
			lines, err := setUpMerging(root)
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

// setUpMerging writes the .gitattributes lines and registers the driver in
// root's clone, saying what it did (or that all was in place). Outside a
// git work tree only .gitattributes is written, with a line saying so.
func setUpMerging(root string) ([]string, error) {
	var out []string
	added, err := ensureGitattributes(root)
	if err != nil {
		return nil, err
	}
	if added {
		out = append(out, "wrote .gitattributes: git merges .planls/state.json and .planls/journal.jsonl with planls (commit it, so every clone does)")
	} else {
		out = append(out, ".gitattributes: already routes .planls/ to the planls merge driver")
	}
	if gitTopLevel(root) == "" {
		return append(out, "not a git work tree: no merge driver registered; run planls init in each clone"), nil
	}
	want := driverCommand()
	if cur, _ := gitOut(root, "config", "--get", "merge."+driverName+".driver"); cur == want {
		return append(out, "merge driver: already registered in this clone ("+want+")"), nil
	}
	for _, kv := range [][2]string{
		{"merge." + driverName + ".name", "planls: three-way merge of .planls state and journal by task id"},
		{"merge." + driverName + ".driver", want},
	} {
		if msg, err := exec.Command("git", "-C", root, "config", kv[0], kv[1]).CombinedOutput(); err != nil {
			return out, fmt.Errorf("git config %s: %v: %s", kv[0], err, strings.TrimSpace(string(msg)))
		}
	}
	return append(out, "merge driver: registered in this clone's git config (merge."+driverName+".driver = "+want+")"), nil
}

// ensureGitattributes adds the missing driver lines to root/.gitattributes,
// keeping everything else in it; added is false when both were there.
func ensureGitattributes(root string) (added bool, err error) {
	path := filepath.Join(root, ".gitattributes")
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return false, err
	}
	have := map[string]bool{}
	for _, l := range strings.Split(string(old), "\n") {
		have[strings.Join(strings.Fields(l), " ")] = true
	}
	body := string(old)
	for _, l := range gitattributesLines {
		if have[l] {
			continue
		}
		if body != "" && !strings.HasSuffix(body, "\n") {
			body += "\n"
		}
		if !added {
			body += "# planls: merge the plan state by task id (planls init, docs/TEAMS.md)\n"
		}
		body += l + "\n"
		added = true
	}
	if !added {
		return false, nil
	}
	return true, os.WriteFile(path, []byte(body), 0o644)
}

// driverCommand is the driver line for git: `planls merge %O %A %B %P`
// when the planls on PATH is this binary, else this binary's absolute
// path, quoted for the shell git runs it with.
func driverCommand() string {
	exe, err := os.Executable()
	if err == nil {
		exe, _ = filepath.EvalSymlinks(exe)
	}
	name := "planls"
	if onPath, lerr := exec.LookPath("planls"); err == nil && (lerr != nil || !sameFile(onPath, exe)) {
		name = shellQuote(filepath.ToSlash(exe))
	}
	return name + " merge %O %A %B %P"
}

func sameFile(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// mergeSetupStatus tells how root's clone merges .planls/: ok when both
// files go to a registered driver; else advice naming planls init, with
// warn set when .gitattributes asks for the driver but this clone has none
// (git then merges the files as text, silently). Outside git: ok.
func mergeSetupStatus(root string) (ok, warn bool, msg string) {
	if gitTopLevel(root) == "" {
		return true, false, ""
	}
	attrs, _ := gitOut(root, "check-attr", "merge", "--", store.DirName+"/"+store.StateName, store.DirName+"/"+store.JournalName)
	routed := strings.Count(attrs, ": merge: "+driverName) == 2
	driver, _ := gitOut(root, "config", "--get", "merge."+driverName+".driver")
	switch {
	case routed && driver != "":
		return true, false, "merge driver: set up (" + driver + ")"
	case routed:
		return false, true, "this clone lacks the planls merge driver .gitattributes asks for: git would merge .planls/ as text and can lose changes; run planls init"
	}
	return false, false, "merge driver: not set up: git merges .planls/ as text, and a merge of two branches' changes conflicts; run planls init (then commit .gitattributes)"
}

// reportMergeSetup prints doctor's lines about git merging of .planls/:
// the driver's set-up, and .planls/ files git holds as conflicted with
// how to repair them; after a rebuild (rebuilt) that repaired them, only
// that git still needs telling. It is false when something needs attention
// (exit 1): a clone lacking the driver .gitattributes asks for, or a
// conflict.
func reportMergeSetup(cmd *cobra.Command, root string, rebuilt bool) bool {
	out := cmd.OutOrStdout()
	ok, warn, msg := mergeSetupStatus(root)
	switch {
	case warn:
		fmt.Fprintln(out, "warning: "+msg)
	case msg != "":
		fmt.Fprintln(out, msg)
	}
	conflicted, _ := gitOut(root, "diff", "--name-only", "--diff-filter=U", "--", store.DirName)
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
// clone is not set up yet, and says so on stderr: from then on the plan's
// state is shared through git, and merges must not lose its changes.
func initNotice(cmd *cobra.Command, root string) {
	if ok, _, _ := mergeSetupStatus(root); ok {
		return
	}
	errw := cmd.ErrOrStderr()
	lines, err := setUpMerging(root)
	if err != nil {
		fmt.Fprintln(errw, "notice: planls init (git merging of .planls/) failed: "+err.Error())
		return
	}
	fmt.Fprintln(errw, "notice: first approval in this clone: ran planls init so git merges .planls/ by task id (docs/TEAMS.md)")
	for _, l := range lines {
		fmt.Fprintln(errw, "notice: "+l)
	}
}
