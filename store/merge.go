package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/planls/planls/core"
)

// kindMerge is the journal kind of an entry that joins two branches.
const kindMerge = "merge"

// MergeOutcome is what a file merge produced: the merged bytes, the state
// they hold (for the journal: the state its merge entry records) and
// core.Merge's decisions.
type MergeOutcome struct {
	Data   []byte
	Result core.MergeResult
}

// MergeStateFiles is the three-way merge of three versions of
// .planls/state.json (git's %O, %A and %B: the common ancestor, ours and
// theirs): each is decoded and validated as Read does (an empty base is
// the empty state: the file was added on both branches), merged with
// core.Merge and encoded as the store writes state files. A side that
// cannot be decoded (conflict markers, bad JSON) is an error and nothing
// is produced: the caller leaves the file as it is. path names the file
// in the errors. planID, when not nil, answers MergeOptions.PlanID for
// the plan file at a path relative to the workspace root; it is asked
// only when both branches approved a different plan.
func MergeStateFiles(path string, base, ours, theirs []byte, planID func(path string) string) (*MergeOutcome, error) {
	var sts [3]*core.State
	for i, side := range []struct {
		name string
		data []byte
	}{{"the common ancestor", base}, {"ours", ours}, {"theirs", theirs}} {
		if i == 0 && len(bytes.TrimSpace(side.data)) == 0 {
			sts[i] = core.Empty()
			continue
		}
		st, err := decodeState(path, side.data)
		if err != nil {
			return nil, fmt.Errorf("%s of %s: %w", side.name, path, err)
		}
		sts[i] = st
	}
	res := core.Merge(sts[0], sts[1], sts[2], planOptions(sts[1], sts[2], planID))
	data, err := encodeState(res.State)
	if err != nil {
		return nil, err
	}
	return &MergeOutcome{Data: data, Result: res}, nil
}

// MergeJournalFiles is the three-way merge of three versions of
// .planls/journal.jsonl. The result is ours's lines, then theirs's lines
// that neither ours nor the common ancestor has (matched by entryKey, so a
// line an earlier rebase step copied with a new revision is not copied
// twice) with their revisions moved after ours's last (so revisions keep
// rising; an entry's base is moved with them when it is one of theirs's,
// or becomes ours's revision of the same entry), then one entry of kind
// "merge": a full snapshot of the
// merge of the three journals' states (the same core.Merge of the same
// states MergeStateFiles makes, so state.json and the journal agree), with
// params {"base","ours","theirs","renumbered"} and the merge's notes as its
// result. Lines are kept byte for byte except theirs's renumbered ones;
// conflict-marker lines are dropped. now stamps the merge entry; planID is
// as for MergeStateFiles.
func MergeJournalFiles(base, ours, theirs []byte, planID func(path string) string, now time.Time) (*MergeOutcome, error) {
	var trees [3]*journalTree
	for i, data := range [][]byte{base, ours, theirs} {
		jt, err := readTree(bytes.NewReader(data))
		if err != nil {
			return nil, err
		}
		trees[i] = jt
	}
	baseSt, _ := trees[0].merged()
	oursSt, _ := trees[1].merged()
	theirsSt, _ := trees[2].merged()
	res := core.Merge(baseSt, oursSt, theirsSt, planOptions(oursSt, theirsSt, planID))

	var out bytes.Buffer
	// An entry is the same change wherever it is: a line another merge or
	// rebase step copied has its revision moved, so lines are matched by
	// entryKey, not byte for byte.
	oursRev := map[string]int64{} // key → ours's revision of the entry
	for _, line := range journalLines(ours) {
		if e, ok := parseEntry(line); ok {
			oursRev[e.key()] = e.Revision
		}
		out.Write(line)
		out.WriteByte('\n')
	}
	inBase := map[string]bool{}
	for _, line := range journalLines(base) {
		if e, ok := parseEntry(line); ok {
			inBase[e.key()] = true
		}
	}
	// Theirs's own lines (not in the common ancestor's journal, whose
	// lines ours holds or has sealed away, nor in ours's) follow, their
	// revisions moved past ours's. A base that is one of ours's entries
	// becomes its revision there.
	shift := oursSt.Revision - baseSt.Revision
	moved := map[int64]int64{} // theirs's revision → the merged journal's
	for _, line := range journalLines(theirs) {
		e, ok := parseEntry(line)
		if !ok {
			continue // not an entry: nothing a replay could use
		}
		k := e.key()
		if r, ok := oursRev[k]; ok {
			moved[e.Revision] = r
			continue
		}
		if inBase[k] {
			continue
		}
		oursRev[k] = -1 // a line twice in theirs is one change
		rev, b := e.Revision, e.Base
		if shift > 0 && e.Revision > baseSt.Revision {
			e.Revision += shift
		}
		if r, ok := moved[e.Base]; ok {
			e.Base = r
		} else if shift > 0 && e.Base > baseSt.Revision {
			e.Base += shift
		}
		moved[rev] = e.Revision
		if e.Revision != rev || e.Base != b {
			b, err := marshal(e, "")
			if err != nil {
				return nil, err
			}
			line = bytes.TrimRight(b, "\n")
		}
		out.Write(line)
		out.WriteByte('\n')
	}
	entry, err := mergeEntry(res, baseSt.Revision, oursSt.Revision, theirsSt.Revision+max(shift, 0), now)
	if err != nil {
		return nil, err
	}
	b, err := marshal(entry, "")
	if err != nil {
		return nil, err
	}
	out.Write(b)
	return &MergeOutcome{Data: out.Bytes(), Result: res}, nil
}

