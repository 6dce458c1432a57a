package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The docs pin the tools the tests pin: docs/AGENTS.md's MCP inspector
// command runs the version test/mcp-inspector installs.
func TestDocsPinTheTestedInspector(t *testing.T) {
	var pkg struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	raw, err := os.ReadFile("../../test/mcp-inspector/package.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &pkg); err != nil {
		t.Fatal(err)
	}
	want := pkg.Dependencies["@modelcontextprotocol/inspector"]
	doc, err := os.ReadFile("../../docs/AGENTS.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile(`@modelcontextprotocol/inspector@([0-9][^ ]*)`).FindAllSubmatch(doc, -1) {
		if string(m[1]) != want {
			t.Errorf("docs/AGENTS.md runs inspector %s; test/mcp-inspector pins %s", m[1], want)
		}
	}
	if want == "" {
		t.Fatal("test/mcp-inspector/package.json pins no inspector")
	}
}

// A comment states the rule itself or points at docs/ in the repository:
// it never cites what a clone does not have (the team's case ids and
// issue numbers, or documents kept outside the repository).
func TestNoCitationsOutsideTheRepository(t *testing.T) {
	out, err := exec.Command("git", "-C", "../..", "ls-files").Output()
	if err != nil {
		t.Skip("not a git checkout")
	}
	bad := regexp.MustCompile(`\bB\d{2}\b|\b[Ii]ssue \d+|todo-behaviou?r\.md|planls-rules\.md|\bvectors\.md|DESIGN\.md|field (trial|failure)|second trial|\.\./shared/|ANCHORS-AND-STYLE|REAL-CLIENTS\.md|PEERS\.md|seed §\d|seed \(\d{3}\)|memory:read|\ba trial (lost|met)`)
	for _, f := range strings.Fields(string(out)) {
		if strings.HasPrefix(f, "testdata/corpus/") || strings.Contains(f, "node_modules") || f == "cmd/planls/docs_test.go" || f == "docs/DEVELOPING.md" ||
			!regexp.MustCompile(`\.(go|ts|js|mjs|lua|sh|txtar|md|vim|el)$`).MatchString(f) {
			continue
		}
		data, err := os.ReadFile(filepath.Join("../..", f))
		if err != nil {
			continue
		}
		for i, line := range strings.Split(string(data), "\n") {
			if m := bad.FindString(line); m != "" {
				t.Errorf("%s:%d cites %q, which a clone does not have: state the rule, or point at docs/", f, i+1, m)
			}
		}
	}
}
