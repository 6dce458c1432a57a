package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/planls/planls/internal/floor"
)

// BenchmarkUpdateVsFloor interleaves, b.N times, one durable commit of the
// project's state bytes with plain system calls (floor.Commit) and one MCP
// `update` over stdio to the real binary that changes the state (so it
// takes the lock and commits). Interleaving keeps a busy machine's drift out
// of the ratio; the minimums (the best case of each, what a quiet machine
// gives) and the server's CPU time per update (from /proc, independent of
// disk latency) are reported too. Target: update-ms ≤ 1.5 ×
// floor-ms.
func BenchmarkUpdateVsFloor(b *testing.B) {
	cs, cmd, root := startBenchServer(b)
	ctx := context.Background()
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
	cpu0 := procCPU(b, cmd.Process.Pid)
	b.ResetTimer()
	t, err := floor.Interleave(b.N, dir, state, func(i int) error {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: toolName, Arguments: args[i%2]})
		if err == nil && res.IsError {
			err = fmt.Errorf("update: %+v", res.Content)
		}
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	cpu := (procCPU(b, cmd.Process.Pid) - cpu0) / time.Duration(b.N)
	b.ReportMetric(ms(t.Floor), "floor-ms")
	b.ReportMetric(ms(t.Op), "update-ms")
	b.ReportMetric(t.Ratio(), "x-floor")
	b.ReportMetric(t.MinRatio(), "x-floor-min")
	b.ReportMetric(ms(cpu), "server-cpu-ms")
}

// procCPU is a process's user plus system time so far (Linux /proc, clock
// ticks of 10 ms: meaningful over hundreds of calls).
func procCPU(b *testing.B, pid int) time.Duration {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Skipf("no /proc: %v", err)
	}
	// Fields after the command name, which is in parentheses.
	f := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+2:]))
	ut, _ := strconv.Atoi(f[11])
	st, _ := strconv.Atoi(f[12])
	return time.Duration(ut+st) * 10 * time.Millisecond
}

// procRSS is a process's resident memory in bytes (Linux /proc).
func procRSS(b *testing.B, pid int) int {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Skipf("no /proc: %v", err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if kb, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(kb), " kB"))
			return n << 10
		}
	}
	return 0
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
