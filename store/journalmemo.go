package store

import "os"

// A commit used to read the whole journal twice before writing: for git
// conflict markers (JournalConflict) and for its last revision
// (lastRevision). In a long-lived writer the journal is almost always
// exactly as the same Store's previous commit left it, so that Store keeps
// the journal's file info after its append and skips both reads while the
// file still matches. The scan alone is about 1 ms for 10,000 entries
// (BenchmarkJournalConflict) and grows with the history; an MCP session's
// update is about 0.6 ms of disk floor here (BenchmarkUpdateVsFloor).

// journalBefore is the journal's last revision as lastRevision reads it,
// after refusing a journal with conflict markers (journalConflictError).
// A journal that is the same file, with the same size and modification
// time, as this Store's last append left it is neither read nor scanned:
// nobody else wrote it since, and the line appended then was a journal
// entry. Anything else (another process's append, git rewriting the file,
// a truncation) changes the size or the time and is read in full. The
// lock must be held.
func (s *Store) journalBefore() (int64, error) {
	s.seen.Lock()
	memo, rev := s.seen.journal, s.seen.journalRev
	s.seen.Unlock()
	if memo != nil {
		if fi, err := os.Stat(s.JournalPath()); err == nil && sameFileInfo(memo, fi) {
			return rev, nil
		}
	}
	if err := s.journalConflictError(); err != nil {
		return 0, err
	}
	return lastRevision(s.JournalPath()), nil
}

// noteJournal records the journal as it is right after this Store appended
// the entry of revision rev (fi is the open file's info after the fsync);
// a nil fi forgets what was recorded, so the next commit reads the file.
func (s *Store) noteJournal(fi os.FileInfo, rev int64) {
	s.seen.Lock()
	s.seen.journal, s.seen.journalRev = fi, rev
	s.seen.Unlock()
}

// sameFileInfo reports whether b describes the same file as a, unchanged.
func sameFileInfo(a, b os.FileInfo) bool {
	return os.SameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime())
}
