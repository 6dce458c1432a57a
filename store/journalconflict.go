package store

import (
	"fmt"
	"os"
)

// JournalConflict is the warning for a journal that git merged as text and
// left conflict markers in (the line of the first, as doctor finds it) while
// state.json still decodes: status and check show it, and a write is refused
// with it, since an entry appended now would land after git's conflict block
// and a rebuild would have to untangle it. "" when the journal holds no
// markers or cannot be read. It reads the whole journal: about 1 ms for
// 10,000 entries (3 MB, BenchmarkJournalConflict), next to a commit's 1.7 ms.
func (s *Store) JournalConflict() string {
	data, err := os.ReadFile(s.JournalPath())
	if err != nil {
		return ""
	}
	line := conflictLine(data)
	if line == 0 {
		return ""
	}
	return fmt.Sprintf("%s holds git conflict markers (line %d): git merged it as text, without the planls merge driver; planls doctor --rebuild --move-aside merges both sides' entries and writes it without them (then git add %s)", relJournal(), line, DirName)
}

// journalConflictError refuses a write while JournalConflict says so; nil
// otherwise. The lock must be held, so no rebuild is halfway.
func (s *Store) journalConflictError() error {
	msg := s.JournalConflict()
	if msg == "" {
		return nil
	}
	return fmt.Errorf("nothing written: %s", msg)
}
