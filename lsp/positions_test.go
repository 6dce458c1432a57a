package lsp

import (
	"os"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/planls/planls/core"
)

func (e *env) hoverAt(u string, line, char int) string {
	e.t.Helper()
	var h *protocol.Hover
	e.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": u},
		"position": map[string]any{"line": line, "character": char}}, &h)
	if h == nil {
		return ""
	}
	return h.Contents.Value
}

// "deploy" is at character 5 in UTF-16 and 7 in UTF-8; the chosen
// encoding is returned by initialize and used both ways.
func TestPositionEncodings(t *testing.T) {
	text := "# P\n\n## G\n- 🚀 deploy привет\n"
	for _, tc := range []struct {
		name   string
		offer  []string
		want   string
		endCol uint32
		hover  int
	}{
		{"utf-16 default", nil, "utf-16", 18, 5},
		{"utf-8 offered", []string{"utf-8", "utf-16"}, "utf-8", 26, 7},
		{"only utf-32 offered", []string{"utf-32"}, "utf-16", 18, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, plan := workspace(t, text)
			cliApprove(t, root)
			caps := encodingCaps(tc.offer)
			e := newEnv(t, envConfig{noInit: true})
			res := e.initialize(envConfig{folders: []string{root}, caps: caps})
			got := res["capabilities"].(map[string]any)["positionEncoding"]
			if got != tc.want {
				t.Errorf("positionEncoding %v, want %s", got, tc.want)
			}
			u := e.open(plan, text)
			ds := e.waitDiags(u, "open item", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleOpen) == 1 })
			if r := ds[0].Range; r.Start.Line != 3 || r.Start.Character != 0 || r.End.Character != tc.endCol {
				t.Errorf("range %+v, want 3:0-3:%d", r, tc.endCol)
			}
			if h := e.hoverAt(u, 3, tc.hover); !strings.Contains(h, "deploy") {
				t.Errorf("hover at 'deploy' = %q", h)
			}
			// A client echoing the range in other units still gets the actions (matched by data).
			d := ds[0]
			d.Range = protocol.Range{Start: protocol.Position{Line: 3, Character: 99}, End: protocol.Position{Line: 3, Character: 120}}
			if acts := e.actions(u, 0, []protocol.Diagnostic{d}); !strings.Contains(titles(acts), "Complete #1…") {
				t.Errorf("actions by data: %q", titles(acts))
			}
		})
	}
}

// CRLF and lone CR: ranges end before the line ending, on the right line.
func TestLineEndings(t *testing.T) {
	for _, name := range []string{"crlf.md", "lonecr"} {
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile("testdata/crlf.md")
			if err != nil {
				t.Fatal(err)
			}
			text := string(b)
			if name == "lonecr" {
				text = strings.ReplaceAll(text, "\r\n", "\r")
			}
			root, plan := workspace(t, text)
			cliApprove(t, root)
			e := newEnv(t, envConfig{folders: []string{root}})
			u := e.open(plan, text)
			ds := e.waitDiags(u, "3 items", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleOpen) == 3 })
			want := []struct{ line, end uint32 }{{3, 12}, {5, 13}, {8, 12}}
			for i, d := range ds {
				if d.Range.Start.Line != want[i].line || d.Range.End.Line != want[i].line || d.Range.End.Character != want[i].end {
					t.Errorf("%s: range %+v, want line %d to char %d", d.Message, d.Range, want[i].line, want[i].end)
				}
			}
		})
	}
}

// encodingCaps are client capabilities offering the position encodings
// offer (none: the UTF-16 default).
func encodingCaps(offer []string) map[string]any {
	if offer == nil {
		return map[string]any{}
	}
	return map[string]any{"general": map[string]any{"positionEncodings": offer}}
}
