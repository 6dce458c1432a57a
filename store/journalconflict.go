package store

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
)

// JournalConflict is the warning for a journal that git merged as text and
// left conflict markers in (the line of the first, as doctor finds it) while
// state.json still decodes: status and check show it, and a write is refused
// with it, since an entry appended now would land after git's conflict block
// and a rebuild would have to untangle it. "" when the journal holds no
// markers or cannot be read. It reads the whole journal, which only grows,
// through a fixed buffer: reading it into one slice of its size cost each
// commit a fresh allocation (and, in a CLI process, a page fault per 4 KiB)
// as the history grew — 0.9 ms per `planls todo update` at 900 KB.
func (s *Store) JournalConflict() string {
	f, err := os.Open(s.JournalPath())
	if err != nil {
		return ""
	}
	defer f.Close()
	line, err := conflictLineIn(f)
	if err != nil || line == 0 {
		return ""
	}
	return fmt.Sprintf("%s holds git conflict markers (line %d): git merged it as text, without the planls merge driver; planls doctor --rebuild --move-aside merges both sides' entries and writes it without them (then git add %s)", relJournal(), line, DirName)
}

// journalConflictError refuses a write while JournalConflict says so; nil
// otherwise. The lock must be held, so no rebuild is halfway. A Store whose
// last append left the journal as it is skips it (journalBefore).
func (s *Store) journalConflictError() error {
	msg := s.JournalConflict()
	if msg == "" {
		return nil
	}
	return fmt.Errorf("nothing written: %s", msg)
}

// conflictLineIn is conflictLine of everything r holds, read a line at a
// time through a 64 KiB buffer. A longer line (a full snapshot of a big
// plan) is not split: the rest of r is then read whole and given to
// conflictLine. Errors are r's.
func conflictLineIn(r io.Reader) (int, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	for n := 1; ; n++ {
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			head := bytes.Clone(line)
			rest, err := io.ReadAll(br)
			if err != nil {
				return 0, err
			}
			if k := conflictLine(append(head, rest...)); k > 0 {
				return n - 1 + k, nil
			}
			return 0, nil
		}
		if isConflictMarker(line) {
			return n, nil
		}
		if err == io.EOF {
			return 0, nil
		}
		if err != nil {
			return 0, err
		}
	}
}
