package gitclone

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/planls/planls/store"
)

// DriverName is the merge driver's name in .gitattributes and git config.
const DriverName = "planls"

// attributesLines route both .planls files through the driver. A pattern
// with a slash is relative to the .gitattributes file, written at the root.
var attributesLines = []string{
	store.DirName + "/" + store.StateName + " merge=" + DriverName,
	store.DirName + "/" + store.JournalName + " merge=" + DriverName,
}

// TopLevel is the work tree root holding dir, or "" outside a git work
// tree. A dir with a .git entry of its own that git does not take as a
// repository (git then looks further up) is outside: planls set-up must
// never land in some enclosing repository.
func TopLevel(dir string) string {
	top, ok := Out(dir, "rev-parse", "--show-toplevel")
	if !ok {
		return ""
	}
	top = filepath.FromSlash(top)
	if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil && !SameFile(top, dir) {
		return ""
	}
	return top
}

// SetUpMerging is `planls init`: it writes the .gitattributes lines at
// root and registers the driver in root's clone, and returns one line per
// step saying what it did (or that all was in place). Outside a git work
// tree only .gitattributes is written, with a line saying so. The error is
// an I/O or git config failure; the lines before it are returned with it.
func SetUpMerging(root string) ([]string, error) {
	var out []string
	added, err := ensureAttributes(root)
	if err != nil {
		return nil, err
	}
	if added {
		out = append(out, "wrote .gitattributes: git merges .planls/state.json and .planls/journal.jsonl with planls (commit it, so every clone does)")
	} else {
		out = append(out, ".gitattributes: already routes .planls/ to the planls merge driver")
	}
	if TopLevel(root) == "" {
		return append(out, "not a git work tree: no merge driver registered; run planls init in each clone"), nil
	}
	want := DriverCommand()
	if cur, _ := Out(root, "config", "--get", "merge."+DriverName+".driver"); cur == want {
		return append(out, "merge driver: already registered in this clone ("+want+")"), nil
	}
	for _, kv := range [][2]string{
		{"merge." + DriverName + ".name", "planls: three-way merge of .planls state and journal by task id"},
		{"merge." + DriverName + ".driver", want},
	} {
		if msg, err := exec.Command("git", "-C", root, "config", kv[0], kv[1]).CombinedOutput(); err != nil {
			return out, fmt.Errorf("git config %s: %v: %s", kv[0], err, strings.TrimSpace(string(msg)))
		}
	}
	return append(out, "merge driver: registered in this clone's git config (merge."+DriverName+".driver = "+want+")"), nil
}

// ensureAttributes adds the missing driver lines to root/.gitattributes,
// keeping everything else in it; added is false when both were there.
func ensureAttributes(root string) (added bool, err error) {
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
	for _, l := range attributesLines {
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

// DriverCommand is the driver line for git: `planls merge %O %A %B %P`
// when the planls on PATH is this binary, else this binary's absolute
// path, quoted for the shell git runs it with.
func DriverCommand() string {
	exe, err := os.Executable()
	if err == nil {
		exe, _ = filepath.EvalSymlinks(exe)
	}
	name := "planls"
	if onPath, lerr := exec.LookPath("planls"); err == nil && (lerr != nil || !SameFile(onPath, exe)) {
		name = ShellQuote(filepath.ToSlash(exe))
	}
	return name + " merge %O %A %B %P"
}

// SameFile reports whether paths a and b name one existing file.
func SameFile(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// ShellQuote writes s so a POSIX shell reads it back as one word.
func ShellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_-./:=,@+%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// MergeSetup tells how root's clone merges .planls/: ok when both files go
// to a registered driver; else advice naming planls init, with warn set
// when .gitattributes asks for the driver but this clone has none (git
// then merges the files as text, silently). Outside git: ok.
func MergeSetup(root string) (ok, warn bool, msg string) {
	if TopLevel(root) == "" {
		return true, false, ""
	}
	attrs, _ := Out(root, "check-attr", "merge", "--", store.DirName+"/"+store.StateName, store.DirName+"/"+store.JournalName)
	routed := strings.Count(attrs, ": merge: "+DriverName) == 2
	driver, _ := Out(root, "config", "--get", "merge."+DriverName+".driver")
	switch {
	case routed && driver != "":
		return true, false, "merge driver: set up (" + driver + ")"
	case routed:
		return false, true, "this clone lacks the planls merge driver .gitattributes asks for: git would merge .planls/ as text and can lose changes; run planls init"
	}
	return false, false, "merge driver: not set up: git merges .planls/ as text, and a merge of two branches' changes conflicts; run planls init (then commit .gitattributes)"
}

// SetUpIfNeeded is what a first approval runs, from any client: SetUpMerging
// when root is in a git work tree whose clone does not merge .planls/ with
// the driver yet. ran is false when nothing needed doing (set up already,
// or no git work tree); lines and err are SetUpMerging's.
func SetUpIfNeeded(root string) (lines []string, ran bool, err error) {
	if ok, _, _ := MergeSetup(root); ok {
		return nil, false, nil
	}
	lines, err = SetUpMerging(root)
	return lines, true, err
}

// FirstApprovalNotice is the one sentence a person is told after a first
// approval set up merging (SetUpIfNeeded ran): from then on the plan's
// state is shared through git, and merges must not lose its changes.
const FirstApprovalNotice = "first approval in this clone: ran planls init so git merges .planls/ by task id (docs/TEAMS.md)"

// FirstApprovalNote runs SetUpIfNeeded after a first approval and returns
// the one line the user and an agent are told: "planls: " and
// FirstApprovalNotice with what changed in the clone (the .gitattributes to
// commit), or with why it failed (failed true); "" when nothing needed doing.
func FirstApprovalNote(root string) (note string, failed bool) {
	lines, ran, err := SetUpIfNeeded(root)
	switch {
	case !ran:
		return "", false
	case err != nil:
		return "planls: " + FirstApprovalNotice + ", which failed: " + err.Error() + "; run planls init in a shell", true
	}
	return "planls: " + FirstApprovalNotice + ": " + strings.Join(lines, "; "), false
}
