package store

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/planls/planls/core"
)

// mergedAsText ends the journal problems a merge without the driver leaves.
const mergedAsText = "merged as text, without the planls merge driver"

// branchRepair is the note naming the repair of such problems.
const branchRepair = "repair: planls doctor --rebuild --move-aside merges the journal's branches into the state, keeping every side's changes (planls init sets the merge driver up for next time)"

// branchRepairNote is the repair of such problems, once: nil when none.
func branchRepairNote(probs []JournalProblem) []string {
	for _, p := range probs {
		if strings.HasSuffix(p.Msg, mergedAsText) {
			return []string{branchRepair}
		}
	}
	return nil
}

// relJournal is the journal path as users see it in messages.
func relJournal() string { return DirName + "/" + JournalName }

// journalTree is readTree of the journal's tail, with each seal's snapshot
// linked to the entry it was sealed after (linkSeals); a missing journal is
// an empty tree.
func (s *Store) journalTree() (*journalTree, error) {
	f, err := os.Open(s.JournalPath())
	if os.IsNotExist(err) {
		return &journalTree{}, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	jt, err := readTree(f)
	if err != nil {
		return nil, err
	}
	jt.linkSeals(s.readSegment)
	jt.fork = s.sealedFork(jt)
	return jt, nil
}

// journalMerges records the branches a rebuild merged: one merge entry (a
// full snapshot of rebuilt) appended to the journal, or, when the journal
// holds git conflict markers, a new journal of its entry lines without the
// markers plus that entry, after moving the old one aside. The notes of
// every merge go into the report. The lock must be held.
func (s *Store) journalMerges(r *DoctorReport, jt *journalTree, rebuilt *core.State, merges []branchMerge) error {
	if len(merges) == 0 && len(jt.markers) == 0 {
		return nil
	}
	var entry JournalEntry
	if len(merges) > 0 {
		last := merges[len(merges)-1]
		res := last.res
		res.State = rebuilt
		var notes []string
		for _, m := range merges {
			notes = append(notes, m.res.Notes...)
			r.Notes = append(r.Notes, "merged a branch of the journal: "+strings.ReplaceAll(MergeSummary(m.res), "\n", "\n  "))
		}
		res.Notes = notes
		e, err := mergeEntry(res, last.base, last.ours, last.theirs, nowUTC())
		if err != nil {
			return err
		}
		e.Actor = s.actor()
		entry = e
	}
	if len(jt.markers) == 0 {
		_, err := appendJournal(s.JournalPath(), entry)
		return err
	}
	old, err := os.ReadFile(s.JournalPath())
	if err != nil {
		return err
	}
	var out bytes.Buffer
	for _, l := range journalLines(old) {
		out.Write(l)
		out.WriteByte('\n')
	}
	if len(merges) > 0 {
		b, err := marshal(entry, "")
		if err != nil {
			return err
		}
		out.Write(b)
	}
	dest, err := moveAsideFile(s.JournalPath())
	if err != nil {
		return err
	}
	r.Notes = append(r.Notes, fmt.Sprintf("moved %s aside to %s (it held git conflict markers)", relJournal(), dest))
	if err := WriteFile(s.JournalPath(), out.Bytes()); err != nil {
		return err
	}
	r.Notes = append(r.Notes, fmt.Sprintf("wrote %s without the conflict markers: both sides' entries, then their merge", relJournal()))
	return nil
}

// lastMergeNotes repeats what the latest merge of branches reported (its
// notes and conflict, such as a stale branch's completion kept only in a
// tombstone) while no change has followed it, so a person who missed git's
// output still reads it: "last merge (revision 7): note: ...".
func lastMergeNotes(entries []JournalEntry) []string {
	if len(entries) == 0 || entries[len(entries)-1].Kind != kindMerge {
		return nil
	}
	e := entries[len(entries)-1]
	var out []string
	for _, l := range strings.Split(e.Result, "\n") {
		if strings.HasPrefix(l, "note: ") || strings.HasPrefix(l, "conflict: ") {
			out = append(out, fmt.Sprintf("last merge (revision %d): %s", e.Revision, l))
		}
	}
	return out
}
