package mcp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/planls/planls/core"
	"github.com/planls/planls/store"
)

// rawCall makes one call and returns the result as the client decoded it.
func rawCall(t *testing.T, cs *sdk.ClientSession, args string) *sdk.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: toolName, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// The clients that show the model structuredContent instead of the text get
// the seed's text alone, for a success and for a rejection alike; any other
// client gets both; the flag overrides the client's name either way.
func TestStructuredContentByClient(t *testing.T) {
	for _, tc := range []struct {
		client string
		mode   Structured
		want   bool
	}{
		{"claude-code", StructuredAuto, false},
		{"codex-mcp-client", StructuredAuto, false},
		{"mcp-inspector", StructuredAuto, true},
		{"claude-code", StructuredAlways, true},
		{"mcp-inspector", StructuredNever, false},
	} {
		t.Run(tc.client+"/"+map[Structured]string{0: "auto", 1: "always", 2: "never"}[tc.mode], func(t *testing.T) {
			root := newProject(t)
			plan := "# Demo\n\n## Work\n- Add the parser\n- Write the docs\n"
			if err := os.WriteFile(filepath.Join(root, "PLAN.md"), []byte(plan), 0o644); err != nil {
				t.Fatal(err)
			}
			approve(t, root)
			cs := connectAs(t, tc.client, Options{Root: root, Structured: tc.mode})
			for _, c := range []struct{ args, text string }{
				{`{"action":"update","id":1,"status":"completed"}`, "Error: evidence required to mark a task completed: pass evidence with the check that proves it (command + result, commit, or test name). If it isn't done, leave it open"},
				{`{"action":"update","id":1,"status":"completed","evidence":"` + "`go test ./...` passes" + `"}`, "Updated #1 (pending → completed)"},
			} {
				res := rawCall(t, cs, c.args)
				if len(res.Content) != 1 || res.Content[0].(*sdk.TextContent).Text != c.text {
					t.Fatalf("%s: content %+v, want %q", c.args, res.Content, c.text)
				}
				if (res.StructuredContent != nil) != tc.want {
					t.Fatalf("%s: structuredContent %v, want present=%v", c.args, res.StructuredContent, tc.want)
				}
			}
		})
	}
}

func TestParseStructured(t *testing.T) {
	for in, want := range map[string]Structured{"": StructuredAuto, "auto": StructuredAuto, "always": StructuredAlways, "never": StructuredNever} {
		if got, err := ParseStructured(in); err != nil || got != want {
			t.Errorf("%q: %v %v", in, got, err)
		}
	}
	if _, err := ParseStructured("yes"); err == nil || err.Error() != `--structured-content is "yes": want auto, always or never` {
		t.Fatalf("err %v", err)
	}
}

// approve approves root's PLAN.md through the store.
func approve(t *testing.T, root string) {
	t.Helper()
	res, err := store.Open(root, "test").Approve(context.Background(), filepath.Join(root, "PLAN.md"), core.Options{}, store.ApproveOptions{})
	if err != nil || res.Envelope.IsError() {
		t.Fatalf("approve: %v %+v", err, res.Envelope.Content)
	}
}
