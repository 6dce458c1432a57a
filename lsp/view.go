package lsp

import (
	"path/filepath"

	"go.lsp.dev/protocol"

	"github.com/planls/planls/core"
	"github.com/planls/planls/planparse"
)

// view is an immutable analysis of one folder's plan file against its state:
// what every handler reads. It is rebuilt on each change of buffer or disk.
type view struct {
	uri  string // the plan's URI (the client's spelling when open)
	path string // "" when the folder has no plan file
	text []byte
	m    *mapper
	an   *core.Analysis

	stateErr        error
	plan            *planparse.Plan
	state           *core.State
	approved        bool // the folder has an approved plan
	needsReapproval bool // the file's content differs from the approved plan
	items           []core.Item
}

// buildView parses the plan (the open buffer wins over disk) and analyses
// it against the state (caller holds mu).
func (s *server) buildView(f *folder, prev *core.Analysis) *view {
	v := &view{stateErr: f.stateErr, path: f.planPath}
	in := core.Input{State: f.state}
	if f.stateErr != nil {
		in.StateErr = stateMsg(f.stateErr)
	}
	if f.planPath != "" {
		v.uri, v.text = f.fileURI(f.planPath), f.planDisk
		if d := s.docs[keyOf(f.planPath)]; d != nil {
			v.uri, v.text = d.uri, d.text
		}
		in.Src, in.Exists, in.Prev = v.text, true, prev
	}
	v.m = newMapper(v.text, s.enc)
	v.an = core.Analyze(in)
	v.plan, v.state, v.approved, v.needsReapproval = v.an.Plan, v.an.State, v.an.Approved, v.an.NeedsReapproval
	if v.path != "" {
		v.items = v.an.Items
	}
	return v
}

// planFolderOf returns the folder whose plan file (with a view) uri names,
// or nil when uri is not a file URI or not the plan of its folder (caller
// holds mu). Every per-document request (hover, lenses, actions, symbols)
// answers from its view.
func (s *server) planFolderOf(uri protocol.DocumentURI) *folder {
	path, err := fileOf(string(uri))
	if err != nil {
		return nil
	}
	f := s.folderFor(path, false)
	if f == nil || f.view == nil || f.view.path == "" || keyOf(f.view.path) != keyOf(path) {
		return nil
	}
	return f
}

// relPath is the plan path relative to the folder root, slash-separated.
func (f *folder) relPath(p string) string {
	rel, err := filepath.Rel(f.root, p)
	if err != nil {
		return filepath.ToSlash(p)
	}
	return filepath.ToSlash(rel)
}

// itemAt returns the view item whose list item holds byte offset off, the
// subject line first (so a nested line of one item never picks another).
func (v *view) itemAt(off int) *core.Item {
	line := v.m.lineOf(off)
	for i := range v.items {
		it := v.items[i].Plan
		if it != nil && v.m.lineOf(it.Line.Start) == line {
			return &v.items[i]
		}
	}
	for i := range v.items {
		it := v.items[i].Plan
		if it != nil && off >= it.Block.Start && off <= it.Block.End {
			return &v.items[i]
		}
	}
	return nil
}

// itemByID returns the item of task id, or nil.
func (v *view) itemByID(id int) *core.Item { return v.an.ItemOf(id) }

func (v *view) task(id int) *core.Task { return v.an.Task(id) }

func (v *view) openBlockers(t *core.Task) []int { return v.an.OpenBlockers(t) }

func isOpen(t *core.Task) bool {
	return t != nil && (t.Status == core.Pending || t.Status == core.InProgress)
}
