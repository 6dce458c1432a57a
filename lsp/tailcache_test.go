package lsp

import (
	"encoding/json"
	"math"
	"testing"

	"go.lsp.dev/protocol"
)

// Through the tail cache, every encoding is still json.Marshal's, byte for
// byte, when any one input of a cached tail changes between two publishes.
func TestTailCacheNeverStale(t *testing.T) {
	base := func() []protocol.Diagnostic {
		return []protocol.Diagnostic{
			{Range: protocol.Range{End: protocol.Position{Character: 5}}, Severity: 3, Code: codeOpen, Source: "planls",
				Message: "open plan item #1 (pending): a", Data: &diagData{ID: 1, Code: codeOpen}},
			{Range: protocol.Range{Start: protocol.Position{Line: 1}}, Severity: 2, Code: codeDrift, Source: "planls",
				Message: "plan item #1 differs", Data: &diagData{ID: 1, Code: codeDrift}},
			{Severity: 2, Code: codeChecked, Source: "planls", Message: "ticked", Data: diagData{ID: 2, Code: codeChecked}},
			{Severity: 4, Code: codeClosed, Source: "planls", Message: "closed", Tags: []protocol.DiagnosticTag{1},
				Data: &diagData{ID: 3, Code: codeClosed}},
			{Severity: 1, Code: codeStateBad, Source: "planls", Message: "no id", Data: &diagData{Code: codeStateBad}},
			{Severity: 3, Code: codeOpen, Source: "planls", Message: "far", Data: &diagData{ID: 1 << 30, Code: codeOpen}},
			{Severity: 3, Code: codeChecked, Source: "planls", Message: "max", Data: &diagData{ID: math.MaxInt, Code: codeChecked}},
		}
	}
	edits := []struct {
		name string
		edit func(d []protocol.Diagnostic)
	}{
		{"nothing", func(d []protocol.Diagnostic) {}},
		{"range", func(d []protocol.Diagnostic) { d[0].Range.Start.Line = 9 }},
		{"severity", func(d []protocol.Diagnostic) { d[0].Severity = 1 }},
		{"code", func(d []protocol.Diagnostic) { d[0].Code = codeInProgress }},
		{"no code", func(d []protocol.Diagnostic) { d[0].Code = nil }},
		{"source", func(d []protocol.Diagnostic) { d[0].Source = "other" }},
		{"message", func(d []protocol.Diagnostic) { d[0].Message = "open plan item #1 (pending): b" }},
		{"message escapes", func(d []protocol.Diagnostic) { d[0].Message = "a <b> & \"c\"" }},
		{"data id", func(d []protocol.Diagnostic) { d[0].Data = &diagData{ID: 7, Code: codeOpen} }},
		{"data code", func(d []protocol.Diagnostic) { d[0].Data = &diagData{ID: 1, Code: codeBlocked} }},
		{"data by value", func(d []protocol.Diagnostic) { d[0].Data = diagData{ID: 1, Code: codeOpen} }},
		{"tags", func(d []protocol.Diagnostic) { d[0].Tags = []protocol.DiagnosticTag{2} }},
		{"related", func(d []protocol.Diagnostic) {
			d[0].RelatedInformation = []protocol.DiagnosticRelatedInformation{{Message: "r"}}
		}},
		{"swap kinds", func(d []protocol.Diagnostic) { d[0], d[1] = d[1], d[0] }},
		{"closed tag removed", func(d []protocol.Diagnostic) { d[3].Tags = nil }},
		{"far id message", func(d []protocol.Diagnostic) { d[5].Message = "far away" }},
		{"state message", func(d []protocol.Diagnostic) { d[4].Message = "still no id" }},
	}
	var c tailCache
	check := func(step string, list []protocol.Diagnostic) {
		t.Helper()
		want, err := json.Marshal(list)
		if err != nil {
			t.Fatal(err)
		}
		got, err := appendDiagnosticsWith(nil, list, &c)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s:\n got %s\nwant %s", step, got, want)
		}
	}
	for _, e := range edits {
		check(e.name+" (before)", base())
		list := base()
		e.edit(list)
		check(e.name, list)
		check(e.name+" (again)", list)
	}
}
