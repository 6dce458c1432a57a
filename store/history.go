package store

import (
	"context"
	"encoding/json"

	segjson "github.com/segmentio/encoding/json"
	"hash/maphash"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/planls/planls/core"
)

// HistoryEntry is one committed change of the journal's whole history, as
// History gives it.
type HistoryEntry struct {
	Revision int64     // the state's revision after the change (in the journal it was read from)
	Time     time.Time // commit time, UTC
	Actor    string    // the writer ("cli", "lsp", "mcp", "git" for a merge driver, ...)
	// Kind is "call" (a todo tool call), "approve", "merge" (branches
	// joined), or a kind another command journals (such as "reopen").
	Kind   string
	Params json.RawMessage // as JournalEntry.Params
	Result string          // content[0].text of the result (a merge: its summary and notes)
	// Changes are the tasks the change created, changed or removed, in id
	// order. A merge has none of its own: the branch's changes are the
	// branch's entries, which History gives too; Merge says what the
	// merge decided.
	Changes []TaskChange
	Merge   *HistoryMerge // set for kind "merge"
}

// TaskChange is what one change did to one task.
type TaskChange struct {
	UID     string // the task's identity (core.Task.UID), the same on every branch
	ID      int    // its display id in the entry (the branch's numbering then)
	Subject string
	// From and To are its status before and after: From "" for a task the
	// change created, To "" for one it removed from the state (clear).
	From, To core.Status
	// Task is its record after the change, nil for a removed task. It is
	// shared with the history reader: read it, never change it.
	Task *core.Task
}

// HistoryMerge is what a merge of two branches recorded.
type HistoryMerge struct {
	Base, Ours, Theirs int64       // revisions of the common ancestor and the two tips
	Renumbered         map[int]int // theirs's ids that changed, old → new
	Notes              []string    // one sentence per decision a person should know of
	Conflict           string      // "" or why the merge needs planls approve
}

// History calls fn with every committed change, oldest first: the sealed
// segments' entries (in the order of their revisions), then the live
// tail's. An entry two files hold (two branches' segments share the
// entries before their fork; a rebase copies a line with a new revision)
// is given once. Snapshot entries (a seal's, restating the state) are not
// changes and are not given. Lines that do not parse are skipped, as a
// rebuild skips them. It stops at fn's first error, or ctx's, and returns
// it; other errors are I/O. It reads the whole history (about 1 µs and
// 700 bytes an entry): for reports, not for every command.
func (s *Store) History(ctx context.Context, fn func(HistoryEntry) error) error {
	// The tail first: a seal that lands between the two reads moves the
	// tail read into a segment listed after it (given once), where the
	// other order would miss the entries it moved.
	tail, err := os.ReadFile(s.JournalPath())
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	segs, err := s.segments()
	if err != nil {
		return err
	}
	h := &historian{seed: maphash.MakeSeed(), seen: map[uint64]bool{}, byUID: map[string]*core.Task{}, uidOf: map[int]string{}}
	for _, seg := range segs {
		data, err := s.readSegment(seg.name)
		if err != nil {
			return err
		}
		if err := h.file(ctx, data, fn); err != nil {
			return err
		}
	}
	return h.file(ctx, tail, fn)
}

// historian turns journal entries into HistoryEntries: it drops the ones
// given already and knows each task's last record, for the statuses of
// entries written before they recorded Prior.
type historian struct {
	seed  maphash.Seed
	seen  map[uint64]bool // entries given, by the hash of key()
	byUID map[string]*core.Task
	uidOf map[int]string // display id → identity, as the last entry left it
}

// file gives the entries of one journal file's bytes.
func (h *historian) file(ctx context.Context, data []byte, fn func(HistoryEntry) error) error {
	for _, e := range decodeLines(journalLines(data)) {
		if err := ctx.Err(); err != nil {
			return err
		}
		if e == nil {
			continue
		}
		k := maphash.String(h.seed, e.key())
		if h.seen[k] {
			continue
		}
		h.seen[k] = true
		out, ok := h.entry(e)
		if !ok {
			continue
		}
		if err := fn(out); err != nil {
			return err
		}
	}
	return nil
}

