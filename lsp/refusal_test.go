package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/planls/planls/core"
)

// An emptied plan file would close every item without evidence: the store
// refuses to approve it, and the person who ran the command is told why.
func TestApproveEmptiedPlanIsRefusedAndShown(t *testing.T) {
	e, root, u := approved(t)
	plan := filepath.Join(root, "PLAN.md")
	writeFile(t, plan, "# Nothing left\n")
	e.change(u, 2, "# Nothing left\n")
	res, err := e.exec("planls.approve", map[string]any{"uri": u})
	if err != nil {
		t.Fatalf("approve: %v", err)
	}
	if !strings.HasPrefix(envelopeText(res), "Error: ") {
		t.Fatalf("approve of an emptied plan was accepted: %q", envelopeText(res))
	}
	e.waitFor("error shown", func() bool { // waitFor holds e.mu: read e.notes directly
		for _, n := range e.notes {
			if n.method == "window/showMessage" && strings.Contains(string(n.params), `"type":1`) && strings.Contains(string(n.params), "Error: ") {
				return true
			}
		}
		return false
	})
	if st := readState(t, root); st.Plan == nil || len(st.Tasks) != 7 {
		t.Fatalf("state changed by a refused approval: %+v", st.Plan)
	}
}

// A state file deleted while its journal remains is reported on the plan's
// title line, not on a URI of a file that does not exist.
func TestMissingStateFileReportedOnThePlan(t *testing.T) {
	e, root, u := approved(t)
	if err := os.Remove(filepath.Join(root, ".planls", "state.json")); err != nil {
		t.Fatal(err)
	}
	ds := e.waitDiags(u, "state-invalid on the plan", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleStateInvalid) == 1 })
	if ds[0].Range.Start.Line != 0 || !strings.Contains(ds[0].Message, "doctor --rebuild") {
		t.Fatalf("diagnostic %+v", ds[0])
	}
	stateURI := uriOf(filepath.Join(root, ".planls", "state.json"))
	if got, ok := e.lastDiags(stateURI); ok && len(got) > 0 {
		t.Fatalf("diagnostics published for the missing state file: %+v", got)
	}
}

// An item closed by a hand edit of state.json, with no evidence, still owes
// its proof: it gets a warning instead of disappearing from the editor.
func TestHandClosedItemWithoutProofIsWarned(t *testing.T) {
	e, root, u := approved(t)
	path := filepath.Join(root, ".planls", "state.json")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var st map[string]any
	if err := json.Unmarshal(raw, &st); err != nil {
		t.Fatal(err)
	}
	task := st["tasks"].([]any)[0].(map[string]any)
	task["status"] = "completed"
	delete(task, "evidence")
	out, _ := json.MarshalIndent(st, "", "  ")
	writeFile(t, path, string(out)+"\n")
	ds := e.waitDiags(u, "closed-without-proof", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleNoProof) == 1 })
	for _, d := range ds {
		if d.Code == core.RuleNoProof {
			if d.Severity != protocol.DiagnosticSeverityWarning || !strings.HasPrefix(d.Message, "plan item #1 is completed without evidence") {
				t.Fatalf("diagnostic %+v", d)
			}
		}
	}
	if n := countCode(ds, core.RuleOpen); n != 6 {
		t.Fatalf("open items %d, want 6", n)
	}
}
