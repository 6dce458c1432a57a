package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/planls/planls/core"
	"github.com/planls/planls/internal/plangen"
	"github.com/planls/planls/planparse"
)

// TestAppendDiagnosticsMatchesMarshal: the hand encoder gives exactly the
// bytes of json.Marshal, for every shape a diagnostic takes.
func TestAppendDiagnosticsMatchesMarshal(t *testing.T) {
	rng := protocol.Range{Start: protocol.Position{Line: 3, Character: 0}, End: protocol.Position{Line: 3, Character: 4294967295}}
	tests := []struct {
		name string
		list []protocol.Diagnostic
	}{
		{"nil list", nil},
		{"empty list", []protocol.Diagnostic{}},
		{"zero diagnostic", []protocol.Diagnostic{{}}},
		{"open item", []protocol.Diagnostic{{Range: rng, Severity: protocol.DiagnosticSeverityInformation, Code: codeOpen,
			Source: "planls", Message: "open plan item #3 (pending): Add `x`", Data: diagData{ID: 3, Code: codeOpen}}}},
		{"escapes and html", []protocol.Diagnostic{{Range: rng, Severity: 2, Code: "a\"b\\c", Source: "<planls>",
			Message: "tab\there\nnew & <b> \x01 \x7f", Data: diagData{Code: "x&y"}}}},
		{"non-ascii", []protocol.Diagnostic{{Message: "多语言支持 — Migración, Поиск ✓ 😀"}}},
		{"invalid utf-8", []protocol.Diagnostic{{Message: "bad \xff\xfe byte", Source: "\xc3"}}},
		{"line separators", []protocol.Diagnostic{{Message: "a\u2028b\u2029c"}}},
		{"closed with tag", []protocol.Diagnostic{{Range: rng, Severity: 4, Code: codeClosed, Source: "planls",
			Message: "plan item #1 completed: ok", Tags: []protocol.DiagnosticTag{protocol.DiagnosticTagUnnecessary, protocol.DiagnosticTagDeprecated},
			Data: diagData{ID: 1, Code: codeClosed}}}},
		{"blocked with related", []protocol.Diagnostic{{Range: rng, Severity: 3, Code: codeBlocked, Source: "planls", Message: "m",
			RelatedInformation: []protocol.DiagnosticRelatedInformation{
				{Location: protocol.Location{URI: "file:///w/PLAN%20x.md", Range: rng}, Message: "#1 (pending): a"},
				{Location: protocol.Location{URI: "file:///w/<odd>", Range: protocol.Range{}}, Message: ""},
			}, Data: diagData{ID: 2, Code: codeBlocked}}}},
		{"numeric code", []protocol.Diagnostic{{Code: int32(7), Message: "n"}}},
		{"foreign data", []protocol.Diagnostic{{Data: map[string]any{"z": 1, "a": []int{1}}, Message: "d"}}},
		{"code description", []protocol.Diagnostic{{CodeDescription: &protocol.CodeDescription{Href: "https://x"}, Code: "c"}}},
		{"fractional severity", []protocol.Diagnostic{{Severity: 1.5, Tags: []protocol.DiagnosticTag{2.25}}}},
		{"data by pointer", []protocol.Diagnostic{{Message: "p", Data: &diagData{ID: 4, Code: codeOpen}}}},
		{"nil data pointer", []protocol.Diagnostic{{Message: "p", Data: (*diagData)(nil)}}},
		{"several", []protocol.Diagnostic{{Message: "a"}, {Message: "b", Severity: 1}, {Code: "", Message: "c"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want, err := json.Marshal(tc.list)
			if err != nil {
				t.Fatal(err)
			}
			got, err := appendDiagnostics(nil, tc.list)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Errorf("got  %s\nwant %s", got, want)
			}
		})
	}
}

// TestAppendDiagnosticsOfViews compares the encoders on the diagnostics of
// real plans, approved with blockers and closed items, faded and not.
func TestAppendDiagnosticsOfViews(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.md")
	if len(files) == 0 {
		t.Fatal("no testdata plans")
	}
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		approved := core.Approve(core.Empty(), planparse.Parse(src), src, "PLAN.md", core.Options{}).State
		if len(approved.Tasks) > 2 {
			approved.Tasks[0].Status, approved.Tasks[0].Evidence = core.Completed, "done <here> & \"there\""
			approved.Tasks[2].BlockedBy = []int{approved.Tasks[1].ID}
		}
		for _, st := range []*core.State{core.Empty(), approved} {
			for _, fade := range []bool{false, true} {
				s := &server{settings: settings{PlanFiles: []string{"PLAN.md"}, Severity: "information", FadeClosed: fade}, docs: map[string]*document{}}
				fo := newFolder("/w", "file:///w")
				fo.state, fo.planPath, fo.planDisk = st, "/w/PLAN.md", append([]byte(nil), src...)
				for uri, list := range s.diagnostics(fo, s.buildView(fo)) {
					want, _ := json.Marshal(list)
					got, err := appendDiagnostics(nil, list)
					if err != nil || string(got) != string(want) {
						t.Errorf("%s %s fade=%v: err %v\ngot  %s\nwant %s", file, uri, fade, err, got, want)
					}
				}
			}
		}
	}
}

// FuzzAppendString: any string is quoted exactly as encoding/json does.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain", "多语言", "a\"b", "\xff", "\u2028", "<&>", "\x00\x1f", "\xed\xa0\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := appendString(nil, s); string(got) != string(want) {
			t.Fatalf("appendString(%q) = %s, want %s", s, got, want)
		}
	})
}

// BenchmarkAppendDiagnostics10k encodes the open-item diagnostics of a
// 10k-item generated plan (a third of the subjects are not ASCII), without
// and with the tail cache (warm: the ranges change, nothing else).
func BenchmarkAppendDiagnostics10k(b *testing.B) {
	p := planparse.Parse(plangen.Generate(10000, 1))
	list := make([]protocol.Diagnostic, len(p.Items))
	for i, it := range p.Items {
		list[i] = protocol.Diagnostic{
			Range:    protocol.Range{Start: protocol.Position{Line: uint32(3 * i), Character: 2}, End: protocol.Position{Line: uint32(3 * i), Character: 40}},
			Severity: protocol.DiagnosticSeverityInformation, Code: codeOpen, Source: "planls",
			Message: "open plan item #" + strconv.Itoa(i+1) + " (pending): " + it.Subject,
			Data:    &diagData{ID: i + 1, Code: codeOpen},
		}
	}
	for _, cached := range []bool{false, true} {
		b.Run(map[bool]string{false: "plain", true: "cached"}[cached], func(b *testing.B) {
			var tails *tailCache
			if cached {
				tails = &tailCache{}
			}
			var buf []byte
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for j := range list {
					list[j].Range.Start.Line++
				}
				var err error
				if buf, err = appendDiagnosticsWith(buf[:0], list, tails); err != nil {
					b.Fatal(err)
				}
			}
			b.SetBytes(int64(len(buf)))
		})
	}
}
