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

// Whatever the client, a result is the seed's text as content (what Claude
// Code, Codex and any client show the model) and the details in _meta; with
// --structured-content always the details are structuredContent instead.
// The text is exact for a success and for a rejection alike.
func TestResultShape(t *testing.T) {
	for _, tc := range []struct {
		client string
		mode   bool
	}{
		{"claude-code", false},
		{"codex-mcp-client", false},
		{"some-new-client", false},
		{"some-new-client", true},
	} {
		t.Run(tc.client+map[bool]string{false: "", true: "/always"}[tc.mode], func(t *testing.T) {
			root := newProject(t)
			plan := "# Demo\n\n## Work\n- Add the parser\n- Write the docs\n"
			if err := os.WriteFile(filepath.Join(root, "PLAN.md"), []byte(plan), 0o644); err != nil {
				t.Fatal(err)
			}
			approve(t, root)
			cs := connectAs(t, tc.client, Options{Root: root, Structured: tc.mode})
			for _, c := range []struct{ args, text, errMsg string }{
				{`{"action":"update","id":1,"status":"completed"}`,
					"Error: evidence required to mark a task completed: pass evidence with the check that proves it (command + result, commit, or test name). If it isn't done, leave it open",
					"evidence required to mark a task completed: pass evidence with the check that proves it (command + result, commit, or test name). If it isn't done, leave it open"},
				{`{"action":"update","id":1,"status":"completed","evidence":"` + "`go test ./...` passes" + `"}`, "Updated #1 (pending → completed)", ""},
			} {
				res := rawCall(t, cs, c.args)
				if len(res.Content) != 1 || res.Content[0].(*sdk.TextContent).Text != c.text || res.IsError != (c.errMsg != "") {
					t.Fatalf("%s: content %+v isError %v, want %q", c.args, res.Content, res.IsError, c.text)
				}
				var raw any = res.Meta[DetailsKey]
				if tc.mode {
					if res.Meta[DetailsKey] != nil {
						t.Fatalf("%s: details in both _meta and structuredContent", c.args)
					}
					raw = res.StructuredContent
				} else if res.StructuredContent != nil {
					t.Fatalf("%s: structuredContent %v by default", c.args, res.StructuredContent)
				}
				b, _ := json.Marshal(raw)
				var d gotDetails
				if err := json.Unmarshal(b, &d); err != nil || d.Action != "update" || d.Error != c.errMsg || len(d.Tasks) != 1 || d.Tasks[0].ID != 1 || d.TasksInState != 2 {
					t.Fatalf("%s: details %s (%v)", c.args, b, err)
				}
			}
		})
	}
}

func TestParseStructured(t *testing.T) {
	for in, want := range map[string]bool{"": false, "never": false, "always": true} {
		if got, err := ParseStructured(in); err != nil || got != want {
			t.Errorf("%q: %v %v", in, got, err)
		}
	}
	if _, err := ParseStructured("auto"); err == nil || err.Error() != `--structured-content is "auto": want never or always` {
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
