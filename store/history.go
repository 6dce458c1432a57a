package store

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"time"

	"github.com/planls/planls/core"
)

// HistoryEntry is one committed change of the workspace's history.
type HistoryEntry struct {
	Revision int64     // the state's revision after the change
	Time     time.Time // commit time, UTC
	Actor    string    // the writer (Store.Actor: "cli", "lsp", "mcp", ...)
	// Kind is "call" (a todo tool call), "approve" (an approval or
	// re-approval) or "merge" (branches joined by the merge driver).
	Kind   string
	Params json.RawMessage // the change's parameters (JournalEntry.Params)
	Result string          // its result text (content[0].text of a call)
	// Changes are the tasks the change created, changed or removed, by id.
	Changes []TaskChange
	// Merge is set for a merge of branches (Kind "merge").
	Merge *HistoryMerge
}

// TaskChange is one task a change touched. From is "" for a task the change
// created, To is "" for one it removed from the state (a re-approval
// tombstones plan items instead: To is deleted). Task is the record after
// the change, nil when removed; it is shared with the history reader:
// read, never modify.
type TaskChange struct {
	UID      string // the task's stable identity (core.Task.UID; "" in records written before it)
	ID       int    // its display id at the time
	Subject  string
	From, To core.Status
	Task     *core.Task
}

// HistoryMerge is what a merge entry says about the branches it joined.
type HistoryMerge struct {
	Base, Ours, Theirs int64       // revisions of the common ancestor and the two sides
	Renumbered         map[int]int // ids the merge gave new numbers: theirs → new
	Notes              []string
	Conflict           string
}

// History calls fn with every committed change of the workspace, oldest
// first, until fn returns an error (which History returns) or ctx is done.
// Journal lines that cannot be used are skipped (planls doctor reports
// them); a full snapshot entry (written after a gap in the journal) stands
// for the tasks whose record differs from the one before it and removes
// the tasks it does not hold. A missing journal is an empty history.
//
// This is the one reader of the history: a change to how the journal is
// kept lands here, and callers stay as they are.
func (s *Store) History(ctx context.Context, fn func(HistoryEntry) error) error {
	entries, _, err := ReadJournal(s.JournalPath())
	if err != nil {
		return err
	}
	cur := map[int]*core.Task{}
	for i := range entries {
		if err := ctx.Err(); err != nil {
			return err
		}
		e := &entries[i]
		h := HistoryEntry{Revision: e.Revision, Time: e.Time.UTC(), Actor: e.Actor, Kind: e.Kind, Params: e.Params, Result: e.Result}
		if e.Kind == "merge" {
			var mp mergeParams
			if json.Unmarshal(e.Params, &mp) == nil {
				h.Merge = &HistoryMerge{Base: mp.Base, Ours: mp.Ours, Theirs: mp.Theirs}
				for from, to := range mp.Renumbered {
					if n, err := strconv.Atoi(from); err == nil {
						if h.Merge.Renumbered == nil {
							h.Merge.Renumbered = map[int]int{}
						}
						h.Merge.Renumbered[n] = to
					}
				}
			}
		}
		var held map[int]bool
		if e.Full {
			held = make(map[int]bool, len(e.Tasks))
		}
		for j := range e.Tasks {
			t := &e.Tasks[j]
			if held != nil {
				held[t.ID] = true
			}
			before := cur[t.ID]
			if e.Full && before != nil && sameTask(before, t) {
				continue
			}
			ch := TaskChange{UID: t.UID, ID: t.ID, Subject: t.Subject, To: t.Status, Task: t}
			if before != nil {
				ch.From = before.Status
			}
			h.Changes = append(h.Changes, ch)
			cur[t.ID] = t
		}
		removed := e.Removed
		if held != nil {
			removed = nil
			for id := range cur {
				if !held[id] {
					removed = append(removed, id)
				}
			}
			slices.Sort(removed)
		}
		for _, id := range removed {
			if before, ok := cur[id]; ok {
				h.Changes = append(h.Changes, TaskChange{UID: before.UID, ID: id, Subject: before.Subject, From: before.Status})
				delete(cur, id)
			}
		}
		if err := fn(h); err != nil {
			return err
		}
	}
	return nil
}

// sameTask reports whether two records of a task say the same (a snapshot
// repeats unchanged tasks).
func sameTask(a, b *core.Task) bool {
	if a.Version != b.Version || a.Status != b.Status || !a.UpdatedAt.Equal(b.UpdatedAt) {
		return false
	}
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
