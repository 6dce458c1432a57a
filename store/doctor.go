package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/planls/planls/core"
)

// DoctorReport is what Doctor found and did.
type DoctorReport struct {
	// StateErr is why the state file cannot be used (a *StateError), nil when it can.
	StateErr error
	// Missing is true when there is no state file (the empty state).
	Missing bool
	// Revision is the state file's revision (0 when unusable or missing).
	Revision int64
	// Warnings are the warnings on a usable state: core.Validate's, tasks
	// closed without proof, and a state restored from an older copy (its
	// revision below the journal's last).
	Warnings []string
	// JournalEntries is the number of usable journal lines; JournalRevision the last one's revision.
	JournalEntries  int
	JournalRevision int64
	// JournalProblems are journal lines that cannot be used, after the last
	// full snapshot (those before it are only noted: a rebuild starts there).
	JournalProblems []JournalProblem
	// MovedAside is where the state file was moved ("" when it was not).
	MovedAside string
	// Rebuilt is true when the state file was written from the journal.
	Rebuilt bool
	// Notes are human sentences about what was checked or done, in order.
	Notes []string
}

// OK reports whether nothing needs attention: a usable state without
// warnings and a clean journal.
func (r *DoctorReport) OK() bool {
	return r.StateErr == nil && len(r.Warnings) == 0 && len(r.JournalProblems) == 0
}

// Doctor checks the state file and the journal. With rebuild it replays the
// journal and writes the result as the state when there is no state file;
// replacing an existing file (damaged, or different from the journal) also
// needs moveAside, which first renames it to state.json.corrupt-<UTC time>.
// moveAside alone moves only a damaged file. Nothing is ever deleted.
// Errors are I/O and lock failures, a refused repair, and ctx's error when
// it ends while waiting for the lock (a repair takes the lock; a check does
// not).
func (s *Store) Doctor(ctx context.Context, rebuild, moveAside bool) (*DoctorReport, error) {
	r := &DoctorReport{}
	if err := s.inspect(r); err != nil {
		return r, err
	}
	if !rebuild && !moveAside {
		return r, nil
	}
	if !rebuild && r.StateErr == nil {
		r.Notes = append(r.Notes, "the state file is usable; nothing moved aside")
		return r, nil
	}
	h, err := s.lock(ctx)
	if err != nil {
		return r, err
	}
	defer h.unlock()
	// Another writer may have changed things since the unlocked look.
	*r = DoctorReport{}
	if err := s.inspect(r); err != nil {
		return r, err
	}
	if !rebuild {
		if r.StateErr == nil {
			r.Notes = append(r.Notes, "the state file is usable; nothing moved aside")
			return r, nil
		}
		if err := s.moveAside(r); err != nil {
			return r, err
		}
		r.Notes = append(r.Notes, "there is no state file now; run planls doctor --rebuild to restore it from the journal")
		return r, nil
	}
	if err := s.rebuildLocked(r, moveAside); err != nil {
		return r, err
	}
	// The repair the look before it named has just run: advice to run it
	// would read as "run it again".
	r.Notes = slices.DeleteFunc(r.Notes, func(n string) bool { return n == branchRepair })
	return r, nil
}

func (s *Store) inspect(r *DoctorReport) error {
	st, err := s.Read()
	var serr *StateError
	switch {
	case errors.As(err, &serr):
		r.StateErr = err
		// A missing file (with a journal to rebuild from) is replaced
		// without --move-aside: there is nothing to keep.
		r.Missing = !exists(s.StatePath())
		r.Notes = append(r.Notes, "state: "+err.Error())
	case err != nil:
		return err
	default:
		r.Missing = !exists(s.StatePath())
		r.Revision = st.Revision
		r.Warnings = warningsOf(st)
		if r.Missing {
			r.Notes = append(r.Notes, "state: no state file (the empty state)")
		} else {
			r.Notes = append(r.Notes, fmt.Sprintf("state: ok, revision %d, %s", st.Revision, core.CountNoun(len(st.Tasks), "task")))
		}
		for _, w := range r.Warnings {
			r.Notes = append(r.Notes, "warning: "+w)
		}
	}
	entries, probs, err := ReadJournal(s.JournalPath())
	if err != nil {
		return fmt.Errorf("read %s: %w", s.JournalPath(), err)
	}
	r.JournalEntries = len(entries)
	if len(entries) > 0 {
		r.JournalRevision = entries[len(entries)-1].Revision
	}
	r.Notes = append(r.Notes, fmt.Sprintf("journal: %s, last revision %d", core.CountNoun(r.JournalEntries, "entry"), r.JournalRevision))
	notes, err := s.sealedNotes(entries)
	if err != nil {
		return err
	}
	r.Notes = append(r.Notes, notes...)
	r.Notes = append(r.Notes, lastMergeNotes(entries)...)
	// Replay starts at the last full snapshot, so damage before it (such as
	// a fork an older planls made) no longer matters: noted, not a problem.
	baseLine := 0
	if b := lastBase(entries); b > 0 {
		baseLine = entries[b].line
	}
	for _, p := range probs {
		if p.Line < baseLine {
			r.Notes = append(r.Notes, fmt.Sprintf("journal line %d: %s (before the full snapshot on line %d, where a rebuild starts; harmless)", p.Line, p.Msg, baseLine))
			continue
		}
		r.JournalProblems = append(r.JournalProblems, p)
		r.Notes = append(r.Notes, fmt.Sprintf("journal line %d: %s", p.Line, p.Msg))
	}
	r.Notes = append(r.Notes, branchRepairNote(r.JournalProblems)...)
	if r.StateErr == nil && !r.Missing && r.JournalEntries > 0 && r.JournalRevision != r.Revision {
		if w := restoredWarning(r.Revision, r.JournalRevision); w != "" {
			r.Warnings = append(r.Warnings, w)
			r.Notes = append(r.Notes, "warning: "+w)
		} else {
			r.Notes = append(r.Notes, fmt.Sprintf("journal ends at revision %d but the state is at revision %d", r.JournalRevision, r.Revision))
		}
	}
	return nil
}

