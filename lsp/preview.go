package lsp

import (
	"fmt"

	"go.lsp.dev/protocol"

	"github.com/planls/planls/core"
	"github.com/planls/planls/planparse"
)

// previewLenses are the code lenses of a plan that is not approved yet:
// what approving it would track. On the title, the Approve plan
// command with the item count; on each heading with items, how many it
// holds; on each heading whose section gives none, why; on each item,
// that it will be tracked. Labels have no command (an empty command id
// renders as text that does nothing).
func previewLenses(sn *snapshot) []protocol.CodeLens {
	items := len(core.UsableItems(sn.an.Plan))
	out := []protocol.CodeLens{{Range: sn.titleRange(),
		Command: approveCommand(fmt.Sprintf("Approve plan (%s)", core.CountNoun(items, "plan item")), sn.uri)}}
	label := func(start, end int, text string) {
		out = append(out, protocol.CodeLens{Range: sn.m.rng(start, end), Command: &protocol.Command{Title: text}})
	}
	heads := sn.an.Plan.Headings
	counts := headingCounts(sn.an.Plan)
	unread := map[int]string{}
	for _, h := range sn.an.Plan.Unread() {
		unread[h.Range.Start] = h.Reason()
	}
	next := 0 // next heading to label, in source order with the items
	flush := func(upTo int) {
		for ; next < len(heads) && heads[next].Range.Start < upTo; next++ {
			h := heads[next]
			switch {
			case unread[h.Range.Start] != "":
				label(h.Range.Start, lineEnd(sn, h.Range), "not tracked: "+unread[h.Range.Start])
			case counts[next] > 0 && h.Level > 1:
				label(h.Range.Start, lineEnd(sn, h.Range), core.CountNoun(counts[next], "plan item")+" on approval")
			}
		}
	}
	for i := range sn.an.Plan.Items {
		it := &sn.an.Plan.Items[i]
		if it.Subject == "" {
			continue
		}
		flush(it.Line.Start + 1)
		label(it.Line.Start, it.Line.End, "will be tracked")
	}
	flush(len(sn.text) + 1)
	return out
}

// headingCounts returns, per index into plan.Headings, the items in that
// heading's section and the sections under it (a heading item counts for
// its own heading). One pass: items and headings are both in source order.
func headingCounts(plan *planparse.Plan) []int {
	counts := make([]int, len(plan.Headings))
	var open []int // headings whose section the next item is in, outermost first
	next := 0
	for i := range plan.Items {
		it := &plan.Items[i]
		for ; next < len(plan.Headings) && plan.Headings[next].Range.Start <= it.Line.Start; next++ {
			lvl := plan.Headings[next].Level
			for len(open) > 0 && plan.Headings[open[len(open)-1]].Level >= lvl {
				open = open[:len(open)-1]
			}
			open = append(open, next)
		}
		if it.Subject == "" {
			continue
		}
		for _, h := range open {
			counts[h]++
		}
	}
	return counts
}

// lineEnd is the end of the first line of r (a setext heading spans two).
func lineEnd(sn *snapshot, r planparse.Range) int {
	return min(r.End, sn.m.lineEnd(sn.m.lineOf(r.Start)))
}
