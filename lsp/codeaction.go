package lsp

import (
	"fmt"

	"go.lsp.dev/protocol"

	"github.com/planls/planls/core"
)

// itemArg and planArg are the command argument objects of code actions
// and lenses; Evidence is set by a ready action (docs/PROTOCOL.md
// "Commands": planls.complete {"id", "evidence", "uri"}).
type itemArg struct {
	ID       int    `json:"id"`
	URI      string `json:"uri"`
	Evidence string `json:"evidence,omitempty"`
}

type planArg struct {
	URI string `json:"uri"`
}

// itemCommands lists the commands that apply to task t of the plan at uri
// in its status, in display order (code actions and lenses alike).
func itemCommands(t *core.Task, uri string) []protocol.Command {
	c := func(title, cmd string) protocol.Command {
		return protocol.Command{Title: fmt.Sprintf(title, t.ID), Command: cmd, Arguments: []any{itemArg{ID: t.ID, URI: uri}}}
	}
	switch t.Status {
	case core.Pending:
		return []protocol.Command{c("Complete #%d…", "planls.complete"), c("Defer #%d…", "planls.defer"), c("Start #%d", "planls.start")}
	case core.InProgress:
		return []protocol.Command{c("Complete #%d…", "planls.complete"), c("Defer #%d…", "planls.defer"), c("Reopen #%d", "planls.reopen")}
	case core.Deferred:
		return []protocol.Command{c("Reopen #%d", "planls.reopen"), c("Start #%d", "planls.start")}
	}
	return nil
}

func approveCommand(title, uri string) *protocol.Command {
	return &protocol.Command{Title: title, Command: "planls.approve", Arguments: []any{planArg{URI: uri}}}
}

// codeAction offers quick fixes for the items on the requested lines and the
// diagnostics in the context. A context diagnostic is tied to an item by its
// data.id, else by its line, never by exact range equality: clients echo
// ranges in their own units. The ready evidence is the snapshot's
// HEAD, as the background refresh last found it.
func codeAction(v *session, p *protocol.CodeActionParams) (any, error) {
	actions := []protocol.CodeAction{}
	sn := v.planOf(p.TextDocument.URI)
	if sn == nil {
		return shapeActions(v.caps, actions, p.Context.Only), nil
	}
	all := sn.all()
	if wantsSourceOnly(p.Context.Only) {
		// A source action applies to the whole file whatever the range.
		p.Range.Start.Line, p.Range.End.Line = 0, uint32(sn.m.lineOf(len(sn.text)))
	}
	first, last := int(p.Range.Start.Line), int(p.Range.End.Line)
	ids := map[int]bool{}
	planWide := false
	for _, d := range p.Context.Diagnostics {
		if d.Source != "planls" {
			continue
		}
		id, code := dataOf(d.Data)
		if code == "" {
			code, _ = d.Code.(string)
		}
		switch {
		case id > 0 && code != core.RuleDrift:
			ids[id] = true
		case code == core.RuleNotApproved || code == core.RuleDrift:
			planWide = true
		default:
			first, last = min(first, int(d.Range.Start.Line)), max(last, int(d.Range.End.Line))
		}
	}
	// The diagnostics computed with this snapshot (all of them, also past
	// the publish cap), not recomputed.
	onLine := func(line int) []protocol.Diagnostic {
		var out []protocol.Diagnostic
		for _, d := range all {
			if int(d.Range.Start.Line) == line {
				out = append(out, d)
			}
		}
		return out
	}
	items := sn.items()
	for i := range items {
		it := &items[i]
		if it.Plan == nil {
			continue
		}
		line := sn.m.lineOf(it.Plan.Line.Start)
		inRange := line >= first && line <= last
		if it.Drift == core.DriftNew && inRange {
			planWide = true
		}
		if it.Task == nil || (!ids[it.Task.ID] && !inRange) {
			continue
		}
		ds := onLine(line)
		kind := protocol.RefactorRewrite
		if len(ds) > 0 {
			kind = protocol.QuickFix
		}
		for _, c := range itemCommands(it.Task, sn.uri) {
			actions = append(actions, protocol.CodeAction{Title: c.Title, Kind: kind, Diagnostics: ds, Command: &c})
			if c.Command == "planls.complete" {
				actions = append(actions, readyActions(it.Task, sn.uri, kind, ds, suggestionsFrom(sn.head, sn.an.State, it.Task, "evidence"))...)
			}
		}
		if it.Task.Status == core.Completed {
			// A person's correction (core.Reopen): it asks why, and is not a
			// lens, since completed items carry none.
			c := protocol.Command{Title: fmt.Sprintf("Reopen #%d…", it.Task.ID), Command: "planls.reopen", Arguments: []any{itemArg{ID: it.Task.ID, URI: sn.uri}}}
			actions = append(actions, protocol.CodeAction{Title: c.Title, Kind: kind, Diagnostics: ds, Command: &c})
		}
		if it.Drift == core.DriftChanged {
			planWide = true
		}
	}
	if titleLine := int(sn.titleRange().Start.Line); titleLine >= first && titleLine <= last {
		planWide = true
	}
	if an := sn.an; planWide && (!an.Approved || an.NeedsReapproval) {
		title := "Approve plan"
		if an.Approved {
			title = "Re-approve plan"
		}
		var ds []protocol.Diagnostic
		for _, d := range all {
			if c, _ := d.Code.(string); c == core.RuleNotApproved || c == core.RuleDrift {
				ds = append(ds, d)
			}
		}
		actions = append(actions, protocol.CodeAction{
			Title: title, Kind: kindApprove, Diagnostics: ds, IsPreferred: !an.Approved, Command: approveCommand(title, sn.uri),
		})
	}
	return shapeActions(v.caps, actions, p.Context.Only), nil
}

// dataOf reads {"id", "code"} from a diagnostic's data as the client echoed it.
func dataOf(data any) (int, string) {
	m, ok := data.(map[string]any)
	if !ok {
		return 0, ""
	}
	id := 0
	if n, ok := m["id"].(float64); ok && n > 0 && n < 1<<31 {
		id = int(n)
	}
	code, _ := m["code"].(string)
	return id, code
}
