package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/planls/planls/internal/plangen"
)

// After any sequence of whole-text edits, the server publishes exactly what a fresh server gives
// for the final text, and answers planls/plan and code lenses the same.
func TestEditsEqualFreshServer(t *testing.T) {
	src := string(plangen.Generate(600, 3))
	root := t.TempDir()
	plan := filepath.Join(root, "PLAN.md")
	writeFile(t, plan, src)
	cliApprove(t, root)
	cli(t, root, `{"action":"update","id":2,"status":"in_progress"}`)
	cli(t, root, `{"action":"update","id":5,"status":"completed","evidence":"done"}`)

	firstHeading := strings.Index(src, "\n## ")
	lastHeading := strings.LastIndex(src, "\n## ")
	edits := []string{
		strings.Replace(src, "\n## ", "\n- an extra bullet\n\n## ", 1),
		src,
		src[:lastHeading] + "\n```\n" + src[lastHeading:], // an open fence swallows the rest
		src[:lastHeading] + "\n```\n" + src[lastHeading:] + "\n```\n",
		src[:firstHeading] + src[lastHeading:], // most sections gone
		src[:firstHeading] + "\n## Moved\n- moved item\n" + src[firstHeading:],
		strings.ReplaceAll(src, "\n## ", "\n### "),
		"",
		"# Only a title\n",
		strings.Replace(src, "- ", "- [x] ", 3),
		src + "\n## Tail\n- tail one\n- tail one\n-\n",
	}
	opts := testOptions()
	opts.noFSWatch = true
	edited := newEnv(t, envConfig{folders: []string{root}, opts: opts, initOpt: map[string]any{"fadeClosed": true}})
	u := edited.open(plan, src)
	edited.waitDiags(u, "first", func(d []protocol.Diagnostic) bool { return len(d) > 0 })
	for i, text := range edits {
		edited.change(u, i+2, text)
		edited.settle(u)
		fresh := newEnv(t, envConfig{folders: []string{root}, opts: opts, initOpt: map[string]any{"fadeClosed": true}})
		fresh.open(plan, text)
		fresh.settle(u)
		if got, want := diagsJSON(t, edited, u), diagsJSON(t, fresh, u); got != want {
			t.Errorf("edit %d: diagnostics differ from a fresh server\nedited %s\nfresh  %s", i, got, want)
		}
		var pe, pf planResult
		edited.call("planls/plan", map[string]any{}, &pe)
		fresh.call("planls/plan", map[string]any{}, &pf)
		pe.Revision, pf.Revision = 0, 0 // counts each server's own changes
		if a, b := toJSON(t, pe), toJSON(t, pf); a != b {
			t.Errorf("edit %d: planls/plan differs\nedited %s\nfresh  %s", i, a, b)
		}
		var le, lf []protocol.CodeLens
		edited.call("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": u}}, &le)
		fresh.call("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": u}}, &lf)
		if a, b := toJSON(t, le), toJSON(t, lf); a != b {
			t.Errorf("edit %d: code lenses differ", i)
		}
		if err := fresh.shutdown(); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(plan); err != nil {
		t.Fatal(err)
	}
}

func diagsJSON(t *testing.T, e *env, u string) string {
	t.Helper()
	d, ok := e.lastDiags(u)
	if !ok {
		t.Fatalf("no diagnostics for %s", u)
	}
	return toJSON(t, d)
}

func toJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
