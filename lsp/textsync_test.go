package lsp

import (
	"testing"
	unicode16 "unicode/utf16"

	"go.lsp.dev/protocol"

	"github.com/planls/planls/core"
)

func rangePtr(l1, c1, l2, c2 uint32) *protocol.Range {
	return &protocol.Range{Start: protocol.Position{Line: l1, Character: c1}, End: protocol.Position{Line: l2, Character: c2}}
}

// Each change applies to the text the previous ones produced, in the
// negotiated encoding; no range (whole text), ranges past the end and
// reversed ranges never panic or lose text.
func TestApplyChanges(t *testing.T) {
	for _, tc := range []struct {
		name    string
		text    string
		enc     encoding
		changes []contentChange
		want    string
	}{
		{"insert", "ab\ncd\n", utf16, []contentChange{{Range: rangePtr(1, 1, 1, 1), Text: "X"}}, "ab\ncXd\n"},
		{"insert at 0:0 is not a whole-text change", "ab", utf16, []contentChange{{Range: rangePtr(0, 0, 0, 0), Text: "X"}}, "Xab"},
		{"whole text", "ab", utf16, []contentChange{{Text: "new"}}, "new"},
		{"delete across lines", "ab\ncd\nef", utf16, []contentChange{{Range: rangePtr(0, 1, 2, 1), Text: ""}}, "af"},
		{"in order", "abc", utf16, []contentChange{
			{Range: rangePtr(0, 0, 0, 1), Text: "XY"}, // XYbc
			{Range: rangePtr(0, 2, 0, 3), Text: ""},   // XYc
		}, "XYc"},
		{"whole text then range", "zzz", utf16, []contentChange{{Text: "abc"}, {Range: rangePtr(0, 3, 0, 3), Text: "d"}}, "abcd"},
		{"utf-16 after an astral character", "🚀x\n", utf16, []contentChange{{Range: rangePtr(0, 2, 0, 3), Text: "y"}}, "🚀y\n"},
		{"utf-8 after an astral character", "🚀x\n", utf8Enc, []contentChange{{Range: rangePtr(0, 4, 0, 5), Text: "y"}}, "🚀y\n"},
		{"inside a surrogate pair maps to the character start", "🚀x", utf16, []contentChange{{Range: rangePtr(0, 1, 0, 1), Text: "|"}}, "|🚀x"},
		{"crlf", "a\r\nb\r\n", utf16, []contentChange{{Range: rangePtr(1, 0, 1, 1), Text: "c"}}, "a\r\nc\r\n"},
		{"past the end is clamped", "ab\n", utf16, []contentChange{{Range: rangePtr(0, 9, 7, 3), Text: "!"}}, "ab!"},
		{"reversed range", "abcd", utf16, []contentChange{{Range: rangePtr(0, 3, 0, 1), Text: "-"}}, "a-d"},
		{"empty document", "", utf16, []contentChange{{Range: rangePtr(0, 0, 0, 0), Text: "# P\n"}}, "# P\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			orig := []byte(tc.text)
			got := applyChanges(orig, tc.changes, tc.enc)
			if string(got) != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			if string(orig) != tc.text {
				t.Errorf("the original text changed to %q: views share it", orig)
			}
		})
	}
}

// Ranged edits over the wire (as Neovim and VS Code send them under
// incremental sync) leave the server with the same diagnostics as a fresh
// server that opened the final text, in both position encodings.
func TestIncrementalSync(t *testing.T) {
	text := "# P\n\n## G\n- 🚀 deploy привет\n- second item\n"
	final := "# P\n\n## G\n- 🚀 deploy привет\n- second item\n- third 🚀\n"
	for _, tc := range []struct {
		name  string
		offer []string
		// The edits: type "- third 🚀" on a new last line, one change per
		// keystroke, then fix a typo inside the first item.
		col func(s string) uint32
	}{
		{"utf-16", nil, func(s string) uint32 { return uint32(len(unicode16.Encode([]rune(s)))) }},
		{"utf-8", []string{"utf-8"}, func(s string) uint32 { return uint32(len(s)) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, plan := workspace(t, text)
			cliApprove(t, root)
			caps := encodingCaps(tc.offer)
			opts := testOptions()
			opts.noFSWatch = true
			e := newEnv(t, envConfig{noInit: true, opts: opts})
			res := e.initialize(envConfig{folders: []string{root}, caps: caps})
			if sync := res["capabilities"].(map[string]any)["textDocumentSync"].(map[string]any)["change"]; sync != float64(2) {
				t.Fatalf("textDocumentSync.change = %v, want 2 (incremental)", sync)
			}
			u := e.open(plan, text)
			e.waitDiags(u, "open items", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleOpen) == 2 })
			version := 1
			edit := func(r *protocol.Range, s string) {
				version++
				e.notify("textDocument/didChange", map[string]any{
					"textDocument":   map[string]any{"uri": u, "version": version},
					"contentChanges": []any{contentChange{Range: r, Text: s}},
				})
			}
			typed := ""
			for _, r := range "- third 🚀\n" {
				c := tc.col(typed)
				edit(rangePtr(5, c, 5, c), string(r))
				if r != '\n' {
					typed += string(r)
				}
			}
			// "deploy" → "deplox" → "deploy": a replaced character after
			// non-ASCII text on the line.
			at := tc.col("- 🚀 deplo")
			edit(rangePtr(3, at, 3, at+1), "x")
			edit(rangePtr(3, at, 3, at+1), "y")
			e.barrier()
			fresh := newEnv(t, envConfig{noInit: true, opts: opts})
			fresh.initialize(envConfig{folders: []string{root}, caps: caps})
			fresh.open(plan, final)
			fresh.waitDiags(u, "fresh", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleDrift) == 1 })
			if got, want := diagsJSON(t, e, u), diagsJSON(t, fresh, u); got != want {
				t.Errorf("after ranged edits\n got %s\nwant %s", got, want)
			}
			var pe planResult
			e.call("planls/plan", map[string]any{}, &pe)
			if n := len(pe.Groups[0].Items); n != 3 {
				t.Errorf("planls/plan lists %d items, want 3 (the typed bullet is new)", n)
			}
		})
	}
}
