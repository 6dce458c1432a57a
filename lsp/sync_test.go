package lsp

import (
	"fmt"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/planls/planls/core"
)

// Out-of-order versions are ignored: the newest text wins.
func TestOutOfOrderVersions(t *testing.T) {
	e, _, u := approved(t)
	plan := basicPlan(t)
	e.change(u, 5, strings.Replace(plan, "## Tests and verification", "## Tests and verification\n- Extra A", 1))
	e.change(u, 4, strings.Replace(plan, "## Tests and verification", "## Tests and verification\n- Extra B", 1))
	e.barrier()
	ds, _ := e.lastDiags(u)
	if !hasMessage(ds, "Extra A") || hasMessage(ds, "Extra B") {
		t.Errorf("diagnostics after out-of-order changes: %s", codes(ds))
	}
	if v := e.lastVersion(); v != 5 {
		t.Errorf("published version %d, want 5", v)
	}
}

// A burst of changes: every one is applied in order and the last version is
// published (earlier ones may be skipped).
func TestChangeBurstPublishesLast(t *testing.T) {
	e, _, u := approved(t)
	plan := basicPlan(t)
	for v := 2; v <= 30; v++ {
		e.change(u, v, strings.Replace(plan, "## Tests and verification", fmt.Sprintf("## Tests and verification\n- Extra %d", v), 1))
	}
	ds := e.waitDiags(u, "version 30", func(d []protocol.Diagnostic) bool { return hasMessage(d, "Extra 30") })
	if hasMessage(ds, "Extra 29") {
		t.Error("stale text")
	}
	if v := e.lastVersion(); v != 30 {
		t.Errorf("version %d", v)
	}
}

// Closing the plan keeps its diagnostics (they come from disk) without a
// version; the buffer no longer overrides the file.
func TestCloseFallsBackToDisk(t *testing.T) {
	e, _, u := approved(t)
	plan := basicPlan(t)
	e.change(u, 2, strings.Replace(plan, "## Tests and verification", "## Tests and verification\n- Unsaved bullet", 1))
	e.waitDiags(u, "unsaved drift", func(d []protocol.Diagnostic) bool { return hasMessage(d, "Unsaved bullet") })
	e.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": u}})
	ds := e.waitDiags(u, "disk again", func(d []protocol.Diagnostic) bool { return !hasMessage(d, "Unsaved bullet") })
	if countCode(ds, core.RuleOpen) != 7 {
		t.Errorf("after close: %s", codes(ds))
	}
	e.mu.Lock()
	last := e.pubs[len(e.pubs)-1]
	e.mu.Unlock()
	if last.Version != 0 {
		t.Errorf("version %d after close, want none", last.Version)
	}
}
