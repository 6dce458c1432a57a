package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkListState is one paged list of an unchanged state of 300 and
// 3,000 tasks over an in-process session: the store's read path (file read,
// decode or cache hit, copy) plus core's list and the MCP round trip.
func BenchmarkListState(b *testing.B) {
	for _, n := range []int{300, 3000} {
		b.Run(fmt.Sprintf("tasks=%d", n), func(b *testing.B) {
			root := newProject(b)
			bigState(b, root, n)
			cs := connect(b, Options{Root: root})
			ctx := context.Background()
			args := json.RawMessage(`{"action":"list"}`)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: toolName, Arguments: args})
				if err != nil || res.IsError {
					b.Fatalf("list: %v %+v", err, res)
				}
			}
		})
	}
}
