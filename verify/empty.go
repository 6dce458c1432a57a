package verify

import (
	"bytes"
	"slices"
	"strings"
)

// markEmpty sets empty on the results whose commit changes no file: its
// tree is the tree of every parent (a commit made with --allow-empty), or,
// for a root commit, the empty tree. A merge counts only when it brings
// nothing from any side, so a merge whose change is the branch it merges
// (or which only keeps its first parent's files, -s ours) is not empty.
// One git process (cat-file --batch-check of the parents' trees) for all
// of them; a commit git cannot answer for stays not empty: verify never
// fails evidence on a lookup that did not run.
func (r *repo) markEmpty(out map[string]lookupResult) {
	var commits []*Commit
	var in bytes.Buffer
	for _, lr := range out {
		c := lr.commit
		if c == nil || c.tree == "" || slices.Contains(commits, c) {
			continue
		}
		commits = append(commits, c)
		if len(c.parents) == 0 {
			in.WriteString(c.tree + "\n")
		}
		for _, p := range c.parents {
			in.WriteString(p + "^{tree}\n")
		}
	}
	if len(commits) == 0 {
		return
	}
	raw, err := r.git(in.Bytes(), "cat-file", "--batch-check=%(objectname) %(objectsize)")
	if err != nil {
		return
	}
	lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	empty := map[*Commit]bool{}
	at := 0
	for _, c := range commits {
		n := max(len(c.parents), 1)
		if at+n > len(lines) {
			return
		}
		answers := lines[at : at+n]
		at += n
		if len(c.parents) == 0 {
			empty[c] = strings.HasSuffix(answers[0], " 0")
			continue
		}
		same := true
		for _, a := range answers {
			oid, _, _ := strings.Cut(a, " ")
			same = same && oid == c.tree
		}
		empty[c] = same
	}
	for id, lr := range out {
		if lr.commit != nil && empty[lr.commit] {
			lr.empty = true
			out[id] = lr
		}
	}
}
