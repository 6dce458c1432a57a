package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkUpdate50Stdio is an `update` on a 50-task project over stdio to
// the real binary, as a generic MCP client and as the two agents that hand
// structuredContent to the model (their clientInfo names): the result's
// bytes on the wire per call and the server's CPU time per call.
func BenchmarkUpdate50Stdio(b *testing.B) {
	for _, client := range []string{"bench", "claude-code", "codex-mcp-client"} {
		b.Run(client, func(b *testing.B) {
			root := newProject(b)
			cmd := exec.Command(planlsBin(b), "mcp", "--root", root)
			cmd.Env = cleanEnv()
			c := sdk.NewClient(&sdk.Implementation{Name: client, Version: "0"}, nil)
			cs, err := c.Connect(context.Background(), &sdk.CommandTransport{Command: cmd}, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer cs.Close()
			ctx := context.Background()
			ops := make([]string, 50)
			for i := range ops {
				ops[i] = fmt.Sprintf(`{"action":"create","subject":"task %d of the bench: a subject of ordinary length","description":"what it is for, in a sentence or two"}`, i+1)
			}
			if res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: toolName, Arguments: json.RawMessage(`{"ops":[` + strings.Join(ops, ",") + `]}`)}); err != nil || res.IsError {
				b.Fatalf("create: %v %+v", err, res)
			}
			args := []json.RawMessage{
				json.RawMessage(`{"action":"update","id":7,"status":"in_progress"}`),
				json.RawMessage(`{"action":"update","id":7,"status":"pending"}`),
			}
			var bytes int
			cpu0 := procCPU(b, cmd.Process.Pid)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: toolName, Arguments: args[i%2]})
				if err != nil || res.IsError {
					b.Fatalf("update: %v %+v", err, res)
				}
				raw, _ := json.Marshal(res)
				bytes += len(raw)
			}
			b.StopTimer()
			b.ReportMetric(float64(bytes)/float64(b.N), "result-bytes")
			b.ReportMetric(ms((procCPU(b, cmd.Process.Pid)-cpu0)/time.Duration(b.N)), "server-cpu-ms")
		})
	}
}