func (s *Store) rebuildLocked(r *DoctorReport, moveAside bool) error {
	jt, err := s.journalTree()
	if err != nil {
		return err
	}
	if len(jt.entries) == 0 {
		// The tail is gone (deleted, or never committed): the newest sealed
		// segment begins with a snapshot too, and ends where the tail began.
		if jt, err = s.newestSegmentTree(); err != nil {
			return err
		}
	}
	entries := jt.entries
	if len(entries) == 0 {
		return errors.New("the journal has no entries: nothing to rebuild from")
	}
	// Branches merged without the driver are merged here (see journaltree.go).
	rebuilt, merges := jt.merged()
	if len(jt.markers) > 0 && !moveAside {
		return fmt.Errorf("%s holds git conflict markers (line %d); add --move-aside to keep it as %s.corrupt-<time> and write it without them, with both sides' entries and their merge", relJournal(), jt.markers[0], relJournal())
	}
	if errs, _ := core.Validate(rebuilt); len(errs) > 0 {
		return fmt.Errorf("the state rebuilt from the journal is invalid (%s); nothing written", strings.Join(errs, "; "))
	}
	data, err := encodeState(rebuilt)
	if err != nil {
		return err
	}
	if r.StateErr == nil && !r.Missing {
		cur, err := readShared(s.StatePath())
		if err != nil {
			return err
		}
		if st, err := decodeState(s.StatePath(), cur); err == nil {
			if same, _ := encodeState(st); bytes.Equal(same, data) {
				r.Notes = append(r.Notes, fmt.Sprintf("the state file matches the journal (revision %d); nothing to rebuild", rebuilt.Revision))
				return nil
			}
		}
	}
	if !r.Missing {
		if !moveAside {
			what := "is damaged"
			if r.StateErr == nil {
				what = fmt.Sprintf("differs from the journal (state revision %d, journal revision %d)", r.Revision, rebuilt.Revision)
			}
			return fmt.Errorf("%s %s; add --move-aside to keep it as %s.corrupt-<time> and write the state rebuilt from the journal", relState(), what, relState())
		}
		if err := s.moveAside(r); err != nil {
			return err
		}
	}
	s.removeTemps()
	if err := WriteFile(s.StatePath(), data); err != nil {
		return err
	}
	r.Rebuilt = true
	r.Notes = append(r.Notes, fmt.Sprintf("rebuilt %s from %s (revision %d, %s)", relState(), core.CountNoun(len(entries), "journal entry"), rebuilt.Revision, core.CountNoun(len(rebuilt.Tasks), "task")))
	return s.journalMerges(r, jt, rebuilt, merges)
}

// moveAside renames the state file to state.json.corrupt-<UTC time>, never
// replacing an earlier one.
func (s *Store) moveAside(r *DoctorReport) error {
	dest, err := moveAsideFile(s.StatePath())
	if err != nil {
		return err
	}
	r.MovedAside = dest
	r.Notes = append(r.Notes, "moved "+relState()+" aside to "+dest)
	return nil
}

// moveAsideFile renames path to path.corrupt-<UTC time> (with -2, -3, ...
// when taken) and returns the new name.
func moveAsideFile(path string) (string, error) {
	base := path + ".corrupt-" + nowUTC().Format("20060102T150405Z")
	dest := base
	for i := 2; exists(dest); i++ {
		dest = fmt.Sprintf("%s-%d", base, i)
	}
	if err := os.Rename(path, dest); err != nil {
		return "", fmt.Errorf("move aside: %w", err)
	}
	return dest, nil
}

// kindKeepState is the journal kind of doctor --keep-state's snapshot.
const kindKeepState = "keep-state"

// KeepState makes a state file older than the journal (restoredWarning)
// the state: it journals that file as a full snapshot at the revision after
// the journal's last, so writes go on from it and a rebuild gives it back.
// The journal's newer entries stay in the journal, before the snapshot.
// It returns a sentence saying what was done, or that nothing was (the
// state is not older than the journal). Errors are Read's (*StateError),
// lock, I/O and ctx's.
func (s *Store) KeepState(ctx context.Context) (string, error) {
	h, err := s.lock(ctx)
	if err != nil {
		return "", err
	}
	defer h.unlock()
	st, err := s.Read()
	if err != nil {
		return "", err
	}
	journal, err := s.journalBefore()
	if err != nil {
		return "", err
	}
	if journal <= st.Revision {
		return fmt.Sprintf("the state file is not older than the journal (state revision %d, journal revision %d); nothing kept", st.Revision, journal), nil
	}
	next := *st
	next.Revision = s.nextRevision(st.Revision, journal)
	text := fmt.Sprintf("kept %s at revision %d as revision %d (the journal's revisions %d-%d stay in it, before this snapshot)", relState(), st.Revision, next.Revision, st.Revision+1, journal)
	if err := s.persist(st, &next, journal, kindKeepState, nil, text); err != nil {
		return "", err
	}
	return text, nil
}