// planOptions asks planID for the merged plan file only when both sides
// hold a different approval, the one case core.Merge needs it.
func planOptions(ours, theirs *core.State, planID func(string) string) core.MergeOptions {
	if planID == nil || ours.Plan == nil || theirs.Plan == nil || ours.Plan.ID == theirs.Plan.ID {
		return core.MergeOptions{}
	}
	path := ours.Plan.Path
	if path == "" {
		path = theirs.Plan.Path
	}
	if path == "" {
		path = "PLAN.md"
	}
	return core.MergeOptions{PlanID: planID(path)}
}

// journalLines are the non-blank lines of a journal without their line
// ends, conflict markers left out.
func journalLines(data []byte) [][]byte {
	var out [][]byte
	for _, l := range bytes.Split(data, []byte("\n")) {
		l = bytes.TrimRight(l, "\r")
		if len(bytes.TrimSpace(l)) == 0 || isConflictMarker(l) {
			continue
		}
		out = append(out, l)
	}
	return out
}

// mergeEntry is the journal entry of a merge: a full snapshot of the merged
// state at its revision, applied to ours's tip.
func mergeEntry(res core.MergeResult, base, ours, theirs int64, now time.Time) (JournalEntry, error) {
	st := res.State
	e, err := newEntry(&core.State{Revision: ours}, st, true)
	if err != nil {
		return e, err
	}
	mp := mergeParams{Base: base, Ours: ours, Theirs: theirs}
	if len(res.Renumbered) > 0 {
		mp.Renumbered = map[string]int{}
		for old, n := range res.Renumbered {
			mp.Renumbered[strconv.Itoa(old)] = n
		}
	}
	p, err := json.Marshal(mp)
	if err != nil {
		return e, err
	}
	e.Time = now.UTC()
	e.Actor = "git"
	e.Kind = kindMerge
	e.Params = p
	e.Result = MergeSummary(res)
	return e, nil
}

// MergeSummary is the one-paragraph account of a merge the journal
// records and the driver prints: "Merged branches: N tasks" plus the
// renumbering and one line per note.
func MergeSummary(res core.MergeResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Merged branches: %s", core.CountNoun(len(res.State.Tasks), "task"))
	if len(res.Renumbered) > 0 {
		olds := make([]int, 0, len(res.Renumbered))
		for o := range res.Renumbered {
			olds = append(olds, o)
		}
		slices.Sort(olds)
		var parts []string
		for _, o := range olds {
			parts = append(parts, fmt.Sprintf("#%d→#%d", o, res.Renumbered[o]))
		}
		fmt.Fprintf(&b, "; the other branch's tasks renumbered: %s", strings.Join(parts, ", "))
	}
	for _, n := range res.Notes {
		b.WriteString("\nnote: " + n)
	}
	if res.Conflict != "" {
		b.WriteString("\nconflict: " + res.Conflict)
	}
	return b.String()
}
