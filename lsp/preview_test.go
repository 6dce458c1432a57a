package lsp

import (
	"fmt"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/planls/planls/core"
)

// An unapproved plan shows, as code lenses, what approving it
// would track: the count on the Approve lens, a count per heading, why a
// section is not tracked, and a lens on each item; once approved, an edit
// outside the items is plan-drift.
func TestPreviewLensesAndTextDrift(t *testing.T) {
	src := "# P\n\n## Summary\n- context\n\n## Work\n<!-- planls: skip -->\n- not this\n\n## Build\n- one\n- two\n### Checks\n- three\n"
	root, plan := workspace(t, src)
	e := newEnv(t, envConfig{folders: []string{root}})
	u := e.open(plan, src)
	lens := func() string {
		var ls []protocol.CodeLens
		e.call("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": u}}, &ls)
		var out []string
		for _, l := range ls {
			out = append(out, fmt.Sprintf("%d:%s", l.Range.Start.Line, l.Command.Title))
		}
		return strings.Join(out, " | ")
	}
	want := "0:Approve plan (3 plan items) | 2:not tracked: context section | 5:not tracked: skipped by <!-- planls: skip --> | " +
		"9:3 plan items on approval | 10:will be tracked | 11:will be tracked | 12:1 plan item on approval | 13:will be tracked"
	if got := lens(); got != want {
		t.Errorf("preview lenses\n got  %q\n want %q", got, want)
	}
	if _, err := e.exec("planls.approve", map[string]any{"uri": u}); err != nil {
		t.Fatal(err)
	}
	// The editor's approval reads the plan as the preview did: the skipped
	// section gives no item.
	var res planResult
	e.call("planls/plan", map[string]any{"uri": uriOf(root)}, &res)
	if !res.Approved || res.Total != 3 {
		t.Fatalf("after approve: %+v", res)
	}
	edited := strings.Replace(src, "- context", "- other context", 1)
	e.change(u, 2, edited)
	e.waitDiags(u, "text drift", func(d []protocol.Diagnostic) bool {
		for _, x := range d {
			// On the line that changed (3: "- other context").
			if x.Code == core.RuleDrift && x.Range.Start.Line == 3 && strings.Contains(x.Message, "changed here since approval, outside its plan items") {
				return true
			}
		}
		return false
	})
}

// A skipped section that holds what looks like work says so on its preview
// lens, with how to track it.
func TestPreviewLensSaysSkippedWork(t *testing.T) {
	src := "# P\n\n## Notes\n1. Bump the version\n2. Tag the release\n\n## Work\n- one\n"
	root, plan := workspace(t, src)
	e := newEnv(t, envConfig{folders: []string{root}})
	u := e.open(plan, src)
	var ls []protocol.CodeLens
	e.call("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": u}}, &ls)
	want := "not tracked: notes section; it has what looks like work (2 numbered steps); to track it, add <!-- planls: track --> under the heading"
	for _, l := range ls {
		if l.Range.Start.Line == 2 {
			if l.Command.Title != want {
				t.Errorf("lens on ## Notes = %q, want %q", l.Command.Title, want)
			}
			return
		}
	}
	t.Errorf("no lens on ## Notes among %d lenses", len(ls))
}
