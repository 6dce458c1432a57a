package main

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/planls/planls/core"
	"github.com/planls/planls/planparse"
)

// planView is the approved plan next to the plan file as it is now.
type planView struct {
	root    string
	st      *core.State
	abs     string // the plan file (absolute)
	exists  bool
	src     []byte
	plan    *planparse.Plan
	matches []core.ItemMatch
	missing []int           // approved items no bullet of the file matches
	lines   planparse.Lines // positions in src
}

// openItem is a plan item still pending or in_progress, and where it stands
// in the plan file now (Line and Col 1-based, Col in bytes; 0 when the item
// is no longer in the file).
type openItem struct {
	Task core.Task
	Line int
	Col  int
	// Unproven marks a plan item closed without its proof (completed without
	// evidence or deferred without a reason): core refuses that, so
	// state.json was edited by hand, and check treats it as still open.
	Unproven bool
	// Ticked marks an open plan item whose checkbox is ticked in the plan
	// file: the editor's checked-not-completed warning (core.RuleTicked).
	Ticked bool
}

// loadPlanView reads the plan file of the approved plan (PLAN.md when the
// state names none) and matches it against the approved plan items.
func loadPlanView(root string, st *core.State) (*planView, error) {
	v := &planView{root: root, st: st}
	rel := defaultPlan
	if st.Plan != nil && st.Plan.Path != "" {
		rel = st.Plan.Path
	}
	v.abs = filepath.Join(root, filepath.FromSlash(rel))
	if filepath.IsAbs(filepath.FromSlash(rel)) {
		v.abs = filepath.FromSlash(rel)
	}
	src, err := readSettledPlan(v.abs, st.Plan != nil)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return v, nil
	case err != nil:
		return nil, err
	}
	v.exists, v.src, v.lines = true, src, planparse.NewLines(src)
	v.plan = planparse.Parse(src)
	v.matches, v.missing = core.MatchPlan(st, v.plan)
	return v, nil
}

// openItems are the open plan items in the order of the plan file, those no
// longer in it last (by id).
func (v *planView) openItems() []openItem {
	return v.planItems(func(t core.Task) bool { return t.Status == core.Pending || t.Status == core.InProgress })
}

// unprovenItems are the plan items closed without their proof, ordered as
// openItems, each with Unproven set.
func (v *planView) unprovenItems() []openItem {
	out := v.planItems(closedWithoutProof)
	for i := range out {
		out[i].Unproven = true
	}
	return out
}

// closedWithoutProof reports a task completed without evidence or deferred
// without a reason (the same test as store.Check's warning).
func closedWithoutProof(t core.Task) bool {
	switch t.Status {
	case core.Completed:
		return strings.TrimSpace(t.Evidence) == ""
	case core.Deferred:
		return strings.TrimSpace(t.Reason) == ""
	}
	return false
}

// tasksByID is st's tasks by id.
func tasksByID(st *core.State) map[int]core.Task {
	byID := make(map[int]core.Task, len(st.Tasks))
	for _, t := range st.Tasks {
		byID[t.ID] = t
	}
	return byID
}

// planItems are the plan items keep selects, in the order of the plan file,
// those no longer in it last (by id).
func (v *planView) planItems(keep func(core.Task) bool) []openItem {
	where := map[int]planparse.Item{}
	if v.plan != nil {
		for _, m := range v.matches {
			if m.TaskID != 0 && m.Item >= 0 && m.Item < len(v.plan.Items) {
				where[m.TaskID] = v.plan.Items[m.Item]
			}
		}
	}
	var out []openItem
	for _, t := range v.st.Tasks {
		if t.Source != "plan" || !keep(t) {
			continue
		}
		oi := openItem{Task: t}
		if it, ok := where[t.ID]; ok {
			oi.Line, oi.Col = v.lines.LineCol(it.Line.Start)
			oi.Ticked = it.Checkbox == planparse.Checked && (t.Status == core.Pending || t.Status == core.InProgress)
		}
		out = append(out, oi)
	}
	slices.SortStableFunc(out, func(a, b openItem) int {
		switch {
		case a.Line == 0 && b.Line == 0:
			return a.Task.ID - b.Task.ID
		case a.Line == 0:
			return 1
		case b.Line == 0:
			return -1
		case a.Line != b.Line:
			return a.Line - b.Line
		}
		return a.Col - b.Col
	})
	return out
}

// planSettle is how long check, status and the hook wait for an approved
// plan file that is missing or empty to come back: an editor that saves by
// renaming PLAN.md away and writing a new file leaves such a gap of tens to
// hundreds of ms, and a report made inside it would list every item as
// gone. The language server holds the same window (lsp/settle.go).
const planSettle = 500 * time.Millisecond

// readSettledPlan reads the plan file at path. When approved and the file
// is missing or empty, it re-reads every 20 ms for up to planSettle and
// returns the first read with content, else the last read.
func readSettledPlan(path string, approved bool) ([]byte, error) {
	src, err := os.ReadFile(path)
	if !approved {
		return src, err
	}
	for deadline := time.Now().Add(planSettle); (len(src) == 0 && (err == nil || errors.Is(err, os.ErrNotExist))) && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
		src, err = os.ReadFile(path)
	}
	return src, err
}
