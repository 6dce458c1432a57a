package store

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"

	"github.com/planls/planls/core"
)

// A journal merged by git without the planls driver (or resolved by hand
// as a union) holds two branches' entries one after the other, with the
// same revisions twice. ReadJournal keeps only the first; the tree below
// keeps every entry and knows which state each one was applied to, so a
// rebuild can merge the branches instead of dropping one ("doctor
// --rebuild keeps branch A's completion and silently drops branch B's").

// mergeParams are the params of a journal entry of kind "merge": the
// revisions of the common ancestor and of the two tips it joined (theirs's
// as renumbered in this journal), and theirs's task ids that were
// renumbered, old id (as a string: JSON object keys) to new id.
type mergeParams struct {
	Base       int64          `json:"base"`
	Ours       int64          `json:"ours"`
	Theirs     int64          `json:"theirs"`
	Renumbered map[string]int `json:"renumbered,omitempty"`
}

// journalTree is every parsable entry of a journal in file order with the
// entries each one was applied to (parents: none for the first entry or one
// whose base is nowhere earlier, two for a merge).
type journalTree struct {
	entries []JournalEntry
	parents [][]int
	// markers are the 1-based lines holding git conflict markers.
	markers []int
	// fork, when set, is the state at which the branches of heads a and b
	// parted when this journal holds no entry of both (each branch sealed
	// its share of their common history away); nil when unknown.
	fork func(a, b int) *core.State
}

// isConflictMarker reports a line git writes around a conflict.
func isConflictMarker(line []byte) bool {
	line = bytes.TrimRight(line, "\r\n")
	return bytes.HasPrefix(line, []byte("<<<<<<<")) || bytes.HasPrefix(line, []byte("|||||||")) ||
		bytes.HasPrefix(line, []byte(">>>>>>>")) || len(line) >= 7 && len(bytes.Trim(line, "=")) == 0
}

