package lsp

import "go.lsp.dev/protocol"

// codeLens shows, above each tracked item, its one-click actions (the
// same commands as the code actions).
func (s *server) codeLens(r *request) (any, error) {
	var p protocol.CodeLensParams
	if err := decode(r.params, &p); err != nil {
		return nil, err
	}
	out := []protocol.CodeLens{}
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.planFolderOf(p.TextDocument.URI)
	if f == nil {
		return out, nil
	}
	v := f.view
	if !v.approved {
		return previewLenses(v), nil
	}
	if v.needsReapproval {
		out = append(out, protocol.CodeLens{Range: v.titleRange(), Command: approveCommand("Re-approve plan", v.uri)})
	}
	for i := range v.items {
		vi := &v.items[i]
		if vi.Plan == nil || vi.Task == nil {
			continue
		}
		// The status is an inlay hint (inlayhint.go), not a lens that runs
		// nothing: every lens here is a command.
		rng := v.m.rng(vi.Plan.Line.Start, vi.Plan.Line.End)
		for _, c := range itemCommands(vi.Task, v.uri) {
			out = append(out, protocol.CodeLens{Range: rng, Command: &c})
		}
	}
	return out, nil
}
