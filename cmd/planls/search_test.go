package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"
)

// TestSearchUnicodeForms: a plan saved in NFD (as macOS editors may) with
// emoji variation selectors is found by a search typed in NFC, in any case,
// without the selector, from the CLI (`todo list --search`) and from the
// MCP todo tool's list alike.
func TestSearchUnicodeForms(t *testing.T) {
	root := newProject(t)
	plan := norm.NFD.String("# Trip\n\n## Café\n- Book the Café table\n- Pack the ✔️ list\n- Cross the Straße\n")
	if !strings.Contains(plan, "e\u0301") {
		t.Fatal("the plan is not in NFD")
	}
	if err := os.WriteFile(filepath.Join(root, "PLAN.md"), []byte(plan), 0o644); err != nil {
		t.Fatal(err)
	}
	planls(t, root, "approve")
	cases := []struct{ search, want string }{
		{"Café", "Book the"},
		{"café table", "Book the"},
		{"✔ list", "Pack the"},
		{"STRASSE", "Cross the"},
	}
	for _, c := range cases {
		out := planls(t, root, "todo", "list", "--search", c.search)
		if r := rows(out); len(r) != 1 || !strings.Contains(r[0], c.want) {
			t.Errorf("CLI search %q:\n%s\nwant one row with %q", c.search, out, c.want)
		}
	}
	p := startPeer(t, root, "mcp")
	p.initialize(root)
	for i, c := range cases {
		args, _ := json.Marshal(map[string]string{"action": "list", "search": c.search})
		id, _ := json.Marshal(i)
		p.send(`{"jsonrpc":"2.0","id":` + string(id) + `,"method":"tools/call","params":{"name":"todo","arguments":` + string(args) + `}}`)
		m := p.next()
		var res struct {
			Content []struct{ Text string } `json:"content"`
		}
		if err := json.Unmarshal(m.Result, &res); err != nil || len(res.Content) == 0 {
			t.Fatalf("MCP list: %s", m.raw)
		}
		text := res.Content[0].Text
		if r := rows(text); len(r) != 1 || !strings.Contains(r[0], c.want) {
			t.Errorf("MCP search %q:\n%s\nwant one row with %q", c.search, text, c.want)
		}
	}
}

// rows are the task rows of a list's text ("[pending] #1 ...").
func rows(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "[") {
			out = append(out, line)
		}
	}
	return out
}
