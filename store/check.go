package store

import (
	"fmt"

	"github.com/planls/planls/core"
)

// Check reads the state and returns its warnings: core.Validate's (dangling
// blockedBy, cycles: the seed's replay rules), closed tasks without their
// proof (see closedWithoutProof) and a state older than the journal (see
// restoredWarning) and a journal holding git conflict markers
// (JournalConflict). They are reported, never fixed. The error is the same
// as Read's (*StateError for a bad file).
func (s *Store) Check() (warnings []string, err error) {
	st, err := s.Read()
	if err != nil {
		return nil, err
	}
	warnings = warningsOf(st)
	if w := s.RestoredWarning(st); w != "" {
		warnings = append(warnings, w)
	}
	if w := s.JournalConflict(); w != "" {
		warnings = append(warnings, w)
	}
	return warnings, nil
}

// restoredWarning is the warning for a state file whose revision is below
// the journal's last one: an older copy was put back (git checkout, a
// backup). Writes are refused until one of the two repairs it names has
// run (RestoredError), since a write would make the old copy the state
// and drop the journal's newer changes from it. "" when the journal is not
// ahead (or cannot be read: journalRev < 0).
func restoredWarning(stateRev, journalRev int64) string {
	if journalRev <= stateRev {
		return ""
	}
	return fmt.Sprintf("state.json is at revision %d but the journal records %d changes: it was restored from an older copy; %s", stateRev, journalRev, restoredRepairs)
}

// restoredRepairs names the two ways out of a restored state file.
const restoredRepairs = "planls doctor --rebuild --move-aside brings back the journal's state, planls doctor --keep-state keeps this copy"

// RestoredWarning is restoredWarning for st, the state Read returned, and
// the journal as it is now: "" unless st is older than the journal.
func (s *Store) RestoredWarning(st *core.State) string {
	return restoredWarning(st.Revision, lastRevision(s.JournalPath()))
}

// RestoredError is the refusal of a write to a state file older than the
// journal (restoredWarning): nothing was written.
type RestoredError struct {
	State, Journal int64 // the state file's revision and the journal's last
}

func (e *RestoredError) Error() string {
	return fmt.Sprintf("state.json is at revision %d but the journal records %d changes: it was restored from an older copy, and a change now would drop the journal's newer ones; nothing written: %s", e.State, e.Journal, restoredRepairs)
}

func warningsOf(st *core.State) []string {
	_, warnings := core.Validate(st)
	return append(warnings, closedWithoutProof(st)...)
}

// closedWithoutProof flags tasks closed without their proof
// (core.ProofMissing): core refuses those transitions, so such a task was
// edited by hand (or predates the rule). They stay readable
// (the seed's replay rules: old completed tasks without evidence still load);
// the warning only makes the bypass visible.
func closedWithoutProof(st *core.State) []string {
	var out []string
	for i := range st.Tasks {
		if missing := core.ProofMissing(&st.Tasks[i]); missing != "" {
			out = append(out, fmt.Sprintf("#%d is %s", st.Tasks[i].ID, missing))
		}
	}
	return out
}
