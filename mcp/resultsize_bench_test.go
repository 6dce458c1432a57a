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
// the real binary, by default and with --structured-content always: the
// result's bytes on the wire per call, the bytes of its content text (what
// an agent shows the model) and the server's CPU time per call.
func BenchmarkUpdate50Stdio(b *testing.B) {
	for _, mode := range []string{"default", "always"} {
		b.Run(mode, func(b *testing.B) {
			root := newProject(b)
			flags := []string{"mcp", "--root", root}
			if mode == "always" {
				flags = append(flags, "--structured-content", mode)
			}
			cmd := exec.Command(planlsBin(b), flags...)
			cmd.Env = cleanEnv()
			c := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "0"}, nil)
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
			var bytes, text int
			cpu0 := procCPU(b, cmd.Process.Pid)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: toolName, Arguments: args[i%2]})
				if err != nil || res.IsError {
					b.Fatalf("update: %v %+v", err, res)
				}
				raw, _ := json.Marshal(res)
				bytes += len(raw)
				text += len(res.Content[0].(*sdk.TextContent).Text)
			}
			b.StopTimer()
			b.ReportMetric(float64(bytes)/float64(b.N), "result-bytes")
			b.ReportMetric(float64(text)/float64(b.N), "text-bytes")
			b.ReportMetric(ms((procCPU(b, cmd.Process.Pid)-cpu0)/time.Duration(b.N)), "server-cpu-ms")
		})
	}
}
