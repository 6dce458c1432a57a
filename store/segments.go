package store

import (
	"bufio"
	"bytes"
	"cmp"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/planls/planls/core"
	"github.com/planls/planls/internal/lazy"
)

// segmentRE is a sealed segment's file name (segmentName): first and last
// revision, the content hash.
var segmentRE = lazy.Regexp(`^([0-9]{10})-([0-9]{10})-[0-9a-f]{12}\.jsonl\.gz$`)

// segment is one sealed file of the journal: its path relative to DirName
// (slash-separated, "journal/<name>") and the revisions it spans.
type segment struct {
	name        string
	first, last int64
}

// segments lists the sealed segments, ordered by their revisions (then by
// name: two branches' segments can span the same ones). Files that are not
// segments are ignored; no directory means no segments.
func (s *Store) segments() ([]segment, error) {
	ents, err := os.ReadDir(s.SealDir())
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []segment
	for _, e := range ents {
		m := segmentRE().FindStringSubmatch(e.Name())
		if m == nil || !e.Type().IsRegular() {
			continue
		}
		first, _ := strconv.ParseInt(m[1], 10, 64)
		last, _ := strconv.ParseInt(m[2], 10, 64)
		out = append(out, segment{name: SealDirName + "/" + e.Name(), first: first, last: last})
	}
	slices.SortFunc(out, func(a, b segment) int {
		return cmp.Or(cmp.Compare(a.first, b.first), cmp.Compare(a.last, b.last), cmp.Compare(a.name, b.name))
	})
	return out, nil
}

// readSegment returns the uncompressed bytes of the sealed segment name
// (relative to DirName, as a snapshot's params give it). A name that is
// not a segment of this directory (a hand-edited params pointing
// elsewhere) is refused.
func (s *Store) readSegment(name string) ([]byte, error) {
	dir, base := path.Split(name)
	if dir != SealDirName+"/" || !segmentRE().MatchString(base) {
		return nil, fmt.Errorf("%q is not a sealed journal segment", name)
	}
	f, err := os.Open(filepath.Join(s.SealDir(), base))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s/%s: %w", DirName, name, err)
	}
	var buf bytes.Buffer
	if _, err := io.Copy(&buf, zr); err != nil {
		return nil, fmt.Errorf("%s/%s: %w", DirName, name, err)
	}
	return buf.Bytes(), nil
}

// sealedNotes are doctor's lines about the sealed history: how many
// segments and which revisions they hold, and each HistoryGap (historyGaps:
// revisions no segment here holds between the first and the last, a first
// segment whose snapshot names an older one that is not here, and a
// segment the tail's snapshot names that is not here; that history is then
// in another clone only: it was not committed, or was removed). tail is the
// tail's entries. None without segments or a snapshot.
func (s *Store) sealedNotes(tail []JournalEntry) ([]string, error) {
	segs, err := s.segments()
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", s.SealDir(), err)
	}
	var out []string
	if len(segs) > 0 {
		out = append(out, fmt.Sprintf("sealed history: %s in %s/%s/, revisions %d–%d",
			core.CountNoun(len(segs), "segment"), DirName, SealDirName, segs[0].first, segs[len(segs)-1].last))
	}
	for _, g := range s.historyGaps(segs, tail) {
		if g.Segment != "" {
			out = append(out, fmt.Sprintf("sealed history: %s/%s, which holds the changes before revision %d, is missing (the state is whole; the history before it is only where it was sealed: commit %s/%s/)",
				DirName, g.Segment, g.To+1, DirName, SealDirName))
		} else {
			revs := fmt.Sprintf("revisions %d–%d", g.From, g.To)
			if g.From == g.To {
				revs = fmt.Sprintf("revision %d", g.From)
			}
			out = append(out, fmt.Sprintf("sealed history: no segment in %s/%s/ holds the changes of %s (one was not committed, or was removed; the state is whole, and that history is only where it was sealed: commit %s/%s/)",
				DirName, SealDirName, revs, DirName, SealDirName))
		}
	}
	return out, nil
}

// HistoryGap is sealed history this clone does not have: no file here
// holds the changes of revisions From through To (inclusive, From ≥ 1).
// Segment is the missing segment (relative to DirName, "journal/<name>")
// when a snapshot names it; "" for revisions that fall between two
// segments here. The state is whole: only History lacks those changes.
type HistoryGap struct {
	From, To int64
	Segment  string
}

// HistoryGaps returns the sealed history missing from this clone, oldest
// first; none in the usual case. A segment that was not committed, or was
// removed from .planls/journal/, leaves one: History then gives the
// changes around it only. Errors are I/O (reading the tail or the
// directory).
func (s *Store) HistoryGaps() ([]HistoryGap, error) {
	tail, _, err := ReadJournal(s.JournalPath())
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", s.JournalPath(), err)
	}
	segs, err := s.segments()
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", s.SealDir(), err)
	}
	return s.historyGaps(segs, tail), nil
}

