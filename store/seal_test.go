package store

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/planls/planls/core"
)

// workload makes n commits: four creates, then owner, note and status
// changes to those tasks in turn, and last the completion of #2.
func workload(t testing.TB, s *Store, n int) {
	t.Helper()
	for i := 1; i <= 4; i++ {
		call(t, s, fmt.Sprintf(`{"action":"create","subject":"task %d"}`, i))
	}
	for i := 4; i < n-1; i++ {
		id := 1 + i%4
		switch i % 3 {
		case 0:
			call(t, s, fmt.Sprintf(`{"action":"update","id":%d,"owner":"o%d"}`, id, i))
		case 1:
			call(t, s, fmt.Sprintf(`{"action":"update","id":%d,"note":"note %d with some words to make it longer"}`, id, i))
		default:
			status := "in_progress"
			if st := mustRead(t, s); st.Tasks[id-1].Status == core.InProgress {
				status = "pending"
			}
			call(t, s, fmt.Sprintf(`{"action":"update","id":%d,"status":%q}`, id, status))
		}
	}
	call(t, s, `{"action":"update","id":2,"status":"completed","evidence":"store/seal_test.go:1"}`)
}

// history is every entry History gives.
func history(t testing.TB, s *Store) []HistoryEntry {
	t.Helper()
	var out []HistoryEntry
	if err := s.History(context.Background(), func(e HistoryEntry) error {
		out = append(out, e)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// A long run of commits seals the journal again and again: the tail stays
// small, starts with a snapshot that replays to the state, doctor is
// clean and says what is sealed, the history still holds every change
// once, with its statuses, and a rebuild from the tail is exact.
func TestSealBoundsTheTail(t *testing.T) {
	t.Setenv(EnvSealBytes, "4096")
	s := Open(t.TempDir(), "test")
	const n = 120
	workload(t, s, n)
	segs, err := s.segments()
	if err != nil || len(segs) < 3 {
		t.Fatalf("segments %v, %v", segs, err)
	}
	tail, _ := os.ReadFile(s.JournalPath())
	state := stateBytes(t, s)
	if int64(len(tail)) > 4096+int64(len(state))+2048 {
		t.Errorf("tail is %d bytes (limit 4096 + state %d)", len(tail), len(state))
	}
	entries, probs, err := ReadJournal(s.JournalPath())
	if err != nil || len(probs) > 0 || len(entries) == 0 || entries[0].Kind != kindSnapshot || !entries[0].Full {
		t.Fatalf("tail: %d entries, problems %v, %v, first %+v", len(entries), probs, err, entries[0])
	}
	a, _ := json.Marshal(Replay(entries))
	b, _ := json.Marshal(mustRead(t, s))
	if !bytes.Equal(a, b) {
		t.Errorf("the tail replays to\n%s\nnot the state\n%s", a, b)
	}
	rep, err := s.Doctor(context.Background(), false, false)
	if err != nil || !rep.OK() {
		t.Fatalf("doctor: %v %+v", err, rep)
	}
	if want := fmt.Sprintf("sealed history: %d segments in .planls/journal/, revisions 1–", len(segs)); !strings.Contains(strings.Join(rep.Notes, "\n"), want) {
		t.Errorf("doctor's notes lack %q:\n%s", want, strings.Join(rep.Notes, "\n"))
	}
	h := history(t, s)
	if len(h) != n {
		t.Fatalf("history has %d entries, want %d", len(h), n)
	}
	for i, e := range h {
		if e.Revision != int64(i+1) || e.Kind != "call" || len(e.Changes) != 1 {
			t.Fatalf("history[%d] = revision %d kind %s, %d changes", i, e.Revision, e.Kind, len(e.Changes))
		}
	}
	last := h[n-1].Changes[0]
	if last.ID != 2 || last.From == core.Completed || last.To != core.Completed || last.Task.Evidence != "store/seal_test.go:1" || last.UID == "" {
		t.Errorf("the completion: %+v", last)
	}
	if c := h[0].Changes[0]; c.From != "" || c.To != core.Pending || c.Subject != "task 1" {
		t.Errorf("the first create: %+v", c)
	}
	// The state file lost: rebuilt from the tail, byte for byte.
	if err := os.Remove(s.StatePath()); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Read(); err == nil {
		t.Fatal("a lost state file with a journal read as empty")
	}
	if rep, err := s.Doctor(context.Background(), true, false); err != nil || !rep.Rebuilt {
		t.Fatalf("rebuild: %v %+v", err, rep)
	}
	if got := stateBytes(t, s); !bytes.Equal(got, state) {
		t.Errorf("rebuilt\n%s\nwant\n%s", got, state)
	}
}

// Sealing off keeps one growing file, as planls did before.
func TestSealOff(t *testing.T) {
	t.Setenv(EnvSealBytes, "off")
	s := Open(t.TempDir(), "test")
	workload(t, s, 60)
	if segs, _ := s.segments(); len(segs) != 0 {
		t.Errorf("sealed with sealing off: %v", segs)
	}
	if entries, _, _ := ReadJournal(s.JournalPath()); len(entries) != 60 {
		t.Errorf("%d entries in the journal", len(entries))
	}
}

// With the tail gone too, the newest segment is the way back: a rebuild
// gives the state as it was sealed, never an empty one.
func TestRebuildWithoutTail(t *testing.T) {
	t.Setenv(EnvSealBytes, "4096")
	s := Open(t.TempDir(), "test")
	workload(t, s, 80)
	segs, _ := s.segments()
	if len(segs) == 0 {
		t.Fatal("nothing sealed")
	}
	for _, p := range []string{s.StatePath(), s.JournalPath()} {
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Read(); err == nil || !strings.Contains(err.Error(), "run planls doctor --rebuild") {
		t.Fatalf("read without state and tail: %v", err)
	}
	rep, err := s.Doctor(context.Background(), true, false)
	if err != nil || !rep.Rebuilt {
		t.Fatalf("rebuild: %v %+v", err, rep)
	}
	if st := mustRead(t, s); st.Revision != segs[len(segs)-1].last || len(st.Tasks) != 4 {
		t.Errorf("rebuilt revision %d with %d tasks, want revision %d", st.Revision, len(st.Tasks), segs[len(segs)-1].last)
	}
	// Writing goes on after the journal's revisions.
	call(t, s, `{"action":"create","subject":"after"}`)
	if rep, _ := s.Doctor(context.Background(), false, false); !rep.OK() {
		t.Errorf("doctor after the repair: %+v", rep.Notes)
	}
}

// A seal cut short after its segment was written (the tail not yet
// replaced) leaves two segments that share entries; the history gives
// each entry once, and doctor names a segment the tail's snapshot needs
// that is not there.
func TestHistoryAcrossOverlappingSegments(t *testing.T) {
	t.Setenv(EnvSealBytes, "off")
	s := Open(t.TempDir(), "test")
	workload(t, s, 30)
	tail, _ := os.ReadFile(s.JournalPath())
	if _, err := s.writeSegment(tail, mustRead(t, s)); err != nil { // the crash: tail kept
		t.Fatal(err)
	}
	t.Setenv(EnvSealBytes, "4096")
	for i := range 20 {
		call(t, s, fmt.Sprintf(`{"action":"update","id":1,"owner":"x%d"}`, i))
	}
	segs, _ := s.segments()
	if len(segs) < 2 || segs[0].first != segs[1].first {
		t.Fatalf("segments %v: want two from revision 1", segs)
	}
	h := history(t, s)
	if len(h) != 50 {
		t.Errorf("history has %d entries, want 50", len(h))
	}
	seen := map[int64]bool{}
	for _, e := range h {
		if seen[e.Revision] {
			t.Errorf("revision %d given twice", e.Revision)
		}
		seen[e.Revision] = true
	}
	entries, _, _ := ReadJournal(s.JournalPath())
	var sp sealParams
	_ = json.Unmarshal(entries[0].Params, &sp)
	if err := os.Remove(filepath.Join(s.Dir(), sp.Sealed)); err != nil {
		t.Fatal(err)
	}
	rep, _ := s.Doctor(context.Background(), false, false)
	if !strings.Contains(strings.Join(rep.Notes, "\n"), "sealed history: .planls/"+sp.Sealed+", which holds the changes before revision") {
		t.Errorf("doctor does not name the missing segment:\n%s", strings.Join(rep.Notes, "\n"))
	}
}

// A journal written before entries left out an unchanged head or recorded
// prior statuses still reads: History takes each change's "from" from the
// task's record before it.
func TestHistoryOfAnOldJournal(t *testing.T) {
	s := Open(t.TempDir(), "test")
	if err := os.MkdirAll(s.Dir(), 0o755); err != nil {
		t.Fatal(err)
	}
	head := `"head":{"version":1,"revision":%d,"nextId":2}`
	lines := []string{
		fmt.Sprintf(`{"revision":1,"base":0,"time":"2026-01-01T00:00:00Z","actor":"cli","kind":"call","params":{"action":"create"},"result":"Created #1: a (pending)",`+head+`,"tasks":[{"id":1,"subject":"a","status":"pending","version":1,"createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:00:00Z"}]}`, 1),
		fmt.Sprintf(`{"revision":2,"base":1,"time":"2026-01-01T00:01:00Z","actor":"mcp","kind":"call","params":{"action":"update"},"result":"Updated #1 (pending → completed)",`+head+`,"tasks":[{"id":1,"subject":"a","status":"completed","evidence":"a_test.go:1","version":2,"createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:01:00Z"}]}`, 2),
	}
	if err := os.WriteFile(s.JournalPath(), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h := history(t, s)
	if len(h) != 2 {
		t.Fatalf("%d entries", len(h))
	}
	c := h[1].Changes[0]
	if c.From != core.Pending || c.To != core.Completed || c.UID != core.DerivedUID(1, h[0].Changes[0].Task.CreatedAt) || h[1].Actor != "mcp" {
		t.Errorf("the old completion: %+v (actor %s)", c, h[1].Actor)
	}
}

// An entry of a change that leaves the top-level fields alone has no
// head, and records the status its task had.
func TestEntryLeavesOutAnUnchangedHead(t *testing.T) {
	s := Open(t.TempDir(), "test")
	call(t, s, `{"action":"create","subject":"a"}`)
	call(t, s, `{"action":"update","id":1,"status":"in_progress"}`)
	entries, _, _ := ReadJournal(s.JournalPath())
	if len(entries[0].Head) == 0 || entries[0].Prior != nil {
		t.Errorf("a create changes nextId: head %s, prior %v", entries[0].Head, entries[0].Prior)
	}
	if len(entries[1].Head) != 0 || entries[1].Prior["1"] != core.Pending {
		t.Errorf("an update: head %s, prior %v", entries[1].Head, entries[1].Prior)
	}
	a, _ := json.Marshal(Replay(entries))
	b, _ := json.Marshal(mustRead(t, s))
	if !bytes.Equal(a, b) {
		t.Errorf("replay\n%s\nstate\n%s", a, b)
	}
}

// History decodes with segmentio/encoding/json for speed; on every kind of
// line the store writes it must give what encoding/json gives.
func TestHistoryDecodesAsEncodingJSON(t *testing.T) {
	t.Setenv(EnvSealBytes, "off")
	s := Open(t.TempDir(), "test")
	workload(t, s, 20)
	call(t, s, `{"action":"update","id":1,"metadata":{"n":1.5,"deep":{"list":[1,"two",null,true]},"uni":"caf\u00e9 \ud83d\ude00 <&>"}}`)
	call(t, s, `{"action":"update","id":3,"subject":"tab\there \"quoted\" \\ back","description":""}`)
	call(t, s, `{"action":"clear"}`)
	tail, _ := os.ReadFile(s.JournalPath())
	lines := journalLines(tail)
	got := decodeLines(lines)
	for i, l := range lines {
		want, ok := parseEntry(l)
		if !ok || got[i] == nil {
			t.Fatalf("line %d: parsed %v / %v", i+1, ok, got[i] != nil)
		}
		a, _ := json.Marshal(want)
		b, _ := json.Marshal(*got[i])
		if !bytes.Equal(a, b) {
			t.Errorf("line %d:\nencoding/json %s\nsegmentio     %s", i+1, a, b)
		}
	}
	if got := decodeLines([][]byte{[]byte(`{"revision":`), []byte(`<<<<<<< HEAD`)}); got[0] != nil || got[1] != nil {
		t.Errorf("bad lines decoded: %+v", got)
	}
}

// A tail holding two branches' entries merged as text (a union resolved by
// hand: no markers) is not sealed: doctor --rebuild still merges them.
func TestNoSealOfATextMerge(t *testing.T) {
	t.Setenv(EnvSealBytes, "off")
	s := Open(t.TempDir(), "test")
	workload(t, s, 10)
	tail, _ := os.ReadFile(s.JournalPath())
	lines := journalLines(tail)
	// The last two entries again, as another branch's: a union of both sides.
	theirs := bytes.Join(lines[len(lines)-2:], []byte("\n"))
	theirs = bytes.ReplaceAll(theirs, []byte(`"actor":"test"`), []byte(`"actor":"theirs"`))
	union := append(append(bytes.Clone(tail), theirs...), '\n')
	if !mergedAsTextIn(union) {
		t.Fatal("the union is not seen as merged as text")
	}
	if line, err := s.writeSegment(union, mustRead(t, s)); line != nil || err != nil {
		t.Errorf("sealed a text merge: %s %v", line, err)
	}
	if segs, _ := s.segments(); len(segs) != 0 {
		t.Errorf("segments written: %v", segs)
	}
	if line, err := s.writeSegment(tail, mustRead(t, s)); line == nil || err != nil {
		t.Errorf("a clean tail: %s %v", line, err)
	}
}

// sealedHistory is a store whose 160 changes are sealed into at least four
// segments (4 KiB each) and a tail, with those segments oldest first.
func sealedHistory(t *testing.T) (*Store, []segment) {
	t.Helper()
	t.Setenv(EnvSealBytes, "4096")
	s := Open(t.TempDir(), "test")
	workload(t, s, 160)
	segs, err := s.segments()
	if err != nil || len(segs) < 4 {
		t.Fatalf("segments %v, %v", segs, err)
	}
	return s, segs
}

// A sealed segment missing from the middle of the history, or the first
// one, is named by doctor: the tail's snapshot names only the newest.
func TestDoctorNamesEveryMissingSegment(t *testing.T) {
	s, segs := sealedHistory(t)
	notes := func() string {
		t.Helper()
		rep, err := s.Doctor(context.Background(), false, false)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(rep.Notes, "\n")
	}
	if n := notes(); strings.Contains(n, "missing") || strings.Contains(n, "no segment") {
		t.Fatalf("doctor with every segment:\n%s", n)
	}
	gone := segs[1]
	if err := os.Remove(filepath.Join(s.Root, DirName, gone.name)); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("sealed history: no segment in .planls/journal/ holds the changes of revisions %d–%d (", gone.first+1, gone.last)
	if n := notes(); !strings.Contains(n, want) {
		t.Errorf("doctor without %s lacks %q:\n%s", gone.name, want, n)
	}
	if err := os.Remove(filepath.Join(s.Root, DirName, segs[0].name)); err != nil {
		t.Fatal(err)
	}
	want = fmt.Sprintf("sealed history: .planls/%s, which holds the changes before revision %d, is missing", gone.name, gone.last+1)
	if n := notes(); !strings.Contains(n, want) {
		t.Errorf("doctor without the first two segments lacks %q:\n%s", want, n)
	}
}

// HistoryGaps names the sealed history missing here, as doctor does: a
// segment gone from the middle, the first ones, and the newest (the one
// the tail's snapshot names).
func TestHistoryGaps(t *testing.T) {
	s, segs := sealedHistory(t)
	gaps := func() []HistoryGap {
		t.Helper()
		g, err := s.HistoryGaps()
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	if g := gaps(); len(g) != 0 {
		t.Fatalf("gaps with every segment: %+v", g)
	}
	rm := func(g segment) {
		t.Helper()
		if err := os.Remove(filepath.Join(s.Root, DirName, g.name)); err != nil {
			t.Fatal(err)
		}
	}
	rm(segs[1])
	if g, want := gaps(), []HistoryGap{{From: segs[1].first + 1, To: segs[1].last}}; !slices.Equal(g, want) {
		t.Errorf("without %s: %+v, want %+v", segs[1].name, g, want)
	}
	rm(segs[0])
	if g, want := gaps(), []HistoryGap{{From: 1, To: segs[1].last, Segment: segs[1].name}}; !slices.Equal(g, want) {
		t.Errorf("without the first two: %+v, want %+v", g, want)
	}
	newest := segs[len(segs)-1]
	rm(newest)
	want := []HistoryGap{{From: 1, To: segs[1].last, Segment: segs[1].name},
		{From: segs[len(segs)-2].last + 1, To: newest.last, Segment: newest.name}}
	if g := gaps(); !slices.Equal(g, want) {
		t.Errorf("without the newest too: %+v, want %+v", g, want)
	}
}
