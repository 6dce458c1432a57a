package core

import (
	"fmt"
	"slices"
	"strings"
)

// mergePlan merges the approved plan and returns it with the conflict text
// ("" when none). An approval made on one side only wins. When both sides
// approved a different plan, the one whose id is opts.PlanID (the merged
// plan file) wins, else the same content approved on both (ours's record),
// else ours's, with a conflict for `planls approve` to resolve. The loser's
// approval is then undone on out's plan items (docs/TEAMS.md "Approvals").
func (m *merger) mergePlan(base, ours, theirs *State, opts MergeOptions, out *State) (*PlanRef, string) {
	bp, op, tp := base.Plan, ours.Plan, theirs.Plan
	switch {
	case samePlan(op, bp):
		return copyPlan(tp), ""
	case samePlan(tp, bp), samePlan(op, tp):
		return copyPlan(op), ""
	}
	win, lose, winSide, loseSide := ours, theirs, "ours", "theirs"
	conflict := ""
	switch {
	case opts.PlanID != "" && tp != nil && opts.PlanID == tp.ID && (op == nil || op.ID != tp.ID):
		win, lose, winSide, loseSide = theirs, ours, "theirs", "ours"
	case opts.PlanID != "" && op != nil && opts.PlanID == op.ID, op != nil && tp != nil && op.ID == tp.ID:
	default:
		conflict = fmt.Sprintf("both branches approved a different plan (ours: %s, theirs: %s) and the merged plan file matches neither; ours's approval is kept for now: approve the merged plan (planls approve) to make its items the plan items",
			planLabel(op), planLabel(tp))
	}
	m.undoApproval(base, win, lose, winSide, loseSide, out)
	return copyPlan(win.Plan), conflict
}

// undoApproval makes out's plan items those of win's approval: a base item
// only lose's approval removed comes back with win's status (its proofs
// kept), and an item only lose's approval created is tombstoned with its
// proofs, or folded into win's item of the same text (its edges moved
// there, its closing carried over when win's item is open).
func (m *merger) undoApproval(base, win, lose *State, winSide, loseSide string, out *State) {
	b, w, l := tasksByID(base), tasksByID(win), tasksByID(lose)
	liveKey := map[itemKey]int{}
	for i := range win.Tasks {
		if t := &win.Tasks[i]; t.isPlan() && t.Status != Deleted {
			liveKey[taskKey(t)] = t.ID
		}
	}
	at := make(map[int]int, len(out.Tasks))
	for i := range out.Tasks {
		at[out.Tasks[i].ID] = i
	}
	moved := map[int]int{}
	for i := range out.Tasks {
		r := &out.Tasks[i]
		if !r.isPlan() {
			continue
		}
		bt, wt, lt := b[r.ID], w[r.ID], l[r.ID]
		switch {
		case wt != nil && wt.isPlan() && wt.Status != Deleted && r.Status == Deleted &&
			lt != nil && lt.Status == Deleted && lt.DeletedFrom == "" && (bt == nil || bt.Status != Deleted):
			r.Status, r.DeletedFrom = wt.Status, ""
			r.Evidence, r.Reason = joinProof(wt.Evidence, r.Evidence), joinProof(wt.Reason, r.Reason)
			r.PlanOrder = wt.PlanOrder
			r.Version++
			m.note(r.ID, "#%d %q stays a plan item: the plan approved on %s removed it, the one kept (%s's) has it", r.ID, NoControls(r.Subject), loseSide, winSide)
		case wt == nil && bt == nil && lt != nil && r.Status != Deleted:
			if id, ok := liveKey[taskKey(r)]; ok {
				if j, ok := at[id]; ok && out.Tasks[j].Status.Open() && !r.Status.Open() {
					k := &out.Tasks[j]
					k.Status, k.Evidence, k.Reason = r.Status, r.Evidence, r.Reason
					k.Version++
				}
				moved[r.ID] = id
				m.note(r.ID, "#%d %q from the plan approved on %s is #%d on %s: merged into #%d", r.ID, NoControls(r.Subject), loseSide, id, winSide, id)
			} else {
				m.note(r.ID, "#%d %q came with the plan approved on %s, which was not kept: removed (its status %s and any proof stay in the tombstone)", r.ID, NoControls(r.Subject), loseSide, r.Status)
			}
			r.Status, r.DeletedFrom = Deleted, ""
			r.Version++
		case wt != nil && wt.isPlan():
			r.PlanOrder = wt.PlanOrder
		}
	}
	if len(moved) == 0 {
		return
	}
	for i := range out.Tasks {
		r := &out.Tasks[i]
		var deps []int
		changed := false
		for _, d := range r.BlockedBy {
			if n, ok := moved[d]; ok {
				d, changed = n, true
			}
			if d != r.ID && !slices.Contains(deps, d) {
				deps = append(deps, d)
			}
		}
		if changed {
			r.BlockedBy = deps
			r.Version++
		}
	}
}

func samePlan(a, b *PlanRef) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.ID == b.ID && a.Title == b.Title && a.Path == b.Path && a.ApprovedAt.Equal(b.ApprovedAt)
}

func copyPlan(p *PlanRef) *PlanRef {
	if p == nil {
		return nil
	}
	c := *p
	return &c
}

// planLabel names an approval in a note: `"Title" (sha256:0123456789ab)`.
func planLabel(p *PlanRef) string {
	if p == nil {
		return "no plan"
	}
	id := strings.TrimPrefix(p.ID, "sha256:")
	if len(id) > 12 {
		id = id[:12]
	}
	return fmt.Sprintf("%q (%s)", NoControls(p.Title), id)
}
