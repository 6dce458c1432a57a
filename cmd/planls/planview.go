package main

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/planls/planls/core"
	"github.com/planls/planls/planparse"
	"github.com/planls/planls/store"
)

// planView is the analysis of the plan file as it is now against the
// state (core.Analyze), with the positions the CLI prints.
type planView struct {
	root  string
	st    *core.State
	abs   string // the plan file (absolute)
	an    *core.Analysis
	lines planparse.Lines // positions in an.Src
}

// loadPlanView reads the plan file of the approved plan (PLAN.md when the
// state names none) and analyses it; verdicts, when set, is the
// verification of the completed items. A plan file that is not text
// (store.NotText) is an error naming why.
func loadPlanView(root string, st *core.State, verdicts map[int]core.Verdict) (*planView, error) {
	v := &planView{root: root, st: st}
	rel := cmp.Or(st.PlanPath(), defaultPlan)
	v.abs = filepath.Join(root, filepath.FromSlash(rel))
	if filepath.IsAbs(filepath.FromSlash(rel)) {
		v.abs = filepath.FromSlash(rel)
	}
	src, err := readSettledPlan(v.abs, st.Plan != nil)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	if msg := store.NotText(src); err == nil && msg != "" {
		// Read as markdown, such a file has none of the approved items, and
		// a report listing every one as missing hides the one thing wrong.
		return nil, fmt.Errorf("plan file %s is not text (%s): save it as UTF-8; until then planls cannot read its plan items", rel, msg)
	}
	v.an = core.Analyze(core.Input{State: st, Src: src, Exists: err == nil, Verdicts: verdicts})
	v.lines = planparse.NewLines(v.an.Src)
	return v, nil
}

// at is where finding f points: 1-based line and byte column of its
// range (for an item no longer in the file, where it used to be), or 0, 0
// when there is no plan file.
func (v *planView) at(f core.Finding) (line, col int) {
	if f.Gone && !v.an.Exists {
		return 0, 0
	}
	return v.lines.LineCol(f.Range.Start)
}

// line is the 1-based line finding f names, 0 when it names none: no
// plan file, or text drift that no line places (its finding sits on the
// title).
func (v *planView) line(f core.Finding) int {
	if f.Drift == core.DriftText && f.Range == v.an.TitleRange() {
		return 0
	}
	line, _ := v.at(f)
	return line
}

// openItems are the open plan items (pending, in_progress), in the order
// of the plan file, those no longer in it last.
func (v *planView) openItems() []core.Item {
	var out []core.Item
	for _, it := range v.an.Items {
		if t := it.Task; t != nil && t.Status.Open() {
			out = append(out, it)
		}
	}
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
