package store

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/planls/planls/core"
)

// JournalEntry is one line of .planls/journal.jsonl: one committed change.
// Replaying the entries in order from the empty state rebuilds the state
// (Replay): each entry carries the state's top-level fields after the change
// (Head), the full records of the tasks it created or changed, the ids it
// removed, and the idempotency keys when they changed. When the journal did
// not end at the revision the change started from (a writer was killed
// between writing the state and appending its line, the journal was
// deleted, or an older state file was put back) the entry is a full snapshot
// instead (Full true, Tasks holds every task); Replay starts from the last
// one. Revisions only rise: a change to an older state file is numbered after
// the journal's last revision.
type JournalEntry struct {
	Revision int64     `json:"revision"` // the state's revision after the change
	Base     int64     `json:"base"`     // the revision the change was applied to
	Time     time.Time `json:"time"`     // commit time, UTC
	Actor    string    `json:"actor"`    // Store.Actor of the writer
	Kind     string    `json:"kind"`     // "call", "approve", "merge" (branches joined: see merge.go), "keep-state" (doctor --keep-state), ...
	// Params are the todo tool params (kind "call"), {"path","planId"} for an approval, or
	// {"base","ours","theirs","renumbered"} for a merge (mergeParams).
	Params json.RawMessage `json:"params,omitempty"`
	Result string          `json:"result"` // content[0].text of the result
	Full   bool            `json:"full,omitempty"`
	// Head is the state after the change without tasks and idempotency keys
	// (version, nextId, plan, ...): all of its other top-level fields, so
	// fields added to core.State later replay too. It is left out when
	// those fields are as the change found them (all but the revision):
	// most changes touch one task and nothing else, and the approved plan
	// alone is some 300 bytes. Always there when Full.
	Head json.RawMessage `json:"head,omitempty"`
	// Tasks are the full new records of created or changed tasks (every task when Full).
	Tasks     []core.Task         `json:"tasks"`
	Removed   []int               `json:"removed,omitempty"`   // ids no longer in the state
	Mutations *[]core.MutationKey `json:"mutations,omitempty"` // set when the idempotency keys changed (always when Full)
	// Prior is the status each changed or removed task had before the
	// change, by id (a JSON object key: the id in decimal); a task in
	// Tasks but not here was created by it. Empty when Full. The history
	// (History) reads a change's "from" here rather than from the entry
	// before it, which on a journal merged from two branches may be the
	// other branch's.
	Prior map[string]core.Status `json:"prior,omitempty"`

	line int // 1-based line in the file, set by ReadJournal
}

// headOf is st's top-level fields without tasks and idempotency keys.
func headOf(st *core.State) (json.RawMessage, error) {
	h := *st
	h.Tasks, h.Mutations = nil, nil
	b, err := marshal(&h, "")
	// Tasks has no omitempty; drop its null. Any string containing these
	// bytes would have its quotes escaped, so only the field itself matches.
	b = bytes.Replace(bytes.TrimRight(b, "\n"), []byte(`,"tasks":null`), nil, 1)
	return json.RawMessage(b), err
}

// sameHead reports whether next's head (nextHead, as headOf gives it) is
// old's but for the revision.
func sameHead(old, next *core.State, nextHead json.RawMessage) (bool, error) {
	o := *old
	o.Revision = next.Revision
	oldHead, err := headOf(&o)
	return bytes.Equal(oldHead, nextHead), err
}

