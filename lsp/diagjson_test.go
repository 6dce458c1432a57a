package lsp

import (
	"encoding/json"
	"testing"

	"go.lsp.dev/protocol"
)

// The hand-written publish is byte for byte encoding/json's, for every
// shape planls publishes and for text that needs escaping.
func TestDiagnosticsJSON(t *testing.T) {
	rng := protocol.Range{Start: protocol.Position{Line: 3, Character: 0}, End: protocol.Position{Line: 3, Character: 41}}
	lists := [][]protocol.Diagnostic{
		{},
		{{Range: rng, Severity: 3, Code: "open-item", Source: "planls", Message: "open plan item #3 (pending): a <b> & \"c\"\\d",
			Data: &diagData{ID: 3, Code: "open-item"}}},
		{{Range: protocol.Range{Start: protocol.Position{Line: 2, Character: 5}, End: protocol.Position{Line: 2, Character: 5}},
			Severity: 2, Code: "plan-drift", Source: "planls", Message: "approved plan item #2 is missing from the plan file: two",
			Data: &diagData{ID: 2, Code: "plan-drift", Gone: true}}},
		{{Range: rng, Severity: 4, Code: "closed-item", Source: "planls", Message: "tab\there\nnew\x01\x7f é 😀 \u2028 \xff",
			Tags: []protocol.DiagnosticTag{protocol.DiagnosticTagUnnecessary}, Data: &diagData{Code: "closed-item"}}},
		{{Range: rng, Severity: 3, Code: "blocked", Source: "planls", Message: "blocked",
			RelatedInformation: []protocol.DiagnosticRelatedInformation{{Location: protocol.Location{URI: "file:///a%20b/PLAN.md", Range: rng}, Message: "#1 (pending): x"}},
			Data:               &diagData{ID: 4, Code: "blocked"}},
			{Range: rng, Message: "no code, no data"},
			{Range: rng, Code: int32(7), Message: "another code type", Data: map[string]any{"x": 1}}},
	}
	every := make([]byte, 256) // every byte, as a message holds it
	for i := range every {
		every[i] = byte(i)
	}
	lists = append(lists, []protocol.Diagnostic{{Range: rng, Message: string(every)}})
	for _, list := range lists {
		for _, version := range []uint32{0, 12} {
			got, body, err := appendPublish(nil, "file:///w/PLAN.md", version, list)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := json.Marshal(notification{Version: "2.0", Method: "textDocument/publishDiagnostics",
				Params: protocol.PublishDiagnosticsParams{URI: "file:///w/PLAN.md", Version: version, Diagnostics: list}})
			if string(got) != string(want) {
				t.Errorf("got  %s\nwant %s", got, want)
			}
			if string(got[body-len(`"diagnostics":[`):body]) != `"diagnostics":[` {
				t.Errorf("body at %d: %s", body, got[body:])
			}
		}
	}
}