// historyGaps finds the sealed history missing before the newest segment
// here and before the tail. Each seal starts its segment (and the tail
// after it) with a snapshot that names the segment before and restates
// the state at the revision that segment ends at, so the segments of every
// branch chain back to the journal's first entry without a gap; a gap is a
// segment that was never committed or was removed. Only a first segment
// that starts after revision 1 is opened, to read which segment it
// follows.
func (s *Store) historyGaps(segs []segment, tail []JournalEntry) []HistoryGap {
	var out []HistoryGap
	if len(segs) > 0 {
		if first := segs[0]; first.first > 1 {
			if prev := s.segmentFollows(first.name); prev != "" {
				out = append(out, HistoryGap{From: 1, To: first.first, Segment: prev})
			}
		}
		reach := segs[0].last
		for _, g := range segs[1:] {
			if g.first > reach {
				out = append(out, HistoryGap{From: reach + 1, To: g.first})
			}
			reach = max(reach, g.last)
		}
	}
	for _, e := range tail {
		var sp sealParams
		if e.Kind != kindSnapshot || json.Unmarshal(e.Params, &sp) != nil || sp.Sealed == "" {
			continue
		}
		if slices.ContainsFunc(segs, func(g segment) bool { return g.name == sp.Sealed }) {
			continue
		}
		// What is missing starts after the newest segment here that ends
		// before the snapshot.
		from := int64(1)
		for _, g := range segs {
			if g.last < e.Revision {
				from = max(from, g.last+1)
			}
		}
		out = append(out, HistoryGap{From: from, To: e.Revision, Segment: sp.Sealed})
	}
	return out
}

// segmentFollows is the segment whose seal the segment name starts with
// (its first line's snapshot names it), "" when it starts the journal or
// cannot be read.
func (s *Store) segmentFollows(name string) string {
	f, err := os.Open(filepath.Join(s.SealDir(), path.Base(name)))
	if err != nil {
		return ""
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return ""
	}
	line, _ := bufio.NewReader(zr).ReadBytes('\n')
	e, ok := parseEntry(bytes.TrimSpace(line))
	var sp sealParams
	if !ok || e.Kind != kindSnapshot || json.Unmarshal(e.Params, &sp) != nil {
		return ""
	}
	return sp.Sealed
}

// newestSegmentTree is the journal tree of the newest sealed segment, for a
// rebuild without a tail; an empty tree when there is none.
func (s *Store) newestSegmentTree() (*journalTree, error) {
	segs, err := s.segments()
	if err != nil || len(segs) == 0 {
		return &journalTree{}, err
	}
	data, err := s.readSegment(segs[len(segs)-1].name)
	if err != nil {
		return nil, err
	}
	jt, err := readTree(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	jt.linkSeals(s.readSegment)
	return jt, nil
}

// sealedFork finds, for a rebuild, where two of jt's branches parted when
// jt holds no entry of both: each branch's history is its entries in jt
// back to its seal's snapshot, and before that the segments the snapshots
// name, one behind the other. The fork is the last entry of a's history
// that b's also holds, and its state is a's history replayed up to it.
// nil when the histories share nothing or a segment cannot be read.
func (s *Store) sealedFork(jt *journalTree) func(a, b int) *core.State {
	return func(a, b int) *core.State {
		ha, hb := s.branchHistory(jt, a), s.branchHistory(jt, b)
		inB := make(map[string]bool, len(hb))
		for i := range hb {
			inB[hb[i].key()] = true
		}
		for f := len(ha) - 1; f >= 0; f-- {
			if !inB[ha[f].key()] {
				continue
			}
			return Replay(ha[:f+1])
		}
		return nil
	}
}

// branchHistory is the history of jt's entry i, oldest first: its chain of
// first parents in jt and, behind a seal's snapshot at the chain's start,
// the sealed segments it names in turn (each segment starts with the
// snapshot of the seal before it, or with the journal's first entry).
func (s *Store) branchHistory(jt *journalTree, i int) []JournalEntry {
	var chain []JournalEntry
	for j := i; ; {
		chain = append(chain, jt.entries[j])
		if len(jt.parents[j]) == 0 {
			break
		}
		j = jt.parents[j][0]
	}
	slices.Reverse(chain)
	for seen := map[string]bool{}; len(chain) > 0 && chain[0].Kind == kindSnapshot; {
		var sp sealParams
		if json.Unmarshal(chain[0].Params, &sp) != nil || seen[sp.Sealed] {
			break
		}
		seen[sp.Sealed] = true
		data, err := s.readSegment(sp.Sealed)
		if err != nil {
			break
		}
		var seg []JournalEntry
		for _, l := range journalLines(data) {
			if e, ok := parseEntry(l); ok {
				seg = append(seg, e)
			}
		}
		chain = append(seg, chain[1:]...)
	}
	return chain
}