// entry is e as a HistoryEntry, and false for a snapshot (no change).
// It updates what h knows of each task.
func (h *historian) entry(e *JournalEntry) (HistoryEntry, bool) {
	core.EnsureUIDs(e.Tasks)
	out := HistoryEntry{Revision: e.Revision, Time: e.Time, Actor: e.Actor, Kind: e.Kind, Params: e.Params, Result: e.Result}
	switch {
	case e.Kind == kindSnapshot:
		h.reset(e.Tasks)
		return out, false
	case e.Kind == kindMerge:
		out.Merge = mergeOf(e)
		h.reset(e.Tasks)
		return out, true
	case e.Full:
		// A snapshot of a state put back by hand (an older file): what
		// differs from the last known records is its change.
		in := map[string]bool{}
		for i := range e.Tasks {
			t := &e.Tasks[i]
			in[t.UID] = true
			prev := h.byUID[t.UID]
			if prev == nil || !sameRecord(prev, t) {
				out.Changes = append(out.Changes, change(t, statusOf(prev), prev != nil, t.Status))
			}
		}
		for uid, prev := range h.byUID {
			if !in[uid] {
				gone := change(prev, prev.Status, true, "")
				gone.Task = nil
				out.Changes = append(out.Changes, gone)
			}
		}
		sortChanges(out.Changes)
		h.reset(e.Tasks)
		return out, true
	}
	for i := range e.Tasks {
		t := &e.Tasks[i]
		from, existed := e.Prior[strconv.Itoa(t.ID)]
		if e.Prior == nil { // written before entries recorded it
			prev := h.byUID[t.UID]
			from, existed = statusOf(prev), prev != nil
		}
		out.Changes = append(out.Changes, change(t, from, existed, t.Status))
		h.byUID[t.UID] = t
		h.uidOf[t.ID] = t.UID
	}
	for _, id := range e.Removed {
		uid := h.uidOf[id]
		prev := h.byUID[uid]
		if prev == nil {
			continue
		}
		from, ok := e.Prior[strconv.Itoa(id)]
		if !ok {
			from = prev.Status
		}
		gone := change(prev, from, true, "")
		gone.Task = nil
		out.Changes = append(out.Changes, gone)
		delete(h.byUID, uid)
		delete(h.uidOf, id)
	}
	sortChanges(out.Changes)
	return out, true
}

// reset makes tasks what h knows of every task.
func (h *historian) reset(tasks []core.Task) {
	clear(h.byUID)
	clear(h.uidOf)
	for i := range tasks {
		h.byUID[tasks[i].UID] = &tasks[i]
		h.uidOf[tasks[i].ID] = tasks[i].UID
	}
}

func change(t *core.Task, from core.Status, existed bool, to core.Status) TaskChange {
	if !existed {
		from = ""
	}
	return TaskChange{UID: t.UID, ID: t.ID, Subject: t.Subject, From: from, To: to, Task: t}
}

func statusOf(t *core.Task) core.Status {
	if t == nil {
		return ""
	}
	return t.Status
}

func sortChanges(cs []TaskChange) {
	slices.SortFunc(cs, func(a, b TaskChange) int { return a.ID - b.ID })
}

// sameRecord compares two records as the journal writes them.
func sameRecord(a, b *core.Task) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// mergeOf is a merge entry's params and notes.
func mergeOf(e *JournalEntry) *HistoryMerge {
	m := &HistoryMerge{}
	if mp, ok := e.merge(); ok {
		m.Base, m.Ours, m.Theirs = mp.Base, mp.Ours, mp.Theirs
		for old, n := range mp.Renumbered {
			if o, err := strconv.Atoi(old); err == nil {
				if m.Renumbered == nil {
					m.Renumbered = map[int]int{}
				}
				m.Renumbered[o] = n
			}
		}
	}
	for _, l := range strings.Split(e.Result, "\n") {
		switch {
		case strings.HasPrefix(l, "note: "):
			m.Notes = append(m.Notes, strings.TrimPrefix(l, "note: "))
		case strings.HasPrefix(l, "conflict: "):
			m.Conflict = strings.TrimPrefix(l, "conflict: ")
		}
	}
	return m
}

// decodeLines decodes journal lines into entries, nil for a line that is
// not one, on every CPU at once (decoding is almost all of History's time;
// the order of the result is the lines'). It decodes with
// segmentio/encoding/json (already built in through jsonrpc2), which takes
// the same input to the same values as encoding/json: a History of 10,000
// entries (5 MB) takes 67 ms of CPU with it, 100 ms with encoding/json.
func decodeLines(lines [][]byte) []*JournalEntry {
	out := make([]*JournalEntry, len(lines))
	workers := min(runtime.GOMAXPROCS(0), max(1, len(lines)/64))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(lines); i += workers {
				var e JournalEntry
				if segjson.Unmarshal(lines[i], &e) == nil {
					out[i] = &e
				}
			}
		})
	}
	wg.Wait()
	return out
}
