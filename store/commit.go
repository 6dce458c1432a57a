package store

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/planls/planls/core"
)

// Read returns the current state without taking the lock (writers replace the
// file atomically, so a reader never sees a torn file). A missing file is the
// empty state, unless the journal has entries: then the file was lost and
// the answer is a *StateError pointing at planls doctor --rebuild. A file that
// does not parse or validate gives a *StateError. The file is read and
// decoded on every call (3 ms for 1,000 tasks, BenchmarkRead); the caller
// owns the returned state. Safe for concurrent use.
func (s *Store) Read() (*core.State, error) {
	st, _, err := s.ReadBytes()
	return st, err
}

// ReadBytes is Read that also returns the bytes it read (nil for a
// missing file read as the empty state; the file's bytes also with a
// *StateError), so that a caller can tell a change from a re-read of the
// same bytes by the very bytes it decoded.
func (s *Store) ReadBytes() (*core.State, []byte, error) {
	data, err := readShared(s.StatePath())
	if errors.Is(err, os.ErrNotExist) {
		if testHookStateMissing != nil {
			testHookStateMissing()
		}
		// Starting over from the empty state would reuse ids and fork the
		// journal; the journal is the way back.
		if n := s.journalChanges(); n > 0 {
			// A writer renames state.json into place before it appends its
			// journal line, and no writer ever removes state.json. So entries
			// seen now mean the file existed by now: a first commit that landed
			// between our two reads shows up on a second read, and only a file
			// that is still missing was lost.
			if data, err := readShared(s.StatePath()); err == nil {
				st, err := decodeState(s.StatePath(), data)
				return st, data, err
			}
			return nil, nil, &StateError{Path: s.StatePath(), Msg: fmt.Sprintf("%s is missing but %s has %s: run planls doctor --rebuild", StateName, JournalName, core.CountNoun(n, "change"))}
		}
		return core.Empty(), nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", s.StatePath(), err)
	}
	st, err := decodeState(s.StatePath(), data)
	return st, data, err
}

// testHookStateMissing, when set by a test, runs right after read finds no
// state file: where another process's first commit can land.
var testHookStateMissing func()

// journalChanges counts the usable journal entries; 0 when there is no
// journal or it cannot be read (then there is nothing to rebuild from).
// A tail that is gone while sealed segments remain counts the newest
// segment's last revision: the rebuild starts from it.
func (s *Store) journalChanges() int {
	if lastRevision(s.JournalPath()) == 0 {
		if segs, _ := s.segments(); len(segs) > 0 {
			return int(segs[len(segs)-1].last)
		}
		return 0
	}
	entries, _, err := ReadJournal(s.JournalPath())
	if err != nil {
		return 0
	}
	return len(entries)
}

// Call applies one `todo` tool call (its JSON params, decoded once by core.Decode)
// and persists the result when it changed anything: Apply with core.Run. Errors are
// out-of-band failures only (lock timeout, ctx ended while waiting for the
// lock, I/O, *StateError, *RestoredError for a state file older than the
// journal); the tool's in-band rejections come back in the
// envelope.
func (s *Store) Call(ctx context.Context, params json.RawMessage, opts core.Options) (core.Result, error) {
	req := core.Decode(params)
	return s.update(ctx, "call", compactParams(params), func(st *core.State) core.Result {
		return core.Run(st, req, opts)
	})
}

// Apply runs a typed core operation (apply, e.g. a closure over core.Do)
// on the current state and persists the result when it changed anything.
// apply must be pure: it runs once on an unlocked read, and once more on a
// fresh read under the lock when it changes something. The journal records
// the envelope's details.params. Errors are as Call's.
func (s *Store) Apply(ctx context.Context, apply func(*core.State) core.Result) (core.Result, error) {
	return s.update(ctx, "call", nil, apply)
}

// update runs apply first on an unlocked read: reads, no-ops and rejections
// end there, take no lock and create nothing (read-only commands never create
// .planls/). A change is applied again under the lock to a fresh read and
// committed, so no concurrent change is ever lost.
// params is what the journal records; nil means the result's details.params.
func (s *Store) update(ctx context.Context, kind string, params json.RawMessage, apply func(*core.State) core.Result) (core.Result, error) {
	st, data, err := s.ReadBytes()
	if err != nil {
		return core.Result{}, err
	}
	res := apply(st)
	if !res.Changed {
		return res, nil
	}
	h, err := s.lock(ctx)
	if err != nil {
		return core.Result{}, err
	}
	defer h.unlock()
	return s.commitLocked(kind, params, apply, unlocked{data, st, res})
}

// unlocked is what update read and applied before it took the lock.
type unlocked struct {
	data []byte
	st   *core.State
	res  core.Result
}

