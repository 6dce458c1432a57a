package lsp

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/planls/planls/core"
	"github.com/planls/planls/planparse"
	"github.com/planls/planls/store"
)

// Diagnostic codes (docs/PROTOCOL.md "Diagnostics").
const (
	codeOpen       = "open-item"
	codeInProgress = "in-progress"
	codeBlocked    = "blocked"
	codeNotApp     = "plan-not-approved"
	codeDrift      = "plan-drift"
	codeChecked    = core.RuleTicked
	codeEmpty      = "empty-item"
	codeDuplicate  = "duplicate-item"
	codeStateBad   = "state-invalid"
	codeClosed     = "closed-item"
	codeNoProof    = "closed-without-proof"
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
	list := make([]protocol.Diagnostic, 0, len(v.items)+len(v.plan.Problems)+2)
	add := func(r protocol.Range, sev protocol.DiagnosticSeverity, code string, id int, msg string) *protocol.Diagnostic {
		list = append(list, protocol.Diagnostic{
			Range: r, Severity: sev, Code: code, Source: "planls", Message: msg,
			Data: diagData{ID: id, Code: code},
		})
		return &list[len(list)-1]
	}
	title := v.titleRange()
	if v.stateErr != nil {
		add(title, protocol.DiagnosticSeverityError, codeStateBad, 0,
			fmt.Sprintf("state file .planls/state.json cannot be used: %s", stateMsg(v.stateErr)))
	}
	for _, p := range v.plan.Problems {
		add(v.m.rng(p.Range.Start, p.Range.End), protocol.DiagnosticSeverityWarning, cmp.Or(p.Code, codeEmpty), 0, p.Message)
	}
	if !v.approved {
		add(title, protocol.DiagnosticSeverityInformation, codeNotApp, 0,
			notApprovedMsg(v.plan.Title, len(v.plan.Items)))
		out[v.uri] = list
		return out
	}
	if textDrift(v) {
		add(title, protocol.DiagnosticSeverityWarning, codeDrift, 0,
			"the plan file changed since approval outside its plan items: re-approve to make the new text the plan")
	}
	cfg := s.folderSettings(f)
	sev := severityOf(cfg.Severity)
	shown := shownTexts(v.items)
	for i := range v.items {
		vi := &v.items[i]
		t := vi.task
		if vi.item == nil {
			add(title, protocol.DiagnosticSeverityWarning, codeDrift, t.ID,
				fmt.Sprintf("approved plan item #%d is missing from the plan file: %s", t.ID, shown[i]))
			continue
		}
		r := v.m.rng(vi.item.Line.Start, vi.item.Line.End)
		switch vi.drift {
		case "new":
			add(r, protocol.DiagnosticSeverityHint, codeDrift, 0,
				fmt.Sprintf("not in the approved plan: %s (re-approve the plan to track it)", shown[i]))
			continue
		case "changed":
			add(r, protocol.DiagnosticSeverityWarning, codeDrift, t.ID,
				fmt.Sprintf("plan item #%d differs from the approved plan: re-approve to track the new text", t.ID))
		}
		if t == nil {
			continue
		}
		if blockers := v.openBlockers(t); len(blockers) > 0 && isOpen(t) {
			d := add(r, sev, codeBlocked, t.ID,
				fmt.Sprintf("plan item #%d is blocked by %s: %s", t.ID, idList(blockers), shown[i]))
			d.RelatedInformation = v.related(blockers)
		} else {
			switch t.Status {
			case core.Pending:
				add(r, sev, codeOpen, t.ID, fmt.Sprintf("open plan item #%d (pending): %s", t.ID, shown[i]))
			case core.InProgress:
				add(r, sev, codeInProgress, t.ID, fmt.Sprintf("plan item #%d in progress: %s", t.ID, shown[i]))
			case core.Completed, core.Deferred:
				if msg := noProof(t); msg != "" {
					// Only a hand edit of state.json closes an item without
					// proof: the item still owes it, so it stays visible.
					add(r, protocol.DiagnosticSeverityWarning, codeNoProof, t.ID, msg)
				} else {
					if msg := weakEvidence(t); msg != "" {
						add(r, protocol.DiagnosticSeverityWarning, codeWeak, t.ID, msg)
					}
					if cfg.FadeClosed {
						d := add(r, protocol.DiagnosticSeverityHint, codeClosed, t.ID, closedMsg(t))
						d.Tags = []protocol.DiagnosticTag{protocol.DiagnosticTagUnnecessary}
					}
				}
			}
		}
		if isOpen(t) && vi.item.Checkbox == planparse.Checked {
			add(r, protocol.DiagnosticSeverityWarning, codeChecked, t.ID, core.TickedMessage(t.ID))
		}
	}
	out[v.uri] = list
	return out
}

