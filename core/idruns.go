package core

import (
	"strconv"
	"strings"
)

// Bulk results (delete_all, restore) can name thousands of ids, so their
// texts compress them: idRuns writes each run of minRun or more consecutive
// ids (each one more than the one before, in the order given) that share a
// label as "#a–#b" (an en dash, U+2013), and lists at most maxRuns runs and
// single ids, then "… and N more". Every id stays machine-readable in
// details.ids (Details.IDs).
const (
	minRun  = 3
	maxRuns = 100
	// maxUndoIDs is the most ids delete_all spells out in its undo hint;
	// past it the hint is restore without ids, which undoes the last
	// delete_all (see restore).
	maxUndoIDs = 20
)

// idRuns renders ids in order, joined with ", ". label(i), when not nil, is
// written after the id or run that ends at ids[i] (e.g. " (pending)"); a run
// only spans ids with the same label.
func idRuns(ids []int, label func(i int) string) string {
	lab := func(i int) string {
		if label == nil {
			return ""
		}
		return label(i)
	}
	var b strings.Builder
	runs := 0
	for i := 0; i < len(ids); {
		j := i
		for j+1 < len(ids) && ids[j+1] == ids[j]+1 && lab(j+1) == lab(i) {
			j++
		}
		if j-i+1 < minRun {
			j = i
		}
		if runs == maxRuns {
			b.WriteString(", … and " + strconv.Itoa(len(ids)-i) + " more")
			break
		}
		if runs > 0 {
			b.WriteString(", ")
		}
		b.WriteString("#" + strconv.Itoa(ids[i]))
		if j > i {
			b.WriteString("–#" + strconv.Itoa(ids[j]))
		}
		b.WriteString(lab(j))
		runs++
		i = j + 1
	}
	return b.String()
}

// undoHint is the call that undoes a delete_all of ids: restore with the ids
// spelled out when there are few, else restore without ids.
func undoHint(ids []int) string {
	if len(ids) <= maxUndoIDs {
		return `{"action":"restore","ids":[` + joinInts(ids, ",") + `]}`
	}
	return `{"action":"restore"} (without ids, restore undoes this delete_all)`
}

// IDRuns renders ids (in the order given) as the bulk results do: "#1–#3,
// #7", runs of consecutive ids as one.
func IDRuns(ids []int) string { return idRuns(ids, nil) }
