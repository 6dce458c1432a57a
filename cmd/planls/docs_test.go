package main

import (
	"encoding/json"
	"os"
	"regexp"
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
