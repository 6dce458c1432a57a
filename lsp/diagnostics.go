package lsp

import (
	"errors"
	"fmt"
	"os"

	"go.lsp.dev/protocol"

	"github.com/planls/planls/core"
	"github.com/planls/planls/store"
)

// Diagnostic codes (docs/PROTOCOL.md "Diagnostics").
const (
	codeOpen       = core.RuleOpen
	codeInProgress = core.RuleInProgress
	codeBlocked    = core.RuleBlocked
	codeNotApp     = core.RuleNotApproved
	codeDrift      = core.RuleDrift
	codeChecked    = core.RuleTicked
	codeEmpty      = core.RuleEmpty
	codeDuplicate  = core.RuleDuplicate
	codeStateBad   = core.RuleStateInvalid
	codeNoProof    = core.RuleNoProof
	codeClosed     = "closed-item" // fadeClosed's hint on a closed item: a rendering, not a finding
)

// diagData is Diagnostic.data: code actions key on it (PROTOCOL.md).
type diagData struct {
	ID   int    `json:"id,omitempty"`
	Code string `json:"code"`
}

// diagnostics computes every diagnostic of folder f by URI: the plan file's
// and, when it cannot be used, the state file's (caller holds mu).
func (s *server) diagnostics(f *folder, v *view) map[string][]protocol.Diagnostic {
	out := map[string][]protocol.Diagnostic{}
	// A state file that is missing (its journal says it should exist) has no
	// document to carry a diagnostic: the plan's title line reports it below.
	if _, statErr := os.Stat(f.statePath()); v.stateErr != nil && statErr == nil {
		su := f.fileURI(f.statePath())
		if d := s.docs[keyOf(f.statePath())]; d != nil {
			su = d.uri
		}
		out[su] = []protocol.Diagnostic{s.stateDiagnostic(f, v.stateErr)}
	}
	if v.path == "" {
		return out
	}
	cfg := s.folderSettings(f)
	sev := severityOf(cfg.Severity)
	fs := v.an.Findings
	list := make([]protocol.Diagnostic, 0, len(fs)+1)
	emit := func(fd core.Finding) {
		d := protocol.Diagnostic{
			Range: v.m.rng(fd.Range.Start, fd.Range.End), Severity: protocol.DiagnosticSeverity(fd.Severity),
			Code: fd.Rule, Source: "planls", Message: fd.Message, Data: diagData{ID: fd.TaskID, Code: fd.Rule},
		}
		switch fd.Rule {
		case codeOpen, codeInProgress:
			d.Severity = sev
		case codeBlocked:
			d.Severity, d.RelatedInformation = sev, v.related(fd.Blockers)
		}
		list = append(list, d)
	}
	// Findings come grouped: the plan's first, then each item's in order.
	next := 0
	for ; next < len(fs) && fs[next].Item < 0; next++ {
		emit(fs[next])
	}
	for i, it := range v.items {
		for ; next < len(fs) && fs[next].Item == i; next++ {
			emit(fs[next])
		}
		if t := it.Task; cfg.FadeClosed && it.Plan != nil && t != nil && (t.Status == core.Completed || t.Status == core.Deferred) && core.ProofMissing(t) == "" {
			list = append(list, protocol.Diagnostic{
				Range: v.m.rng(it.Plan.Line.Start, it.Plan.Line.End), Severity: protocol.DiagnosticSeverityHint,
				Code: codeClosed, Source: "planls", Message: closedMsg(t), Data: diagData{ID: t.ID, Code: codeClosed},
				Tags: []protocol.DiagnosticTag{protocol.DiagnosticTagUnnecessary},
			})
		}
	}
	for ; next < len(fs); next++ {
		emit(fs[next])
	}
	out[v.uri] = list
	return out
}

func closedMsg(t *core.Task) string {
	if t.Status == core.Completed {
		return fmt.Sprintf("plan item #%d completed: %s", t.ID, t.Evidence)
	}
	return fmt.Sprintf("plan item #%d deferred: %s", t.ID, t.Reason)
}

// titleRange is where plan-wide diagnostics go: the title line, else the
// first line.
func (v *view) titleRange() protocol.Range {
	tr := v.an.TitleRange()
	return v.m.rng(tr.Start, tr.End)
}

// related points at each blocker's line in the plan (its title when the
// blocker is not in the file).
func (v *view) related(ids []int) []protocol.DiagnosticRelatedInformation {
	var out []protocol.DiagnosticRelatedInformation
	for _, id := range ids {
		t := v.task(id)
		r := v.titleRange()
		if vi := v.itemByID(id); vi != nil && vi.Plan != nil {
			r = v.m.rng(vi.Plan.Line.Start, vi.Plan.Line.End)
		}
		out = append(out, protocol.DiagnosticRelatedInformation{
			Location: protocol.Location{URI: protocol.DocumentURI(v.uri), Range: r},
			Message:  fmt.Sprintf("#%d (%s): %s", id, t.Status, t.Subject),
		})
	}
	return out
}

func stateMsg(err error) string {
	var se *store.StateError
	if errors.As(err, &se) {
		return se.Msg
	}
	return err.Error()
}

// stateDiagnostic places a state-invalid error at the parse error's position
// (StateError Line/Col are 1-based, Col in bytes).
func (s *server) stateDiagnostic(f *folder, err error) protocol.Diagnostic {
	// The position is in the bytes the store read: the file on disk, even
	// when an editor holds a different, unsaved buffer of it.
	raw, _ := os.ReadFile(f.statePath())
	m := newMapper(raw, s.enc)
	off := 0
	var se *store.StateError
	if errors.As(err, &se) && se.Line > 0 && se.Line-1 < len(m.lines) {
		off = min(m.lines[se.Line-1]+max(se.Col-1, 0), m.lineEnd(se.Line-1))
	}
	end := m.lineEnd(m.lineOf(off))
	return protocol.Diagnostic{
		Range: m.rng(off, end), Severity: protocol.DiagnosticSeverityError, Code: codeStateBad,
		Source: "planls", Message: "state file cannot be used: " + stateMsg(err),
		Data: diagData{Code: codeStateBad},
	}
}
