package lsp

import (
	"fmt"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/planls/planls/core"
)

// inlayHint is one LSP 3.17 InlayHint (go.lsp.dev/protocol v0.12.0 has no
// type for it): a plain label at a position.
type inlayHint struct {
	Position     protocol.Position `json:"position"`
	Label        string            `json:"label"`
	Tooltip      string            `json:"tooltip,omitempty"`
	PaddingLeft  bool              `json:"paddingLeft"`
	PaddingRight bool              `json:"paddingRight"`
}

// inlayHintParams is InlayHintParams: the document and the visible range.
type inlayHintParams struct {
	TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
	Range        protocol.Range                  `json:"range"`
}

// inlayHints answers textDocument/inlayHint (LSP 3.17): at the end of each
// tracked item's first line inside the requested range, its id and status
// ("#3 pending", "#4 completed"); the tooltip holds the evidence or the
// reason when there is one. Items of a plan that is not approved have no
// id and get none.
func inlayHints(v *session, p *inlayHintParams) (any, error) {
	out := []inlayHint{}
	sn := v.planOf(p.TextDocument.URI)
	if sn == nil || !sn.an.Approved {
		return out, nil
	}
	first, last := int(p.Range.Start.Line), int(p.Range.End.Line)
	items := sn.items()
	for i := range items {
		it := &items[i]
		if it.Plan == nil || it.Task == nil {
			continue
		}
		line := sn.m.lineOf(it.Plan.Line.Start)
		if line < first || line > last {
			continue
		}
		out = append(out, inlayHint{
			Position:    sn.m.position(it.Plan.Line.End),
			Label:       statusLabel(it.Task),
			Tooltip:     statusTooltip(it.Task),
			PaddingLeft: true,
		})
	}
	return out, nil
}

// statusLabel is "#3 pending", "#3 in progress", "#3 completed" or
// "#3 deferred".
func statusLabel(t *core.Task) string {
	return fmt.Sprintf("#%d %s", t.ID, strings.ReplaceAll(string(t.Status), "_", " "))
}

// statusTooltip is the proof of a closed item ("evidence: …", "reason: …"),
// or "".
func statusTooltip(t *core.Task) string {
	switch {
	case t.Status == core.Completed && t.Evidence != "":
		return "evidence: " + t.Evidence
	case t.Status == core.Deferred && t.Reason != "":
		return "reason: " + t.Reason
	}
	return ""
}
