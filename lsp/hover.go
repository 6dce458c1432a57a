package lsp

import (
	"fmt"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/planls/planls/core"
)

// hover describes the item under the cursor: status, evidence or reason,
// owner, blockedBy and blocks (with subjects), due date.
func (s *server) hover(r *request) (any, error) {
	var p protocol.HoverParams
	if err := decode(r.params, &p); err != nil {
		return nil, err
	}
	s.mu.Lock()
	f := s.planFolderOf(p.TextDocument.URI)
	if f == nil {
		s.mu.Unlock()
		return nil, nil
	}
	v := f.view
	vi := v.itemAt(v.m.offset(p.Position))
	if vi == nil || vi.Plan == nil {
		s.mu.Unlock()
		return nil, nil
	}
	rng := v.m.rng(vi.Plan.Line.Start, vi.Plan.Line.End)
	mk := markup{plain: s.caps.hoverPlain}
	text, root, evidence := hoverText(v, vi, mk), f.root, ""
	if vi.Task != nil {
		evidence = vi.Task.Evidence
	}
	s.mu.Unlock()
	// Commit subjects come from git: looked up without the lock.
	text += evidenceHover(r.ctx, root, evidence, mk)
	return &protocol.Hover{Contents: mk.content(text), Range: &rng}, nil
}

func hoverText(v *view, vi *core.Item, mk markup) string {
	var b strings.Builder
	t := vi.Task
	if t == nil {
		if v.approved {
			return mk.bold(vi.Plan.Subject) + ": not in the approved plan (re-approve to track it)"
		}
		return mk.bold(vi.Plan.Subject) + ": draft (the plan is not approved)"
	}
	fmt.Fprintf(&b, "%s%sstatus: %s", mk.bold(fmt.Sprintf("#%d %s", t.ID, t.Subject)), mk.para(), mk.code(string(t.Status)))
	if vi.Drift == "changed" {
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
	line("blocked by", refs(v, t.BlockedBy))
	var blocks []int
	for _, o := range v.state.Tasks {
		for _, id := range o.BlockedBy {
			if id == t.ID && o.Status != core.Deleted {
				blocks = append(blocks, o.ID)
			}
		}
	}
	line("blocks", refs(v, blocks))
	line("due", t.DueAt)
	return b.String()
}

func refs(v *view, ids []int) string {
	parts := make([]string, 0, len(ids))
	for _, id := range ids {
		if t := v.task(id); t != nil {
			parts = append(parts, fmt.Sprintf("#%d %s (%s)", id, t.Subject, t.Status))
		} else {
			parts = append(parts, fmt.Sprintf("#%d (missing)", id))
		}
	}
	return strings.Join(parts, ", ")
}