// commitLocked is read → apply → write → journal; the lock must be held.
// A state file older than the journal is not written (*RestoredError).
// When the file still holds the bytes of the unlocked read, that read's
// state and result stand (apply is pure), saving a decode and an apply.
func (s *Store) commitLocked(kind string, params json.RawMessage, apply func(*core.State) core.Result, before unlocked) (core.Result, error) {
	st, data, err := s.ReadBytes()
	if err != nil {
		return core.Result{}, err
	}
	res := before.res
	if bytes.Equal(data, before.data) && before.st != nil {
		st = before.st
	} else {
		res = apply(st)
	}
	if !res.Changed || res.State == nil {
		return res, nil
	}
	journal, err := s.journalBefore()
	if err != nil {
		return core.Result{}, err
	}
	if journal > st.Revision {
		return core.Result{}, &RestoredError{State: st.Revision, Journal: journal}
	}
	if params == nil {
		params = compactParams(res.Envelope.Details.Params)
	}
	next := *res.State
	next.Revision = s.nextRevision(st.Revision, journal)
	res.State = &next
	if err := s.persist(st, &next, journal, kind, params, res.Envelope.Text()); err != nil {
		return core.Result{}, err
	}
	return res, nil
}

// persist writes next over the state file and journals the change from old.
// The lock must be held. The journal line is appended after the rename, so a
// crash in between leaves a journal one revision behind; the next writer
// notices and journals a full snapshot.
// journal is the journal's last revision as journalBefore read it.
func (s *Store) persist(old, next *core.State, journal int64, kind string, params json.RawMessage, text string) error {
	giveUIDs(next.Tasks)
	data, err := encodeState(next)
	if err != nil {
		return fmt.Errorf("encode state: %w", err)
	}
	// A diff is only replayable onto exactly the revision it was made from;
	// revision 0 with content is a state written by hand.
	full := journal != old.Revision ||
		(old.Revision == 0 && (len(old.Tasks) > 0 || old.Plan != nil))
	entry, err := newEntry(old, next, full)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	entry.Time = nowUTC()
	entry.Actor = s.actor()
	entry.Kind = kind
	entry.Params = params
	entry.Result = text
	s.sweepTempsOnce()
	if err := WriteFile(s.StatePath(), data); err != nil {
		return err
	}
	fi, err := appendJournal(s.JournalPath(), entry)
	if err != nil {
		s.noteJournal(nil, 0)
		return err
	}
	// The change is committed; a seal that fails (a full disk) is tried
	// again by the next commit and costs nothing but the tail's size.
	if sealed, err := s.maybeSeal(next, fi, len(data)); err != nil {
		fi = nil
	} else if sealed != nil {
		fi = sealed
	}
	s.noteJournal(fi, next.Revision)
	return nil
}

// sweepTempsOnce is removeTemps at this Store's first commit. A killed
// writer's temp file is harmless (git ignores it, readers never open it),
// so a long-lived writer does not read the directory on every commit; a new
// process, doctor --rebuild and the next Store sweep what is left.
func (s *Store) sweepTempsOnce() {
	s.seen.Lock()
	defer s.seen.Unlock()
	if !s.seen.swept {
		s.removeTemps()
		s.seen.swept = true
	}
}

// removeTemps deletes temp files a killed writer left behind (renameio names
// them "." + base + digits). Only called under the lock, when no other writer
// can own one.
func (s *Store) removeTemps() {
	// Globbed under Dir, so "[", "*" or "?" in the project's path stay literal.
	for _, pat := range []string{"." + StateName + "[0-9]*", "." + JournalName + "[0-9]*", SealDirName + "/.*.gz[0-9]*"} {
		matches, _ := fs.Glob(os.DirFS(s.Dir()), pat)
		for _, m := range matches {
			_ = os.Remove(filepath.Join(s.Dir(), m))
		}
	}
}

// compactParams makes params fit on one journal line; params that are not
// valid JSON are kept as a JSON string.
func compactParams(p json.RawMessage) json.RawMessage {
	var buf bytes.Buffer
	if err := json.Compact(&buf, p); err == nil {
		return buf.Bytes()
	}
	q, _ := json.Marshal(string(p))
	return q
}

func nowUTC() time.Time { return time.Now().UTC() }

// nextRevision is the revision of the commit made on a state at revision
// cur, given the journal's last revision as lastRevision reads it (-1 for a
// damaged last line: persist then journals a full snapshot). When the
// journal went past cur (an older state.json kept by doctor --keep-state)
// the numbering continues after the journal, so no revision is ever
// written twice; persist then journals a full snapshot, which replay takes
// as a new base. The lock must be held.
func (s *Store) nextRevision(cur, journal int64) int64 {
	last := journal
	if last < 0 {
		// The last line is damaged: look at every usable line.
		entries, _, _ := ReadJournal(s.JournalPath())
		for _, e := range entries {
			last = max(last, e.Revision)
		}
	}
	return max(cur, last) + 1
}
