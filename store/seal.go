package store

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/planls/planls/core"
)

// The journal is kept in two parts so that no everyday command pays for
// its age. .planls/journal.jsonl is the live tail: the entries since the
// last seal, after a snapshot entry that restates the whole state at that
// point. When the tail outgrows SealBytes (plus the size of the state, so
// a big plan does not seal at every commit), the commit that crossed it
// seals it: the tail's bytes, as they are, go into a gzip file under
// .planls/journal/ that is never written again, and the tail starts over
// with a snapshot of the state just committed. Check, doctor, a write and
// a rebuild read only the tail, whose size is bounded; the whole history
// (History, the report) reads the sealed files too.
//
// The history lives in sealed files in the work tree, not only in git's
// commits of the tail, so that it needs no git (a folder without git, a
// shallow clone), loses nothing that was written between two commits, and
// reads in one pass. A sealed file is immutable and named by its content,
// so git stores each once, never diffs it, and two branches that sealed
// different entries add two files side by side, with nothing to merge.
// gzip shrinks the entries about fifteen-fold (they repeat their keys and
// each task's text).

// SealDirName is the directory of sealed journal segments inside DirName.
const SealDirName = "journal"

// SealBytes is the default size, in bytes, past which a commit seals the
// tail (beyond the size of the state file itself). A tail holds about 500
// changes at this size.
const SealBytes = 256 << 10

// EnvSealBytes overrides SealBytes for this process: a size in bytes, or
// "off" to never seal (the journal then grows as one file, as it did
// before; benchmarks compare the two).
const EnvSealBytes = "PLANLS_JOURNAL_SEAL_BYTES"

// kindSnapshot is the journal kind of the entry that starts a tail after a
// seal: a full snapshot of the state at its revision, recording no change.
const kindSnapshot = "snapshot"

// sealParams are a snapshot entry's params: the sealed file that holds the
// entries before it, relative to DirName.
type sealParams struct {
	Sealed string `json:"sealed"`
}

// sealLimit is the tail size past which a commit seals, or 0 for never.
func sealLimit() int64 {
	v := os.Getenv(EnvSealBytes)
	if v == "off" {
		return 0
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil && n > 0 {
		return n
	}
	return SealBytes
}

// SealDir returns Root/.planls/journal.
func (s *Store) SealDir() string { return filepath.Join(s.Root, DirName, SealDirName) }

// maybeSeal seals the tail when its size (tail, from the append just
// made) is past the limit. st is the state just committed, stateBytes
// the size of its file. The lock must be held. It returns the tail's file
// info after a seal (nil when it did not seal or cannot tell). A seal that
// fails leaves the tail as it was: the next commit tries again.
func (s *Store) maybeSeal(st *core.State, tail os.FileInfo, stateBytes int) (os.FileInfo, error) {
	limit := sealLimit()
	if limit == 0 || tail == nil || tail.Size() <= limit+int64(stateBytes) {
		return nil, nil
	}
	return s.seal(st)
}

// seal moves the tail into a sealed segment and starts a new tail with a
// snapshot of st, which must be the state the tail ends at. The segment is
// written (and synced) before the tail is replaced, so a crash in between
// leaves a segment whose entries the tail still holds too; History reads
// each entry once whatever file it is in. A tail holding git conflict
// markers is not sealed (doctor repairs it first).
func (s *Store) seal(st *core.State) (os.FileInfo, error) {
	data, err := os.ReadFile(s.JournalPath())
	if err != nil {
		return nil, fmt.Errorf("seal: %w", err)
	}
	line, err := s.writeSegment(data, st)
	if err != nil || line == nil {
		return nil, err
	}
	if err := WriteFile(s.JournalPath(), line); err != nil {
		return nil, fmt.Errorf("seal: %w", err)
	}
	fi, err := os.Stat(s.JournalPath())
	if err != nil {
		return nil, nil
	}
	return fi, nil
}

// writeSegment writes tail (a tail's bytes, ending at st) as a sealed
// segment and returns the line the new tail starts with; nil (and nothing
// written) for a tail that holds no entry, or another branch's entries
// merged as text (with or without git's conflict markers): sealing would
// take them out of the reach of doctor --rebuild, which merges them.
func (s *Store) writeSegment(tail []byte, st *core.State) ([]byte, error) {
	if conflictLine(tail) > 0 || mergedAsTextIn(tail) {
		return nil, nil
	}
	first, last, ok := revisionSpan(tail)
	if !ok {
		return nil, nil
	}
	name := segmentName(first, last, tail)
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if _, err := zw.Write(tail); err != nil {
		return nil, fmt.Errorf("seal: %w", err)
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("seal: %w", err)
	}
	if err := os.MkdirAll(s.SealDir(), 0o755); err != nil {
		return nil, fmt.Errorf("seal: %w", err)
	}
	if err := WriteFile(filepath.Join(s.SealDir(), name), gz.Bytes()); err != nil {
		return nil, fmt.Errorf("seal: %w", err)
	}
	line, err := snapshotLine(st, SealDirName+"/"+name, s.actor(), nowUTC())
	if err != nil {
		return nil, fmt.Errorf("seal: %w", err)
	}
	return line, nil
}

// snapshotLine is the journal line that starts a tail: a full snapshot of
// st at its revision (revision and base alike: it changes nothing), naming
// the sealed file before it.
func snapshotLine(st *core.State, sealed, actor string, now time.Time) ([]byte, error) {
	e, err := newEntry(st, st, true)
	if err != nil {
		return nil, err
	}
	p, err := json.Marshal(sealParams{Sealed: sealed})
	if err != nil {
		return nil, err
	}
	e.Time, e.Actor, e.Kind, e.Params = now.UTC(), actor, kindSnapshot, p
	e.Result = "sealed the journal before revision " + strconv.FormatInt(st.Revision+1, 10) + " into " + DirName + "/" + sealed
	return marshal(e, "")
}

// segmentName is the file name of a sealed segment: its first and last
// revision (zero-padded, so names sort by them) and 12 hex digits of the
// sha256 of its uncompressed bytes, so two branches that sealed different
// entries never write the same name.
func segmentName(first, last int64, data []byte) string {
	h := sha256.Sum256(data)
	return fmt.Sprintf("%010d-%010d-%s.jsonl.gz", first, last, hex.EncodeToString(h[:6]))
}

// mergedAsTextIn reports a tail in which two branches' entries follow one
// another without the merge driver's merge entry (doctor's "merged as
// text" problem).
func mergedAsTextIn(tail []byte) bool {
	_, probs, _ := readJournal(bytes.NewReader(tail))
	return slices.ContainsFunc(probs, func(p JournalProblem) bool { return strings.HasSuffix(p.Msg, mergedAsText) })
}

// revisionSpan is the revisions of the first and the last line of a
// journal that parse; ok is false when none does.
func revisionSpan(data []byte) (first, last int64, ok bool) {
	for _, l := range journalLines(data) {
		var e struct {
			Revision *int64 `json:"revision"`
		}
		if json.Unmarshal(l, &e) != nil || e.Revision == nil {
			continue
		}
		if !ok {
			first, ok = *e.Revision, true
		}
		last = *e.Revision
	}
	return first, last, ok
}
