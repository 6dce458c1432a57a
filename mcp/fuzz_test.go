package mcp

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/tools/txtar"
)

// FuzzToolCall feeds arbitrary argument bytes to the tool handler on a real
// project: it never panics, never returns a protocol error, and its result
// is always a well-formed envelope (isError exactly when details.error).
func FuzzToolCall(f *testing.F) {
	files, _ := filepath.Glob("../testdata/mcp/o*.txtar")
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, fl := range ar.Files {
			if strings.HasSuffix(fl.Name, ".call") {
				f.Add(fl.Data)
			}
		}
	}
	for _, s := range []string{``, `null`, `[`, `{"ops":[{"ops":[]}]}`, `{"action":"delete_all","confirm_delete_all":true}`,
		`{"action":"restore","ids":[1,-1,1e99]}`, `{"action":"list","cursor":"\u0000"}`, `{"action":"update","id":1,"expected_version":-5}`} {
		f.Add([]byte(s))
	}
	root := newProject(f)
	h := &handler{opts: Options{Root: root}, log: slog.New(slog.NewTextHandler(io.Discard, nil)), roots: map[*sdk.ServerSession]string{}}
	f.Fuzz(func(t *testing.T, args []byte) {
		res, err := h.call(context.Background(), &sdk.CallToolRequest{Params: &sdk.CallToolParamsRaw{Name: toolName, Arguments: args}})
		if err != nil || res == nil {
			t.Fatalf("protocol-level failure for %q: %v", args, err)
		}
		if len(res.Content) == 0 {
			t.Fatalf("content %v", res.Content)
		}
		for _, c := range res.Content[1:] {
			if n, ok := c.(*sdk.TextContent); !ok || !(strings.HasPrefix(n.Text, "weak-evidence: ") || strings.Contains(n.Text, "only a person can reopen")) {
				t.Fatalf("content %v", res.Content)
			}
		}
		text := res.Content[0].(*sdk.TextContent).Text
		d, ok := res.Meta[DetailsKey].(details)
		if !ok || res.StructuredContent != nil {
			t.Fatalf("_meta details is %T, structuredContent %v", res.Meta[DetailsKey], res.StructuredContent)
		}
		if res.IsError != (d.Error != "") || (res.IsError && text != "Error: "+d.Error) {
			t.Fatalf("isError %v, text %q, details.error %q", res.IsError, text, d.Error)
		}
		if _, err := json.Marshal(res); err != nil {
			t.Fatalf("result does not marshal: %v", err)
		}
	})
}
