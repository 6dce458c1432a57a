package lsp

import (
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/planls/planls/core"
)

// An approved item deleted from the buffer is a plan-drift diagnostic
// where it used to be: an empty range at the end of the item before it
// (its nested lines included), marked gone in data so an editor looking
// for the item on that line skips it; its code actions are the line's own
// item's and the re-approval, never the gone item's.
func TestGoneItemWhereItUsedToBe(t *testing.T) {
	const text = "# Ship\n\n## Work\n- one\n  - detail\n- two\n- three\n"
	root, plan := workspace(t, text)
	cliApprove(t, root)
	e := newEnv(t, envConfig{folders: []string{root}})
	u := e.open(plan, text)
	e.waitDiags(u, "open items", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleOpen) == 3 })
	e.change(u, 2, strings.Replace(text, "- two\n", "", 1))
	ds := e.waitDiags(u, "the drift of #2", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleDrift) == 1 })
	var gone protocol.Diagnostic
	for _, d := range ds {
		if d.Code == core.RuleDrift {
			gone = d
		}
	}
	end := protocol.Position{Line: 4, Character: uint32(len("  - detail"))}
	if gone.Range.Start != end || gone.Range.End != end {
		t.Errorf("gone #2 at %v, want the empty range at %v (after #1's nested line)", gone.Range, end)
	}
	if id, _ := dataOf(asMap(gone.Data)); id != 2 || asMap(gone.Data).(map[string]any)["gone"] != true {
		t.Errorf("data %v: want id 2, gone true", gone.Data)
	}
	got := titles(e.actions(u, 4, []protocol.Diagnostic{gone}))
	if !strings.Contains(got, "Re-approve plan") || strings.Contains(got, "#2") {
		t.Errorf("actions on the gone item's line: %s", got)
	}
	// The item the line belongs to keeps data without gone.
	for _, d := range ds {
		if d.Code == core.RuleOpen && asMap(d.Data).(map[string]any)["gone"] != nil {
			t.Errorf("open item marked gone: %v", d.Data)
		}
	}
}