// shownTexts is the subject each item's diagnostic quotes
// (planparse.Display, all from one parse): a new item's own, else its
// approved plan item's when that is missing or open; "" for the rest,
// whose messages quote none.
func shownTexts(items []viewItem) []string {
	pairs := make([][2]string, len(items))
	for i, vi := range items {
		switch {
		case vi.drift == "new":
			pairs[i] = [2]string{vi.item.Subject, vi.item.PlanText}
		case vi.item == nil || isOpen(vi.task):
			pairs[i] = [2]string{vi.task.Subject, vi.task.PlanText}
		}
	}
	return planparse.Displays(pairs)
}

// notApprovedMsg is the plan-not-approved message for a plan titled title
// with n items.
func notApprovedMsg(title string, n int) string {
	if n == 0 {
		return fmt.Sprintf("plan %q is not approved and has no plan items yet: add a top-level bullet per piece of work", title)
	}
	return fmt.Sprintf("plan %q is not approved: approve it to track its %s", title, core.CountNoun(n, "item"))
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
	tr := v.plan.TitleRange
	if tr.End > tr.Start {
		return v.m.rng(tr.Start, tr.End)
	}
	return v.m.rng(0, v.m.lineEnd(0))
}

// openBlockers lists the ids in t.BlockedBy whose task is still open.
func (v *view) openBlockers(t *core.Task) []int {
	var ids []int
	for _, id := range t.BlockedBy {
		if isOpen(v.task(id)) {
			ids = append(ids, id)
		}
	}
	return ids
}

// related points at each blocker's line in the plan (its title when the
// blocker is not in the file).
func (v *view) related(ids []int) []protocol.DiagnosticRelatedInformation {
	var out []protocol.DiagnosticRelatedInformation
	for _, id := range ids {
		t := v.task(id)
		r := v.titleRange()
		if vi := v.itemByID(id); vi != nil && vi.item != nil {
			r = v.m.rng(vi.item.Line.Start, vi.item.Line.End)
		}
		out = append(out, protocol.DiagnosticRelatedInformation{
			Location: protocol.Location{URI: protocol.DocumentURI(v.uri), Range: r},
			Message:  fmt.Sprintf("#%d (%s): %s", id, t.Status, t.Subject),
		})
	}
	return out
}

func idList(ids []int) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = fmt.Sprintf("#%d", id)
	}
	return strings.Join(parts, ", ")
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

// noProof describes a closed item that carries no proof (a completed task
// without evidence, a deferred one without a reason: seed "Status
// transitions"), or returns "" when its proof is there.
func noProof(t *core.Task) string {
	switch {
	case t.Status == core.Completed && strings.TrimSpace(t.Evidence) == "":
		return "plan item #" + strconv.Itoa(t.ID) + " is completed without evidence (state.json edited by hand?): " + t.Subject
	case t.Status == core.Deferred && strings.TrimSpace(t.Reason) == "":
		return "plan item #" + strconv.Itoa(t.ID) + " is deferred without a reason (state.json edited by hand?): " + t.Subject
	}
	return ""
}

// textDrift reports an edit of the approved text that no item shows
// (issue 10: every edit to approved text is plan-drift): the text changed
// as a reader sees it, and every item is the same as approved. The items
// are asked first: while an item is being edited, hashing the whole text
// again is not needed.
func textDrift(v *view) bool {
	for i := range v.items {
		if v.items[i].drift != "same" {
			return false
		}
	}
	return v.needsReapproval && core.TextChanged(v.text, v.state.Plan)
}
