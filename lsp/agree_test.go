package lsp

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/planls/planls/core"
)

// agreeCase is a plan approved, then changed by the CLI and by hand, then
// edited: what `planls check` and the language server must both report.
type agreeCase struct {
	name     string
	approved string
	cli      [][]string                   // planls commands run after approving
	hand     func(tasks []map[string]any) // edits of state.json's tasks, by hand
	now      string                       // the plan file as it is checked
	rules    []string                     // rules the case must show (so it cannot pass empty)
}

var agreeCases = []agreeCase{{
	name: "statuses",
	approved: "# Ship it\n\n## Work\n- one\n- two\n- three\n- four\n- five\n- six\n- seven\n- eight\n" +
		"- [ ] nine\n- ten\n- eleven\n- twelve\n",
	cli: [][]string{
		{"todo", "start", "2"},
		{"todo", "update", "3", "--add-blocked-by", "1"},
		{"todo", "complete", "6", "--evidence", "done"},
		{"todo", "complete", "7", "--evidence", "go test ./... passes"},
		{"todo", "complete", "8", "--evidence", "see `src/gone.go:3`"},
		{"todo", "complete", "4", "--evidence", "x"},
		{"todo", "defer", "5", "--reason", "later"},
	},
	hand: func(tasks []map[string]any) {
		delete(tasks[3], "evidence") // #4 completed without evidence
		delete(tasks[4], "reason")   // #5 deferred without a reason
	},
	now: "# Ship it\n\n## Work\n- one\n- two\n- three\n- four\n- five\n- six\n- seven\n- eight\n" +
		"- [x] nine\n- ten, reworded\n- eleven\n-\n- eleven\n",
	rules: []string{core.RuleOpen, core.RuleInProgress, core.RuleBlocked, core.RuleNoProof, core.RuleWeak, core.RuleFailed, core.RuleTicked, core.RuleDrift,
		core.RuleEmpty, core.RuleDuplicate},
}, {
	name:     "new bullet",
	approved: "# P\n\n- one\n- two\n",
	cli:      [][]string{{"todo", "complete", "1", "--evidence", "go test: ok"}},
	now:      "# P\n\n- one\n- two\n- three\n",
	rules:    []string{core.RuleOpen, core.RuleDrift},
}, {
	name:     "missing item",
	approved: "# P\n\n- one\n- two\n- three\n",
	cli:      [][]string{{"todo", "complete", "3", "--evidence", "go test: ok"}},
	now:      "# P\n\n- one\n- three\n",
	rules:    []string{core.RuleOpen, core.RuleDrift},
}, {
	name:     "text outside the items",
	approved: "# P\n\nWhy we do it.\n\n- one\n",
	now:      "# P\n\nWhy we do it, and when.\n\n- one\n",
	rules:    []string{core.RuleOpen, core.RuleDrift},
}}

// TestCheckAndServerAgree runs every rule through `planls check --format
// json --verify` (the real binary) and the language server and asserts the same
// findings: rule, plan item, line and message (an item no longer in the
// file on the line where it used to be, in both). Two
// rules stay out, because check refuses to run there: plan-not-approved
// and state-invalid (it exits 2 and says why).
func TestCheckAndServerAgree(t *testing.T) {
	bin := planlsBinary(t)
	for _, tc := range agreeCases {
		t.Run(tc.name, func(t *testing.T) {
			root, plan := workspace(t, tc.approved)
			run := func(args ...string) []byte {
				t.Helper()
				cmd := exec.Command(bin, append(args, "--root", root)...)
				cmd.Dir = root
				out, err := cmd.Output()
				if _, exit := err.(*exec.ExitError); err != nil && !(exit && args[0] == "check") {
					t.Fatalf("planls %s: %v\n%s", strings.Join(args, " "), err, out)
				}
				return out
			}
			run("approve")
			for _, args := range tc.cli {
				run(args...)
			}
			if tc.hand != nil {
				handEdit(t, filepath.Join(root, ".planls", "state.json"), tc.hand)
			}
			writeFile(t, plan, tc.now)

			var check struct {
				Findings []struct {
					Rule    string `json:"rule"`
					ID      int    `json:"id"`
					Line    int    `json:"line"`
					Message string `json:"message"`
				} `json:"findings"`
			}
			if err := json.Unmarshal(run("check", "--verify", "--format", "json"), &check); err != nil {
				t.Fatal(err)
			}
			var cli []string
			for _, f := range check.Findings {
				cli = append(cli, agreeKey(f.Rule, f.ID, f.Line, f.Message))
			}

			e := newEnv(t, envConfig{folders: []string{root}})
			u := uriOf(plan)
			e.waitDiags(u, "diagnostics", func(d []protocol.Diagnostic) bool { return len(d) > 0 })
			e.settle(u) // the verification has landed
			var lsp []string
			ds, _ := e.lastDiags(u)
			for _, d := range ds {
				id, _ := dataOf(asMap(d.Data))
				lsp = append(lsp, agreeKey(fmt.Sprint(d.Code), id, int(d.Range.Start.Line)+1, d.Message))
			}
			slices.Sort(cli)
			slices.Sort(lsp)
			if !slices.Equal(cli, lsp) {
				t.Errorf("check and the server disagree\ncheck:\n  %s\nserver:\n  %s", strings.Join(cli, "\n  "), strings.Join(lsp, "\n  "))
			}
			for _, rule := range tc.rules {
				if !slices.ContainsFunc(cli, func(k string) bool { return strings.HasPrefix(k, rule+" ") }) {
					t.Errorf("no %s finding:\n  %s", rule, strings.Join(cli, "\n  "))
				}
			}
		})
	}
}

func agreeKey(rule string, id, line int, msg string) string {
	return fmt.Sprintf("%s #%d line %d: %s", rule, id, line, msg)
}

// asMap turns a diagnostic's data as the harness decoded it into the
// generic shape a client echoes.
func asMap(data any) any {
	raw, _ := json.Marshal(data)
	var m map[string]any
	_ = json.Unmarshal(raw, &m)
	return m
}

// handEdit rewrites the tasks of the state file at path with edit, as a
// person with an editor would.
func handEdit(t *testing.T, path string, edit func(tasks []map[string]any)) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var st map[string]any
	if err := json.Unmarshal(raw, &st); err != nil {
		t.Fatal(err)
	}
	var tasks []map[string]any
	for _, x := range st["tasks"].([]any) {
		tasks = append(tasks, x.(map[string]any))
	}
	edit(tasks)
	out, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, string(out)+"\n")
}
