package lsp

import (
	"encoding/json"
	"testing"

	"github.com/planls/planls/internal/plangen"
)

func sameChange(t *testing.T, raw []byte) (scanned bool) {
	t.Helper()
	_, scanned = scanDidChange(raw)
	got, gerr := decodeDidChange(raw)
	want, werr := decodeDidChangeJSON(raw)
	if (gerr == nil) != (werr == nil) || got.uri != want.uri || got.version != want.version ||
		got.changes != want.changes || string(got.text) != string(want.text) {
		t.Fatalf("%q:\ngot  %+v %v\nwant %+v %v", raw, got, gerr, want, werr)
	}
	if u, v, ok := changeTarget(raw); ok && werr == nil && (u != want.uri || v != want.version) {
		t.Fatalf("%q: changeTarget %q %d, want %q %d", raw, u, v, want.uri, want.version)
	}
	return scanned
}

// TestDecodeDidChange: the scanner's result is encoding/json's, and shapes
// it does not take fall back.
func TestDecodeDidChange(t *testing.T) {
	tests := []struct {
		name, raw string
		scanned   bool
	}{
		{"full sync", `{"textDocument":{"uri":"file:///p/PLAN.md","version":7},"contentChanges":[{"text":"# T\n\n## G\n- a \"b\" \\ c/d\t多 😀\r\n"}]}`, true},
		{"order and spaces", ` { "contentChanges" : [ {"text":"x"} , {"text" : "y\/z\b\f"} ] , "textDocument" : {"version":2,"uri":"file:///p"} } `, true},
		{"no changes", `{"textDocument":{"uri":"file:///p","version":2},"contentChanges":[]}`, false},
		{"unicode escape", `{"textDocument":{"uri":"file:///p","version":2},"contentChanges":[{"text":"a\u00e9\ud83d\ude00\u003c\u0026\u0000\uFFFF"}]}`, true},
		{"surrogate then not low", `{"textDocument":{"uri":"file:///p","version":2},"contentChanges":[{"text":"\ud83d\u0041"}]}`, false},
		{"short unicode escape", `{"textDocument":{"uri":"file:///p","version":2},"contentChanges":[{"text":"\u00e"}]}`, false},
		{"lone surrogate", `{"textDocument":{"uri":"file:///p","version":2},"contentChanges":[{"text":"\ud800"}]}`, false},
		{"invalid utf-8", "{\"textDocument\":{\"uri\":\"file:///p\",\"version\":2},\"contentChanges\":[{\"text\":\"a\xffb\"}]}", false},
		{"raw newline", "{\"textDocument\":{\"uri\":\"file:///p\",\"version\":2},\"contentChanges\":[{\"text\":\"a\nb\"}]}", false},
		{"bad escape", `{"textDocument":{"uri":"file:///p","version":2},"contentChanges":[{"text":"a\qb"}]}`, false},
		{"with range", `{"textDocument":{"uri":"file:///p","version":2},"contentChanges":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"text":"x"}]}`, false},
		{"bad earlier change", `{"textDocument":{"uri":"file:///p","version":2},"contentChanges":[{"text":tru},{"text":"x"}]}`, false},
		{"version as string", `{"textDocument":{"uri":"file:///p","version":"2"},"contentChanges":[{"text":"x"}]}`, false},
		{"text not a string", `{"textDocument":{"uri":"file:///p","version":2},"contentChanges":[{"text":1}]}`, false},
		{"extra member", `{"textDocument":{"uri":"file:///p","version":2},"contentChanges":[{"text":"x"}],"x":1}`, false},
		{"duplicate text", `{"textDocument":{"uri":"file:///p","version":2},"contentChanges":[{"text":"x","text":"y"}]}`, false},
		{"two changes, compact", `{"textDocument":{"uri":"file:///p","version":2},"contentChanges":[{"text":"a"},{"text":"b"}]}`, true},
		{"text holding the tail", `{"textDocument":{"uri":"file:///p","version":2},"contentChanges":[{"text":"a\"}],\"z\":[{\"a\":\"b\"}]"}]}`, true},
		{"member after the changes", `{"textDocument":{"uri":"file:///p","version":2},"contentChanges":[{"text":"x"}],"z":[{"a":"b"}]}`, false},
		{"second member in the change", `{"textDocument":{"uri":"file:///p","version":2},"contentChanges":[{"text":"a","x":"b"}]}`, false},
		{"quote in the uri", `{"textDocument":{"uri":"file:///p\"}","version":2},"contentChanges":[{"text":"x"}]}`, true},
		{"document not an object", `{"textDocument":"x","contentChanges":[{"text":"x"}]}`, false},
		{"trailing space", `{"textDocument":{"uri":"file:///p","version":2},"contentChanges":[{"text":"x"}]} `, true},
		{"not an object", `[1]`, false},
		{"null", `null`, false},
		{"truncated", `{"textDocument":{"uri":"file:///p","version":2},"contentChanges":[{"text":"x"}`, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if scanned := sameChange(t, []byte(tc.raw)); scanned != tc.scanned {
				t.Errorf("scanned = %v, want %v", scanned, tc.scanned)
			}
			if u, v, ok := changeTarget([]byte(tc.raw)); tc.scanned && (!ok || u == "" || v == 0) {
				t.Errorf("changeTarget = %q %d %v", u, v, ok)
			}
		})
	}
}

// FuzzDecodeDidChange: for any params, the scanner and encoding/json agree.
func FuzzDecodeDidChange(f *testing.F) {
	f.Add([]byte(`{"textDocument":{"uri":"file:///p","version":2},"contentChanges":[{"text":"a\n\"b\""}]}`))
	f.Add([]byte(`{"textDocument":{"uri":"file:///p","version":-1},"contentChanges":[{"text":""},{"text":"\\"}]}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		sameChange(t, raw)
	})
}

// BenchmarkDecodeDidChange10k decodes the didChange params of a 10k-item
// plan (about 1 MB).
func BenchmarkDecodeDidChange10k(b *testing.B) {
	raw, _ := json.Marshal(map[string]any{
		"textDocument":   map[string]any{"uri": "file:///p/PLAN.md", "version": 3},
		"contentChanges": []any{map[string]any{"text": string(plangen.Generate(10000, 1))}},
	})
	b.SetBytes(int64(len(raw)))
	for i := 0; i < b.N; i++ {
		if _, err := decodeDidChange(raw); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeDidChange10kCompact decodes the same params in the
// spelling of a full-sync client (members in protocol order, no spaces),
// which scanCompactChange reads.
func BenchmarkDecodeDidChange10kCompact(b *testing.B) {
	text, _ := json.Marshal(string(plangen.Generate(10000, 1)))
	raw := append([]byte(`{"textDocument":{"uri":"file:///p/PLAN.md","version":3},"contentChanges":[{"text":`), text...)
	raw = append(raw, "}]}"...)
	if _, ok := scanCompactChange(raw); !ok {
		b.Fatal("not read as compact")
	}
	b.SetBytes(int64(len(raw)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := decodeDidChange(raw); err != nil {
			b.Fatal(err)
		}
	}
}