// newEntry describes the change from old to next. full forces a snapshot.
func newEntry(old, next *core.State, full bool) (JournalEntry, error) {
	head, err := headOf(next)
	if err != nil {
		return JournalEntry{}, err
	}
	e := JournalEntry{Revision: next.Revision, Base: old.Revision, Head: head, Full: full, Tasks: []core.Task{}}
	if full {
		e.Tasks = append(e.Tasks, next.Tasks...)
		slices.SortStableFunc(e.Tasks, byID)
		m := slices.Clone(next.Mutations)
		e.Mutations = &m
		return e, nil
	}
	if same, err := sameHead(old, next, head); err != nil {
		return e, err
	} else if same {
		e.Head = nil
	}
	before := make(map[int][]byte, len(old.Tasks))
	status := make(map[int]core.Status, len(old.Tasks))
	for _, t := range old.Tasks {
		b, err := json.Marshal(t)
		if err != nil {
			return e, err
		}
		before[t.ID] = b
		status[t.ID] = t.Status
	}
	seen := make(map[int]bool, len(next.Tasks))
	prior := func(id int) {
		if e.Prior == nil {
			e.Prior = map[string]core.Status{}
		}
		e.Prior[strconv.Itoa(id)] = status[id]
	}
	for _, t := range next.Tasks {
		seen[t.ID] = true
		b, err := json.Marshal(t)
		if err != nil {
			return e, err
		}
		if prev, ok := before[t.ID]; !ok || !bytes.Equal(prev, b) {
			e.Tasks = append(e.Tasks, t)
			if ok {
				prior(t.ID)
			}
		}
	}
	slices.SortStableFunc(e.Tasks, byID)
	for _, t := range old.Tasks {
		if !seen[t.ID] {
			e.Removed = append(e.Removed, t.ID)
			prior(t.ID)
		}
	}
	slices.Sort(e.Removed)
	ob, _ := json.Marshal(old.Mutations)
	nb, _ := json.Marshal(next.Mutations)
	if !bytes.Equal(ob, nb) {
		m := slices.Clone(next.Mutations)
		e.Mutations = &m
	}
	return e, nil
}

// apply replays e onto st (which it changes). A head that does not parse
// leaves the top-level fields as they were.
func (e *JournalEntry) apply(st *core.State) {
	tasks, mutations := st.Tasks, st.Mutations
	if e.Full {
		tasks, mutations = tasks[:0], nil
	}
	var h core.State
	if len(e.Head) > 0 && json.Unmarshal(e.Head, &h) == nil {
		*st = h
	}
	st.Tasks, st.Mutations = tasks, mutations
	idx := make(map[int]int, len(st.Tasks))
	for i, t := range st.Tasks {
		idx[t.ID] = i
	}
	for _, t := range e.Tasks {
		if t.UID == "" { // recorded before tasks had an identity
			t.UID = core.DerivedUID(t.ID, t.CreatedAt)
		}
		if i, ok := idx[t.ID]; ok {
			st.Tasks[i] = t
		} else {
			idx[t.ID] = len(st.Tasks)
			st.Tasks = append(st.Tasks, t)
		}
	}
	if len(e.Removed) > 0 {
		st.Tasks = slices.DeleteFunc(st.Tasks, func(t core.Task) bool { return slices.Contains(e.Removed, t.ID) })
	}
	slices.SortStableFunc(st.Tasks, byID)
	if e.Mutations != nil {
		st.Mutations = slices.Clone(*e.Mutations)
	}
	st.Revision = e.Revision
}

// appendJournal writes e as one line and fsyncs it, and returns the file's
// info after the write (nil when it cannot be read). A line torn by a crash
// (no final newline) is closed first so the new line stays readable.
func appendJournal(path string, e JournalEntry) (os.FileInfo, error) {
	line, err := marshal(e, "")
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	if fi, err := f.Stat(); err == nil && fi.Size() > 0 {
		// A torn last line (a crash mid-append) must not swallow this one.
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, fi.Size()-1); err == nil && last[0] != '\n' {
			line = append([]byte("\n"), line...)
		}
	}
	if _, err := f.Write(line); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("journal: %w", err)
	}
	if err := f.Sync(); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("journal: %w", err)
	}
	fi, _ := f.Stat()
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	return fi, nil
}

// lastRevision returns the revision of the journal's last line, 0 when the
// journal is missing or empty, or -1 when it cannot be read or its last line
// does not parse. It reads only the end of the file.
func lastRevision(path string) int64 {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return 0
	}
	if err != nil {
		return -1
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return -1
	}
	if fi.Size() == 0 {
		return 0
	}
	size := fi.Size()
	end := size
	var tail []byte
	for chunk := int64(4096); ; chunk *= 2 {
		start := max(0, size-chunk)
		buf := make([]byte, end-start)
		if _, err := f.ReadAt(buf, start); err != nil && !errors.Is(err, io.EOF) {
			return -1
		}
		tail = append(buf, tail...)
		end = start
		body := bytes.TrimRight(tail, "\n")
		if i := bytes.LastIndexByte(body, '\n'); i >= 0 || start == 0 {
			var e struct {
				Revision *int64 `json:"revision"`
			}
			if json.Unmarshal(body[i+1:], &e) != nil || e.Revision == nil {
				return -1
			}
			return *e.Revision
		}
	}
}

