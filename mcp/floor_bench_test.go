package mcp

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/planls/planls/internal/floor"
)

// BenchmarkUpdateVsFloor interleaves, b.N times, one durable commit of the
// project's state bytes with plain system calls (floor.Commit) and one MCP
// `update` over stdio to the real binary that changes the state (so it
// takes the lock and commits). Interleaving keeps a busy machine's drift out
// of the ratio. Target (issue 15): update-ms ≤ 1.5 × floor-ms.
func BenchmarkUpdateVsFloor(b *testing.B) {
	root := newProject(b)
	cmd := exec.Command(planlsBin(b), "mcp", "--root", root)
	cmd.Env = cleanEnv()
	client := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "0"}, nil)
	ctx := context.Background()
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	if _, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: toolName, Arguments: json.RawMessage(`{"action":"create","subject":"bench"}`)}); err != nil {
		b.Fatal(err)
	}
	state, err := os.ReadFile(filepath.Join(root, ".planls", "state.json"))
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	args := []json.RawMessage{
		json.RawMessage(`{"action":"update","id":1,"status":"in_progress"}`),
		json.RawMessage(`{"action":"update","id":1,"status":"pending"}`),
	}
	floors := make([]time.Duration, 0, b.N)
	updates := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		if err := floor.Commit(dir, state, floor.JournalLine); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: toolName, Arguments: args[i%2]})
		if err != nil || res.IsError {
			b.Fatalf("update: %v %+v", err, res)
		}
		updates = append(updates, time.Since(t1))
		floors = append(floors, t1.Sub(t0))
	}
	b.StopTimer()
	f, u := median(floors), median(updates)
	b.ReportMetric(ms(f), "floor-ms")
	b.ReportMetric(ms(u), "update-ms")
	b.ReportMetric(float64(u)/float64(f), "x-floor")
}

func median(ds []time.Duration) time.Duration {
	slices.Sort(ds)
	return ds[len(ds)/2]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
