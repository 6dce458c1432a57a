package lsp

import (
	"fmt"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/planls/planls/core"
)

// hover describes the item under the cursor: status, evidence or reason,
// owner, blockedBy and blocks (with subjects), due date, and what the
// evidence names as the last verification found it.
func hover(v *session, p *protocol.HoverParams) (any, error) {
	sn := v.planOf(p.TextDocument.URI)
	if sn == nil {
		return nil, nil
	}
	it := sn.itemAt(sn.m.offset(p.Position))
	if it == nil || it.Plan == nil {
		return nil, nil
	}
	rng := sn.lineRange(it)
	mk := markup{plain: v.caps.hoverPlain}
	text := hoverText(sn, it, mk)
	if t := it.Task; t != nil && t.Evidence != "" {
		text += evidenceHover(sn.root, t.Evidence, sn.ver.result(t.ID, t.Evidence), mk)
	}
	return &protocol.Hover{Contents: mk.content(text), Range: &rng}, nil
}

func hoverText(sn *snapshot, it *core.Item, mk markup) string {
	var b strings.Builder
	t := it.Task
	if t == nil {
		if sn.an.Approved {
			return mk.bold(it.Plan.Subject) + ": not in the approved plan (re-approve to track it)"
		}
		return mk.bold(it.Plan.Subject) + ": draft (the plan is not approved)"
	}
	fmt.Fprintf(&b, "%s%sstatus: %s", mk.bold(fmt.Sprintf("#%d %s", t.ID, t.Subject)), mk.para(), mk.code(string(t.Status)))
	if it.Drift == core.DriftChanged {
		b.WriteString(" (text differs from the approved plan)")
	}
	line := func(label, val string) {
		if val != "" {
			fmt.Fprintf(&b, "%s%s: %s", mk.para(), label, val)
		}
	}
	line("evidence", t.Evidence)
	line("reason", t.Reason)
	if t.Owner != nil {
		line("owner", *t.Owner)
	}
	line("blocked by", refs(sn, t.BlockedBy))
	line("blocks", refs(sn, sn.an.Blocks(t)))
	line("due", t.DueAt)
	return b.String()
}

func refs(sn *snapshot, ids []int) string {
	parts := make([]string, 0, len(ids))
	for _, id := range ids {
		if t := sn.an.Task(id); t != nil {
			parts = append(parts, fmt.Sprintf("#%d %s (%s)", id, t.Subject, t.Status))
		} else {
			parts = append(parts, fmt.Sprintf("#%d (missing)", id))
		}
	}
	return strings.Join(parts, ", ")
}