// JournalProblem is a journal line that cannot be used. Line is 1-based.
type JournalProblem struct {
	Line int
	Msg  string
}

// ReadJournal returns the parsable entries of the journal at path in file
// order, and a problem for each line that does not parse or breaks the
// revision order. A missing journal gives no entries and no error.
func ReadJournal(path string) ([]JournalEntry, []JournalProblem, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	return readJournal(f)
}

// readJournal is ReadJournal of the journal r holds.
func readJournal(f io.Reader) ([]JournalEntry, []JournalProblem, error) {
	var out []JournalEntry
	var probs []JournalProblem
	r := bufio.NewReader(f)
	var prev int64
	seen := map[int64]bool{0: true} // revisions so far: a branch starts from one of them
	// Each revision's line (a hash of it), to tell a repeated line from a branch's.
	lines := map[int64]uint64{}
	seed := maphash.MakeSeed()
	for n := 1; ; n++ {
		line, err := r.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			var e JournalEntry
			switch uerr := json.Unmarshal(line, &e); {
			case uerr != nil && isConflictMarker(line):
				probs = append(probs, JournalProblem{n, "git conflict marker: " + JournalName + " was " + mergedAsText})
			case uerr != nil && err == io.EOF:
				probs = append(probs, JournalProblem{n, "last line is cut short (a writer was killed while appending); ignored"})
			case uerr != nil:
				probs = append(probs, JournalProblem{n, "not a journal entry: " + uerr.Error()})
			case e.Revision <= prev && seen[e.Base] && e.Base < e.Revision && lines[e.Revision] != maphash.Bytes(seed, bytes.TrimSpace(line)):
				probs = append(probs, JournalProblem{n, fmt.Sprintf("revision %d comes again after revision %d: another branch's changes, %s", e.Revision, prev, mergedAsText)})
			case e.Revision <= prev:
				probs = append(probs, JournalProblem{n, fmt.Sprintf("revision %d does not follow revision %d; ignored", e.Revision, prev)})
			default:
				// An entry applied to an earlier revision than the one before
				// it is a branch's, placed after the other branch's by a merge.
				if !e.Full && e.Base != prev && !seen[e.Base] {
					probs = append(probs, JournalProblem{n, fmt.Sprintf("revision %d was applied to revision %d but the journal holds revision %d before it; changes in between are missing", e.Revision, e.Base, prev)})
				}
				e.line = n
				out = append(out, e)
				prev = e.Revision
				seen[prev] = true
				lines[prev] = maphash.Bytes(seed, bytes.TrimSpace(line))
			}
		}
		if err == io.EOF {
			return out, probs, nil
		}
		if err != nil {
			return out, probs, err
		}
	}
}

// Replay rebuilds a state from journal entries, in order, starting from the
// last full snapshot (a base: it holds every task) or, without one, from the
// empty state.
func Replay(entries []JournalEntry) *core.State {
	st := core.Empty()
	for i := lastBase(entries); i < len(entries); i++ {
		entries[i].apply(st)
	}
	return st
}

// lastBase is the index of the last full snapshot in entries, 0 when none.
func lastBase(entries []JournalEntry) int {
	for i := len(entries) - 1; i > 0; i-- {
		if entries[i].Full {
			return i
		}
	}
	return 0
}

// parseEntry decodes one journal line.
func parseEntry(line []byte) (JournalEntry, bool) {
	var e JournalEntry
	if json.Unmarshal(line, &e) != nil {
		return e, false
	}
	return e, true
}

// key identifies the change an entry records wherever a merge copied it:
// its time, writer, kind, params and result, which no merge rewrites (a
// merge moves revisions and bases only). Two commits never share all of
// them: the time alone is in nanoseconds.
func (e *JournalEntry) key() string {
	return e.Time.UTC().Format(time.RFC3339Nano) + "\x00" + e.Actor + "\x00" + e.Kind + "\x00" + string(e.Params) + "\x00" + e.Result
}
