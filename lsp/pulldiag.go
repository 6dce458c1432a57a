package lsp

import (
	"encoding/json"
	"hash/maphash"
	"strconv"

	"go.lsp.dev/protocol"
)

// Pull diagnostics (LSP 3.17 textDocument/diagnostic) for the clients that
// declare them and can be told to pull again: an open plan's diagnostics
// are answered from its snapshot with a result id, and a pull naming the
// id of what the client already has is answered "unchanged", so asking
// again about a plan that did not change costs nothing. A change the client
// did not make itself (the state, the file on disk, a verification that
// landed) sends workspace/diagnostic/refresh; after its own edits a client
// pulls by itself. Documents that are not open (the state file) are still
// pushed.

// diagnosticOptions is DiagnosticOptions (3.17).
type diagnosticOptions struct {
	Identifier            string `json:"identifier"`
	InterFileDependencies bool   `json:"interFileDependencies"`
	WorkspaceDiagnostics  bool   `json:"workspaceDiagnostics"`
}

func diagnosticProviderFor(c clientCaps) *diagnosticOptions {
	if !c.pullDiags {
		return nil
	}
	return &diagnosticOptions{Identifier: "planls"}
}

// pullReport is a snapshot's full document diagnostic report, encoded,
// and its result id.
type pullReport struct {
	id   string
	full json.RawMessage
}

// pullReportOf encodes sn's diagnostics as a full report once; the result
// id is a fingerprint of what they mean.
func pullReportOf(sn *snapshot) pullReport {
	sn.pullOnce.Do(func() {
		b := []byte(`{"kind":"full","resultId":"`)
		idAt := len(b)
		b = append(b, `________________","items":[`...)
		body := len(b)
		for i := range sn.shown {
			if i > 0 {
				b = append(b, ',')
			}
			b, _ = appendDiagnostic(b, &sn.shown[i])
		}
		var h maphash.Hash
		h.SetSeed(hashSeed)
		h.Write(b[body:])
		id := strconv.FormatUint(h.Sum64(), 16)
		id = "0000000000000000"[len(id):] + id
		copy(b[idAt:], id)
		sn.pull = pullReport{id: id, full: append(b, "]}"...)}
	})
	return sn.pull
}

// diagnosticParams is DocumentDiagnosticParams (3.17), as far as it is read.
type diagnosticParams struct {
	TextDocument     protocol.TextDocumentIdentifier `json:"textDocument"`
	PreviousResultID string                          `json:"previousResultId"`
}

// diagnostic answers textDocument/diagnostic: the plan's report, or an
// empty one for a document that is not a folder's plan.
func diagnostic(v *session, p *diagnosticParams) (any, error) {
	sn := v.planOf(p.TextDocument.URI)
	if sn == nil {
		return json.RawMessage(`{"kind":"full","items":[]}`), nil
	}
	r := pullReportOf(sn)
	if p.PreviousResultID == r.id {
		return json.RawMessage(`{"kind":"unchanged","resultId":"` + r.id + `"}`), nil
	}
	return r.full, nil
}

// docOpen reports whether the client has uri open (caller holds mu).
func (s *server) docOpen(uri string) bool {
	for _, d := range s.docs {
		if d.uri == uri {
			return true
		}
	}
	return false
}

// pullSum fingerprints sn's pulled diagnostics (their result id).
func pullSum(sn *snapshot) uint64 {
	n, _ := strconv.ParseUint(pullReportOf(sn).id, 16, 64)
	return n
}
