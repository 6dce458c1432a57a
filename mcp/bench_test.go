package mcp

import (
	"context"
	"encoding/json"
	"os/exec"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// benchUpdates makes b.N `update` calls on one session, each a real status
// change (so each one takes the lock and writes the state file), and
// reports round trips per second.
func benchUpdates(b *testing.B, cs *sdk.ClientSession) {
	ctx := context.Background()
	if _, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: toolName, Arguments: json.RawMessage(`{"action":"create","subject":"bench"}`)}); err != nil {
		b.Fatal(err)
	}
	args := []json.RawMessage{
		json.RawMessage(`{"action":"update","id":1,"status":"in_progress"}`),
		json.RawMessage(`{"action":"update","id":1,"status":"pending"}`),
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: toolName, Arguments: args[i%2]})
		if err != nil {
			b.Fatal(err)
		}
		if res.IsError {
			b.Fatalf("update failed: %+v", res.Content)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
}

func BenchmarkToolsCallUpdateInProcess(b *testing.B) {
	benchUpdates(b, connect(b, Options{Root: newProject(b)}))
}

func BenchmarkToolsCallUpdateStdio(b *testing.B) {
	cs, _, _ := startBenchServer(b)
	benchUpdates(b, cs)
}

// BenchmarkToolsCallGetStdio is a get over stdio to the real binary: the
// round trip without a write, with the server's CPU time per call and its
// resident memory at the end (what GCPercent trades).
func BenchmarkToolsCallGetStdio(b *testing.B) {
	cs, cmd, _ := startBenchServer(b)
	ctx := context.Background()
	if _, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: toolName, Arguments: json.RawMessage(`{"action":"create","subject":"bench"}`)}); err != nil {
		b.Fatal(err)
	}
	args := json.RawMessage(`{"action":"get","id":1}`)
	cpu0 := procCPU(b, cmd.Process.Pid)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: toolName, Arguments: args}); err != nil || res.IsError {
			b.Fatalf("get: %v %+v", err, res)
		}
	}
	b.StopTimer()
	b.ReportMetric(ms((procCPU(b, cmd.Process.Pid)-cpu0)/time.Duration(b.N)), "server-cpu-ms")
	b.ReportMetric(float64(procRSS(b, cmd.Process.Pid))/(1<<20), "server-rss-MB")
}

// startBenchServer starts `planls mcp` on a new project (root) and connects
// the SDK's client to it over stdio; the session ends with the benchmark.
func startBenchServer(b *testing.B) (cs *sdk.ClientSession, cmd *exec.Cmd, root string) {
	root = newProject(b)
	cmd = exec.Command(planlsBin(b), "mcp", "--root", root)
	cmd.Env = cleanEnv()
	client := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "0"}, nil)
	cs, err := client.Connect(context.Background(), &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close() })
	return cs, cmd, root
}

// BenchmarkListLargeState is one paged list of a 3,000-task state.
func BenchmarkListLargeState(b *testing.B) {
	root := newProject(b)
	bigState(b, root, 3000)
	cs := connect(b, Options{Root: root})
	ctx := context.Background()
	args := json.RawMessage(`{"action":"list"}`)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: toolName, Arguments: args})
		if err != nil || res.IsError {
			b.Fatalf("list: %v %+v", err, res)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
}

// BenchmarkToolsCallGetInProcess is the same round trip without a write,
// to separate the adapter's cost from the store's write path.
func BenchmarkToolsCallGetInProcess(b *testing.B) {
	cs := connect(b, Options{Root: newProject(b)})
	ctx := context.Background()
	if _, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: toolName, Arguments: json.RawMessage(`{"action":"create","subject":"bench"}`)}); err != nil {
		b.Fatal(err)
	}
	args := json.RawMessage(`{"action":"get","id":1}`)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: toolName, Arguments: args}); err != nil || res.IsError {
			b.Fatalf("get: %v %+v", err, res)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
}
