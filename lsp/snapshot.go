package lsp

import (
	"encoding/json"
	"path/filepath"
	"sync"

	"go.lsp.dev/protocol"

	"github.com/planls/planls/core"
)

// snapshot is one folder as every request sees it: its plan file's text,
// the analysis of it against the state, the diagnostics computed from that
// analysis, and what the background refresh last found (HEAD, the
// verification of completed items). It is immutable once built: the
// writer (a change of buffer, disk, settings or state, or a refresh that
// landed) builds the next one under server.mu and swaps it in; requests
// read the current one without any lock (gopls's snapshots).
type snapshot struct {
	root    string // the folder's absolute OS path
	rootURI string // the client's URI for it
	uri     string // the plan's URI (the client's spelling when open)
	path    string // the plan file, "" when the folder has none
	text    []byte
	m       *mapper
	an      *core.Analysis
	// stateErr is why the state file cannot be used (the last good state
	// is analysed meanwhile).
	stateErr error
	cfg      settings
	// lines is the lineRange of each of an.Items (zero for one not in the
	// file): the diagnostics and planls/plan both place every item, and
	// each range cost two line searches and a count of code units.
	lines []protocol.Range
	// placed sums lines, component by component: snapshots whose sums
	// differ place an item differently, so their planls/plan answers
	// differ and swap need not make them to know it (making one was a
	// tenth of a keystroke's CPU at 1,000 items, BenchmarkInProcessKeystroke/repo1000,
	// and an edit moves the items below it).
	placed [4]uint64
	diags  []protocol.Diagnostic // all's; nil when shown was capped in its array
	shown  []protocol.Diagnostic // the plan file's diagnostics as clients get them (capped)
	// head is the newest commit that changes more than the plan
	// (gitHead), as the background refresh last found it (zero when
	// unknown or none): the ready evidence of a code action.
	head headCommit
	// ver is the last verification that landed; pending says it is not
	// of this snapshot's evidence and HEAD, or HEAD is not known yet (a
	// background refresh is on its way).
	ver     *verification
	pending bool
	rev     int64 // the folder's planls/stateChanged revision

	resOnce  sync.Once
	res      planResult // result's
	planOnce sync.Once
	plan     json.RawMessage // planJSON's
	pullOnce sync.Once
	pull     pullReport // pullReportOf's
}

// all is every diagnostic of the plan file, also past the publish cap.
func (sn *snapshot) all() []protocol.Diagnostic {
	if sn.diags == nil && sn.shown != nil {
		return diagnosticsOf(sn)
	}
	return sn.diags
}

// session is what requests read of the session besides the folders'
// snapshots: immutable, replaced whole when anything in it changes.
type session struct {
	caps  clientCaps
	snaps []*snapshot // one per folder with a snapshot, in folder order
}

// current is the session as requests see it now.
func (s *server) current() *session {
	if v := s.view.Load(); v != nil {
		return v
	}
	return &session{}
}

// publishView swaps in the session requests read: the client's
// capabilities and every folder's current snapshot. Caller holds mu.
func (s *server) publishView() {
	v := &session{caps: s.caps}
	for _, f := range s.folders {
		if f.snap != nil {
			v.snaps = append(v.snaps, f.snap)
		}
	}
	s.view.Store(v)
}

// planOf returns the snapshot whose plan file uri names, or nil (not a
// file URI, or not the plan of a folder).
func (v *session) planOf(uri protocol.DocumentURI) *snapshot {
	return v.innermost(string(uri), func(sn *snapshot, k string) bool { return sn.path != "" && keyOf(sn.path) == k })
}

// innermost is the snapshot, of those match accepts for the path key of
// the file URI uri, whose folder is innermost (the longest root); nil when
// there is none or uri is no file URI.
func (v *session) innermost(uri string, match func(sn *snapshot, k string) bool) *snapshot {
	p, err := fileOf(uri)
	if err != nil {
		return nil
	}
	k := keyOf(p)
	var best *snapshot
	for _, sn := range v.snaps {
		if match(sn, k) && (best == nil || len(sn.root) > len(best.root)) {
			best = sn
		}
	}
	return best
}

// build makes f's next snapshot from its buffer or file, its state and the
// last verification (caller holds mu). The analysis reuses the previous
// snapshot's per-text results.
func (s *server) build(f *folder) *snapshot {
	sn := &snapshot{root: f.root, rootURI: f.uri, path: f.planPath, cfg: s.folderSettings(f),
		stateErr: f.stateErr, head: f.head, ver: f.ver, rev: f.revision}
	in := core.Input{State: f.state}
	if f.stateErr != nil {
		in.StateErr = stateMsg(f.stateErr)
	}
	sn.uri = f.fileURI(filepath.Join(f.root, "PLAN.md")) // where a plan would be
	if f.planPath != "" {
		sn.uri, sn.text = f.fileURI(f.planPath), f.planDisk
		if d := s.docs[keyOf(f.planPath)]; d != nil {
			sn.uri, sn.text = d.uri, d.text
		}
		in.Src, in.Exists = sn.text, true
		if f.snap != nil {
			in.Prev = f.snap.an
		}
	}
	in.Verdicts, sn.pending = f.verdicts()
	sn.pending = sn.pending || !f.headKnown
	sn.m = newMapper(sn.text, s.enc)
	sn.an = core.Analyze(in)
	if sn.path != "" {
		sn.lines = make([]protocol.Range, len(sn.an.Items))
		for i := range sn.an.Items {
			if sn.an.Items[i].Plan != nil {
				r := sn.lineRange(&sn.an.Items[i])
				sn.lines[i] = r
				sn.placed[0] += uint64(r.Start.Line)
				sn.placed[1] += uint64(r.Start.Character)
				sn.placed[2] += uint64(r.End.Line)
				sn.placed[3] += uint64(r.End.Character)
			}
		}
		// Capped in place: no copy of a thousand diagnostics per keystroke.
		all := diagnosticsOf(sn)
		if sn.shown = capped(sn, all); len(all) <= maxPublished {
			sn.diags = all
		}
	}
	return sn
}

// items are the snapshot's plan items (none without a plan file).
func (sn *snapshot) items() []core.Item {
	if sn.path == "" {
		return nil
	}
	return sn.an.Items
}

// relPath is the plan path relative to the folder root, slash-separated.
func (f *folder) relPath(p string) string {
	rel, err := filepath.Rel(f.root, p)
	if err != nil {
		return filepath.ToSlash(p)
	}
	return filepath.ToSlash(rel)
}

// itemAt returns the item whose list item holds byte offset off, the
// subject line first (so a nested line of one item never picks another).
func (sn *snapshot) itemAt(off int) *core.Item {
	items := sn.items()
	line := sn.m.lineOf(off)
	for i := range items {
		if it := items[i].Plan; it != nil && sn.m.lineOf(it.Line.Start) == line {
			return &items[i]
		}
	}
	for i := range items {
		if it := items[i].Plan; it != nil && off >= it.Block.Start && off <= it.Block.End {
			return &items[i]
		}
	}
	return nil
}

// lineRange is the protocol range of an item's subject line.
func (sn *snapshot) lineRange(it *core.Item) protocol.Range {
	return sn.m.rng(it.Plan.Line.Start, it.Plan.Line.End)
}

// titleRange is where plan-wide diagnostics go: the title line, else the
// first line.
func (sn *snapshot) titleRange() protocol.Range {
	tr := sn.an.TitleRange()
	return sn.m.rng(tr.Start, tr.End)
}
