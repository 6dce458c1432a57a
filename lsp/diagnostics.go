package lsp

import (
	"errors"
	"fmt"

	"go.lsp.dev/protocol"

	"github.com/planls/planls/core"
	"github.com/planls/planls/store"
)

// codeClosed is fadeClosed's hint on a closed item: a rendering, not a
// finding. The other diagnostic codes are core's rule ids
// (docs/PROTOCOL.md "Diagnostics").
const codeClosed = "closed-item"

// diagData is Diagnostic.data: code actions key on it (PROTOCOL.md).
// Diagnostics hold a *diagData (appendDiagnostic encodes it by hand).
// Gone marks the diagnostic of an approved item no longer in the file,
// placed where it used to be, on a line that is another item's: an editor
// looking for the item on a line skips it.
type diagData struct {
	ID   int    `json:"id,omitempty"`
	Code string `json:"code"`
	Gone bool   `json:"gone,omitempty"`
}

// diagnosticsOf renders sn's findings (core.Analysis) as the plan file's
// diagnostics, in the analysis's order, with fadeClosed's hint after each
// closed item's own.
func diagnosticsOf(sn *snapshot) []protocol.Diagnostic {
	sev := severityOf(sn.cfg.Severity)
	fs := sn.an.Findings
	list := make([]protocol.Diagnostic, 0, len(fs)+1)
	// Each Data points into a block of diagData, not an allocation of
	// its own (a thousand per keystroke at 1,000 items).
	var block []diagData
	data := func(d diagData) *diagData {
		if len(block) == cap(block) {
			block = make([]diagData, 0, 256)
		}
		block = append(block, d)
		return &block[len(block)-1]
	}
	emit := func(fd core.Finding) {
		var rng protocol.Range
		if it := sn.an.Items; fd.Item >= 0 && it[fd.Item].Plan != nil && fd.Range == it[fd.Item].Plan.Line {
			rng = sn.lines[fd.Item]
		} else {
			rng = sn.m.rng(fd.Range.Start, fd.Range.End)
		}
		d := protocol.Diagnostic{
			Range: rng, Severity: protocol.DiagnosticSeverity(fd.Severity),
			Code: fd.Rule, Source: "planls", Message: fd.Message, Data: data(diagData{ID: fd.TaskID, Code: fd.Rule, Gone: fd.Gone}),
		}
		switch fd.Rule {
		case core.RuleOpen, core.RuleInProgress:
			d.Severity = sev
		case core.RuleBlocked:
			d.Severity, d.RelatedInformation = sev, sn.related(fd.Blockers)
		}
		list = append(list, d)
	}
	// Findings come grouped: the plan's first, then each item's in order.
	next := 0
	for ; next < len(fs) && fs[next].Item < 0; next++ {
		emit(fs[next])
	}
	for i, it := range sn.an.Items {
		for ; next < len(fs) && fs[next].Item == i; next++ {
			emit(fs[next])
		}
		if t := it.Task; sn.cfg.FadeClosed && it.Plan != nil && t != nil && (t.Status == core.Completed || t.Status == core.Deferred) && core.ProofMissing(t) == "" {
			list = append(list, protocol.Diagnostic{
				Range: sn.lines[i], Severity: protocol.DiagnosticSeverityHint,
				Code: codeClosed, Source: "planls", Message: closedMsg(t), Data: data(diagData{ID: t.ID, Code: codeClosed}),
				Tags: []protocol.DiagnosticTag{protocol.DiagnosticTagUnnecessary},
			})
		}
	}
	for ; next < len(fs); next++ {
		emit(fs[next])
	}
	return list
}

func closedMsg(t *core.Task) string {
	if t.Status == core.Completed {
		return fmt.Sprintf("plan item #%d completed: %s", t.ID, t.Evidence)
	}
	return fmt.Sprintf("plan item #%d deferred: %s", t.ID, t.Reason)
}

// related points at each blocker's line in the plan (its title when the
// blocker is not in the file).
func (sn *snapshot) related(ids []int) []protocol.DiagnosticRelatedInformation {
	var out []protocol.DiagnosticRelatedInformation
	for _, id := range ids {
		t := sn.an.Task(id)
		r := sn.titleRange()
		if it := sn.an.ItemOf(id); it != nil && it.Plan != nil {
			r = sn.lineRange(it)
		}
		out = append(out, protocol.DiagnosticRelatedInformation{
			Location: protocol.Location{URI: protocol.DocumentURI(sn.uri), Range: r},
			Message:  fmt.Sprintf("#%d (%s): %s", id, t.Status, t.Subject),
		})
	}
	return out
}

func stateMsg(err error) string {
	if se, ok := errors.AsType[*store.StateError](err); ok {
		return se.Msg
	}
	return err.Error()
}

// stateDiagnostic places a state-invalid error at the parse error's
// position in raw, the state file's bytes (StateError Line/Col are 1-based,
// Col in bytes).
func stateDiagnostic(raw []byte, enc encoding, err error) protocol.Diagnostic {
	m := newMapper(raw, enc)
	off := 0
	if se, ok := errors.AsType[*store.StateError](err); ok && se.Line > 0 && se.Line-1 < len(m.lines) {
		off = min(m.lines[se.Line-1]+max(se.Col-1, 0), m.lineEnd(se.Line-1))
	}
	end := m.lineEnd(m.lineOf(off))
	return protocol.Diagnostic{
		Range: m.rng(off, end), Severity: protocol.DiagnosticSeverityError, Code: core.RuleStateInvalid,
		Source: "planls", Message: "state file cannot be used: " + stateMsg(err),
		Data: &diagData{Code: core.RuleStateInvalid},
	}
}
