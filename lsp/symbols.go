package lsp

import (
	"bytes"
	"fmt"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/planls/planls/core"
)

// documentSymbol returns plan → groups → items. Every symbol's
// selectionRange lies inside its range and every child inside its parent
// (VS Code drops the whole outline otherwise): a group runs from its
// heading to just before the next group, and ranges are clamped to enforce
// it whatever the parser reports.
func documentSymbol(v *session, p *protocol.DocumentSymbolParams) (any, error) {
	sn := v.planOf(p.TextDocument.URI)
	if sn == nil {
		return []protocol.DocumentSymbol{}, nil
	}
	return shapeSymbols(v.caps, planSymbol(sn), p.TextDocument.URI), nil
}

type span struct{ start, end int }

func (a span) clampTo(b span) span {
	a.start = min(max(a.start, b.start), b.end)
	a.end = min(max(a.end, a.start), b.end)
	return a
}

func planSymbol(sn *snapshot) protocol.DocumentSymbol {
	plan := sn.an.Plan
	whole := span{0, len(sn.text)}
	title := span{plan.TitleRange.Start, plan.TitleRange.End}.clampTo(whole)
	root := protocol.DocumentSymbol{
		Name: nonEmpty(plan.Title, "plan"), Kind: protocol.SymbolKindFile,
		Detail: fmt.Sprintf("%d items", len(plan.Items)),
		Range:  sn.m.rng(whole.start, whole.end), SelectionRange: sn.m.rng(title.start, title.end),
	}
	// Group boundaries: every heading of level 2–6 starts a group section.
	type group struct {
		name       string
		head, body span
		children   []protocol.DocumentSymbol
	}
	var groups []*group
	for _, h := range plan.Headings {
		if h.Level < 2 || h.Skipped {
			// A level-1 or skipped heading still ends the section before it.
			if len(groups) > 0 && groups[len(groups)-1].body.end > h.Range.Start {
				groups[len(groups)-1].body.end = h.Range.Start
			}
			continue
		}
		if len(groups) > 0 {
			groups[len(groups)-1].body.end = h.Range.Start
		}
		groups = append(groups, &group{name: h.Text, head: span{h.Range.Start, h.Range.End}, body: span{h.Range.Start, len(sn.text)}})
	}
	var loose []protocol.DocumentSymbol
	gi := 0 // items and groups are both in document order: one pass
	items := sn.items()
	for i := range items {
		vi := &items[i]
		if vi.Plan == nil {
			continue
		}
		start := vi.Plan.Block.Start
		for gi < len(groups) && groups[gi].body.end <= start {
			gi++
		}
		var parent *group
		bound := whole
		if gi < len(groups) && start >= groups[gi].body.start {
			parent, bound = groups[gi], groups[gi].body
		}
		blk := span{vi.Plan.Block.Start, vi.Plan.Block.End}.clampTo(bound)
		sel := span{vi.Plan.Line.Start, vi.Plan.Line.End}.clampTo(blk)
		sym := protocol.DocumentSymbol{
			Name: itemName(vi), Kind: protocol.SymbolKindEvent, Detail: itemDetail(vi),
			Range: sn.m.rng(blk.start, blk.end), SelectionRange: sn.m.rng(sel.start, sel.end),
		}
		if parent != nil {
			parent.children = append(parent.children, sym)
		} else {
			loose = append(loose, sym)
		}
	}
	for _, g := range groups {
		if len(g.children) == 0 {
			continue
		}
		body := g.body // without trailing blank lines
		body.end = body.start + len(bytes.TrimRight(sn.text[body.start:body.end], " \t\r\n"))
		// The body must still hold its items after trimming blank lines.
		for _, c := range g.children {
			body.end = max(body.end, sn.m.offset(c.Range.End))
		}
		head := g.head.clampTo(body)
		root.Children = append(root.Children, protocol.DocumentSymbol{
			Name: nonEmpty(g.name, "(untitled group)"), Kind: protocol.SymbolKindNamespace,
			Range: sn.m.rng(body.start, body.end), SelectionRange: sn.m.rng(head.start, head.end),
			Children: g.children,
		})
	}
	root.Children = append(loose, root.Children...)
	return root
}

func itemName(vi *core.Item) string {
	subj := nonEmpty(vi.Plan.Subject, "(empty item)")
	if vi.Task != nil {
		return fmt.Sprintf("#%d %s", vi.Task.ID, subj)
	}
	return subj
}

func itemDetail(vi *core.Item) string {
	if vi.Task == nil {
		if vi.Drift == "new" {
			return "draft"
		}
		return ""
	}
	return string(vi.Task.Status)
}

func nonEmpty(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}

// workspaceSymbol finds plan items by subject (case-insensitive substring)
// across every folder's plan.
func workspaceSymbol(v *session, p *protocol.WorkspaceSymbolParams) (any, error) {
	q := strings.ToLower(p.Query)
	out := []protocol.SymbolInformation{}
	for _, sn := range v.snaps {
		items := sn.items()
		for i := range items {
			vi := &items[i]
			if vi.Plan == nil || !strings.Contains(strings.ToLower(vi.Plan.Subject), q) {
				continue
			}
			out = append(out, protocol.SymbolInformation{
				Name: itemName(vi), Kind: protocol.SymbolKindEvent, ContainerName: vi.Plan.Group,
				Location: protocol.Location{URI: protocol.DocumentURI(sn.uri), Range: sn.lineRange(vi)},
			})
		}
	}
	return out, nil
}
