package lsp

import (
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/planls/planls/core"
)

// PLAN.md saved with a UTF-8 BOM, opened in an editor that
// sends the text without it, is the approved plan (no "needs re-approval",
// no drift) and approving it again is not refused as unsaved changes.
func TestBOMPlanBufferWithoutBOM(t *testing.T) {
	text := basicPlan(t)
	root, plan := workspace(t, "\xEF\xBB\xBF"+text)
	cliApprove(t, root)
	e := newEnv(t, envConfig{folders: []string{root}})
	u := e.open(plan, text)
	e.waitDiags(u, "open items", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleOpen) == 7 })
	var res planResult
	e.call("planls/plan", map[string]any{"uri": u}, &res)
	if !res.Approved || res.NeedsReapproval {
		t.Errorf("BOM file, buffer without it: approved %v, needsReapproval %v", res.Approved, res.NeedsReapproval)
	}
	if d, _ := e.lastDiags(u); countCode(d, core.RuleDrift) != 0 {
		t.Errorf("drift for the BOM alone: %s", codes(d))
	}
	if _, err := e.exec("planls.approve", map[string]any{"uri": u}); err != nil {
		t.Errorf("approve refused: %v", err)
	}
	// A real difference is still unsaved.
	e.change(u, 2, strings.Replace(text, "token bucket", "leaky bucket", 1))
	if _, err := e.exec("planls.approve", map[string]any{"uri": u}); err == nil || !strings.Contains(err.Error(), "unsaved changes") {
		t.Errorf("approve of an edited buffer: %v, want unsaved changes", err)
	}
}
