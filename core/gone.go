package core

import (
	"slices"
	"strings"

	"github.com/planls/planls/planparse"
)

// goneRanges places the findings of the approved items missing from the
// plan file where each used to be, by the approved order (Task.PlanOrder):
// an empty range at the end of the block of the nearest item before it
// that is still in the file (it followed that one), else at the start of
// the subject line of the nearest one after it (it came before that one),
// else the title. An empty range, because nothing in the file is the
// item; the line is where a reader looks for it. It returns the range of
// each such item by its index into a.Items (none without a plan file: the
// title is all there is).
func (a *Analysis) goneRanges(title planparse.Range) map[int]planparse.Range {
	if !a.Exists {
		return nil
	}
	var gone []int
	for i, it := range a.Items {
		if it.Task != nil && it.Plan == nil && it.Drift == DriftMissing {
			gone = append(gone, i)
		}
	}
	if len(gone) == 0 {
		return nil // most keystrokes: no list of the kept items to make
	}
	type placed struct{ order, item int }
	kept := make([]placed, 0, len(a.Items)-len(gone))
	for i, it := range a.Items {
		if it.Task != nil && it.Plan != nil {
			kept = append(kept, placed{it.Task.PlanOrder, i})
		}
	}
	slices.SortStableFunc(kept, func(x, y placed) int { return x.order - y.order })
	out := make(map[int]planparse.Range, len(gone))
	for _, g := range gone {
		order := a.Items[g].Task.PlanOrder
		// kept[n] is the first kept item after the gone one.
		n, _ := slices.BinarySearchFunc(kept, order, func(p placed, o int) int {
			if p.order <= o {
				return -1
			}
			return 1
		})
		switch {
		case n > 0:
			end := a.blockEnd(a.Items[kept[n-1].item].Plan)
			out[g] = planparse.Range{Start: end, End: end}
		case n < len(kept):
			start := a.Items[kept[n].item].Plan.Line.Start
			out[g] = planparse.Range{Start: start, End: start}
		default:
			out[g] = title
		}
	}
	return out
}

// blockEnd is the end of it's block with the white space and line
// endings at its end left out: the end of its last line of text.
func (a *Analysis) blockEnd(it *planparse.Item) int {
	end := min(it.Block.End, len(a.Src))
	for end > it.Line.End && strings.IndexByte(" \t\r\n", a.Src[end-1]) >= 0 {
		end--
	}
	return max(end, it.Line.End)
}
