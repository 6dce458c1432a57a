package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/planls/planls/core"
	"github.com/planls/planls/internal/gitclone"
)

// The git side of teams (docs/TEAMS.md): planls asks git through its
// command line, the one interface every git installation has.

// mergeSides finds the commits of the merge git is running in dir: theirs
// and the common ancestor. A merge names theirs in $GITHEAD_<sha> and the
// ancestor is the merge base; a rebase picks the last commit listed in
// rebase-merge/done onto HEAD, against that commit's parent. ok is false
// when neither is found (a cherry-pick, a merge run by other tools).
func mergeSides(dir string) (base, theirs string, ok bool) {
	for _, kv := range os.Environ() {
		if name, _, found := strings.Cut(kv, "="); found && strings.HasPrefix(name, "GITHEAD_") {
			theirs = strings.TrimPrefix(name, "GITHEAD_")
			if b, ok := gitclone.Out(dir, "merge-base", "HEAD", theirs); ok {
				return b, theirs, true
			}
		}
	}
	done, ok := gitclone.Out(dir, "rev-parse", "--git-path", "rebase-merge/done")
	if !ok {
		return "", "", false
	}
	if !filepath.IsAbs(done) {
		done = filepath.Join(dir, done)
	}
	data, err := os.ReadFile(done)
	if err != nil {
		return "", "", false
	}
	var last string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) >= 2 && !strings.HasPrefix(f[0], "#") {
			last = f[1]
		}
	}
	if last == "" {
		return "", "", false
	}
	if b, ok := gitclone.Out(dir, "rev-parse", "--verify", "-q", last+"^"); ok {
		return b, last, true
	}
	return "", "", false
}

// mergedPlanID is the plan id of the plan file at rel (slash-separated,
// relative to dir) as the running merge will leave it: the file of one
// side when the other did not change it, else git's own three-way merge of
// it when that is clean. "" when it cannot be told (no merge found, the
// file's merge conflicts).
func mergedPlanID(dir, rel string) string {
	base, theirs, ok := mergeSides(dir)
	if !ok || rel == "" {
		return ""
	}
	show := func(rev string) []byte {
		out, err := exec.Command("git", "-C", dir, "show", rev+":"+rel).Output()
		if err != nil {
			return nil
		}
		return out
	}
	b, o, t := show(base), show("HEAD"), show(theirs)
	switch {
	case bytes.Equal(o, t), bytes.Equal(t, b):
		return core.PlanID(o)
	case bytes.Equal(o, b):
		return core.PlanID(t)
	}
	tmp, err := os.MkdirTemp("", "planls-merge-")
	if err != nil {
		return ""
	}
	defer os.RemoveAll(tmp)
	files := make([]string, 3)
	for i, data := range [][]byte{o, b, t} {
		files[i] = filepath.Join(tmp, []string{"ours", "base", "theirs"}[i])
		if os.WriteFile(files[i], data, 0o600) != nil {
			return ""
		}
	}
	out, err := exec.Command("git", "merge-file", "-p", files[0], files[1], files[2]).Output()
	if err != nil {
		return "" // conflicts (or no git): no merged text to compare
	}
	return core.PlanID(out)
}
