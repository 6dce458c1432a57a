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
	plan *planparse.Plan

	state           *core.State
	stateErr        error
	approved        bool // the folder has an approved plan
	needsReapproval bool // the file's content differs from the approved plan
	items           []viewItem
	tasks           map[int]*core.Task // by id; read through task
	byID            map[int]int        // task id → index in items; see itemByID
}

// viewItem is one plan item of the file (or an approved item missing from it).
type viewItem struct {
	item  *planparse.Item // nil for a missing approved item
	task  *core.Task      // nil for a draft or a new item
	drift string          // "same", "changed", "new", "missing"
}

// buildView parses the plan (the open buffer wins over disk) and matches it
// to the state (caller holds mu).
func (s *server) buildView(f *folder) *view {
	tasks := make(map[int]*core.Task, len(f.state.Tasks))
	for i := range f.state.Tasks {
		tasks[f.state.Tasks[i].ID] = &f.state.Tasks[i]
	}
	v := &view{state: f.state, stateErr: f.stateErr, path: f.planPath, tasks: tasks}
	if f.planPath == "" {
		v.m = newMapper(nil, s.enc)
		v.plan = &planparse.Plan{Title: "plan"}
		return v
	}
	v.uri, v.text = f.fileURI(f.planPath), f.planDisk
	if d := s.docs[keyOf(f.planPath)]; d != nil {
		v.uri, v.text = d.uri, d.text
	}
	v.m = newMapper(v.text, s.enc)
	v.plan = planparse.Parse(v.text)
	// Without an approved plan every item is a draft ("new").
	byItem := make([]*core.ItemMatch, len(v.plan.Items))
	var missing []int
	if v.approved = f.state.Plan != nil; v.approved {
		v.needsReapproval = !core.PlanMatches(v.text, f.state.Plan.ID)
		var matches []core.ItemMatch
		matches, missing = core.MatchPlan(f.state, v.plan)
		for i := range matches {
			if m := &matches[i]; m.Item >= 0 && m.Item < len(byItem) {
				byItem[m.Item] = m
			}
		}
	}
	v.items = make([]viewItem, 0, len(v.plan.Items)+len(missing))
	for i := range v.plan.Items {
		vi := viewItem{item: &v.plan.Items[i], drift: "new"}
		if m := byItem[i]; m != nil {
			vi.task = v.task(m.TaskID)
			switch {
			case m.Kind == core.Same && vi.task != nil:
				vi.drift = "same"
			case m.Kind == core.Changed && vi.task != nil:
				vi.drift = "changed"
			}
		}
		v.items = append(v.items, vi)
	}
	for _, id := range missing {
		if t := v.task(id); t != nil {
			v.items = append(v.items, viewItem{task: t, drift: "missing"})
		}
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
func (v *view) itemAt(off int) *viewItem {
	line := v.m.lineOf(off)
	for i := range v.items {
		it := v.items[i].item
		if it != nil && v.m.lineOf(it.Line.Start) == line {
			return &v.items[i]
		}
	}
	for i := range v.items {
		it := v.items[i].item
		if it != nil && off >= it.Block.Start && off <= it.Block.End {
			return &v.items[i]
		}
	}
	return nil
}

// itemByID returns the view item of task id, or nil (caller holds
// server.mu). The index is built on first use: every blocked item asks for
// its blockers, which a scan made quadratic, while most keystrokes never ask.
func (v *view) itemByID(id int) *viewItem {
	if v.byID == nil {
		v.byID = make(map[int]int, len(v.items))
		for i := range v.items {
			if t := v.items[i].task; t != nil {
				if _, dup := v.byID[t.ID]; !dup {
					v.byID[t.ID] = i // the first, as the scan found
				}
			}
		}
	}
	if i, ok := v.byID[id]; ok {
		return &v.items[i]
	}
	return nil
}

func (v *view) task(id int) *core.Task { return v.tasks[id] }

func isOpen(t *core.Task) bool {
	return t != nil && (t.Status == core.Pending || t.Status == core.InProgress)
}