// readTree reads a journal: every line that parses as an entry, whatever
// its revision, with conflict-marker lines skipped (git's conflict block
// holds both sides' lines, which is the union a rebuild needs).
func readTree(r io.Reader) (*journalTree, error) {
	jt := &journalTree{}
	br := bufio.NewReader(r)
	seen := map[string]bool{}
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		key := string(bytes.TrimRight(line, "\r\n"))
		if isConflictMarker(line) {
			jt.markers = append(jt.markers, n)
		} else if len(bytes.TrimSpace(line)) > 0 && !seen[key] { // a line twice is one change
			seen[key] = true
			var e JournalEntry
			if json.Unmarshal(line, &e) == nil {
				e.line = n
				jt.entries = append(jt.entries, e)
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	jt.link()
	return jt, nil
}

// link finds each entry's parents: the latest earlier entry whose revision
// is its base (or, when no earlier entry has that revision, the entry just
// before it, as Replay applies it), and for a merge also theirs's tip.
func (jt *journalTree) link() {
	jt.parents = make([][]int, len(jt.entries))
	lastAt := map[int64]int{}
	for i, e := range jt.entries {
		if e.Kind == kindSnapshot {
			// A tail's first entry after a seal: it restates its branch's
			// state, whose history is in the sealed file, not here. Its
			// revision may be one the other branch used too.
			lastAt[e.Revision] = i
			continue
		}
		if p, ok := lastAt[e.Base]; ok && e.Base > 0 {
			jt.parents[i] = append(jt.parents[i], p)
		} else if i > 0 && e.Base > 0 {
			jt.parents[i] = append(jt.parents[i], i-1)
		}
		if mp, ok := e.merge(); ok {
			if p, ok := lastAt[mp.Theirs]; ok {
				jt.parents[i] = append(jt.parents[i], p)
			}
		}
		lastAt[e.Revision] = i
	}
}

// merge returns the params of a merge entry.
func (e *JournalEntry) merge() (mergeParams, bool) {
	var mp mergeParams
	if e.Kind != kindMerge || json.Unmarshal(e.Params, &mp) != nil {
		return mp, false
	}
	return mp, true
}

// heads are the tips of the journal's branches, in file order: the last
// entry of each run of rising revisions (a new run starts where a revision
// does not rise, or at a seal's snapshot: a second branch's entries pasted
// after the first's) that no later entry was applied to. As for Replay, a
// full snapshot supersedes every line before it, so only entries from the
// last one on count; a seal's snapshot does not, since the lines before it
// in a journal merged as text are the other branch's. A clean journal has
// one head, its last entry.
func (jt *journalTree) heads() []int {
	child := make([]bool, len(jt.entries))
	for _, ps := range jt.parents {
		for _, p := range ps {
			child[p] = true
		}
	}
	start := 0
	for i := len(jt.entries) - 1; i > 0; i-- {
		if jt.entries[i].Full && jt.entries[i].Kind != kindSnapshot {
			start = i
			break
		}
	}
	var out []int
	for i := start; i < len(jt.entries); i++ {
		runEnd := i == len(jt.entries)-1 || jt.entries[i+1].Revision <= jt.entries[i].Revision || jt.entries[i+1].Kind == kindSnapshot
		if runEnd && !child[i] {
			out = append(out, i)
		}
	}
	return out
}

// state is the state after entry i: replayed from the nearest full
// snapshot (or the start) along first parents.
func (jt *journalTree) state(i int) *core.State {
	var chain []int
	for j := i; ; {
		chain = append(chain, j)
		if jt.entries[j].Full || len(jt.parents[j]) == 0 {
			break
		}
		j = jt.parents[j][0]
	}
	st := core.Empty()
	for k := len(chain) - 1; k >= 0; k-- {
		e := jt.entries[chain[k]]
		e.apply(st)
	}
	return st
}

// ancestors are i and every entry it descends from.
func (jt *journalTree) ancestors(i int) map[int]bool {
	seen := map[int]bool{}
	stack := []int{i}
	for len(stack) > 0 {
		j := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[j] {
			continue
		}
		seen[j] = true
		stack = append(stack, jt.parents[j]...)
	}
	return seen
}

// commonAncestor is the latest entry (in file order) both a and b descend
// from, or -1 when they share none.
func (jt *journalTree) commonAncestor(a, b int) int {
	in := jt.ancestors(a)
	best := -1
	for j := range jt.ancestors(b) {
		if in[j] && j > best {
			best = j
		}
	}
	return best
}

// merged is the journal's state with every branch merged: the single
// head's state, or the heads folded in file order with core.Merge over
// their common ancestor. It returns the merges' results (none for a single
// branch). An empty journal gives the empty state.
func (jt *journalTree) merged() (*core.State, []branchMerge) {
	hs := jt.heads()
	if len(hs) == 0 {
		return core.Empty(), nil
	}
	cur := jt.state(hs[0])
	var out []branchMerge
	for _, h := range hs[1:] {
		var base *core.State
		if a := jt.commonAncestor(hs[0], h); a >= 0 {
			base = jt.state(a)
		} else if jt.fork != nil {
			base = jt.fork(hs[0], h)
		}
		theirs := jt.state(h)
		res := core.Merge(base, cur, theirs, core.MergeOptions{})
		out = append(out, branchMerge{res: res, base: revOf(base), ours: cur.Revision, theirs: theirs.Revision})
		cur = res.State
	}
	if len(out) > 0 {
		// Revisions after a fork repeat; the merge comes after all of them.
		top := int64(0)
		for _, e := range jt.entries {
			top = max(top, e.Revision)
		}
		cur.Revision = max(cur.Revision, top+1)
	}
	return cur, out
}

// branchMerge is one core.Merge a rebuild made, with the revisions it joined.
type branchMerge struct {
	res                core.MergeResult
	base, ours, theirs int64
}

func revOf(st *core.State) int64 {
	if st == nil {
		return 0
	}
	return st.Revision
}

// linkSeals gives each seal's snapshot without a parent the entry it was
// sealed after when that entry is in this journal too: the latest earlier
// entry that its sealed segment (read by open, a path relative to
// DirName, uncompressed) also holds. In a journal merged as text from a
// branch that sealed since the fork, that is the fork point, the common
// ancestor a rebuild merges the branches over. A segment that cannot be
// read leaves the snapshot without a parent (the branches then merge as
// if created apart).
func (jt *journalTree) linkSeals(open func(name string) ([]byte, error)) {
	for i, e := range jt.entries {
		if e.Kind != kindSnapshot || len(jt.parents[i]) > 0 || i == 0 {
			continue
		}
		var sp sealParams
		if json.Unmarshal(e.Params, &sp) != nil || sp.Sealed == "" {
			continue
		}
		data, err := open(sp.Sealed)
		if err != nil {
			continue
		}
		keys := map[string]bool{}
		for _, l := range journalLines(data) {
			if se, ok := parseEntry(l); ok {
				keys[se.key()] = true
			}
		}
		for j := i - 1; j >= 0; j-- {
			if keys[jt.entries[j].key()] {
				jt.parents[i] = []int{j}
				break
			}
		}
	}
}
