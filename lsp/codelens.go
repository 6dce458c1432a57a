package lsp

import "go.lsp.dev/protocol"

// codeLens shows, above each tracked item, its one-click actions (the
// same commands as the code actions).
func codeLens(v *session, p *protocol.CodeLensParams) (any, error) {
	out := []protocol.CodeLens{}
	sn := v.planOf(p.TextDocument.URI)
	if sn == nil {
		return out, nil
	}
	if !sn.an.Approved {
		return previewLenses(sn), nil
	}
	if sn.an.NeedsReapproval {
		out = append(out, protocol.CodeLens{Range: sn.titleRange(), Command: approveCommand("Re-approve plan", sn.uri)})
	}
	items := sn.items()
	for i := range items {
		it := &items[i]
		if it.Plan == nil || it.Task == nil {
			continue
		}
		// The status is an inlay hint (inlayhint.go), not a lens that runs
		// nothing: every lens here is a command.
		rng := sn.lineRange(it)
		for _, c := range itemCommands(it.Task, sn.uri) {
			out = append(out, protocol.CodeLens{Range: rng, Command: &c})
		}
	}
	return out, nil
}
