package lsp

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/planls/planls/core"
	"github.com/planls/planls/internal/plangen"
)

// approvedPlan writes a generated plan of n items as root/PLAN.md and
// approves it.
func approvedPlan(b *testing.B, n int) (root, plan string, src []byte) {
	root = b.TempDir()
	src = plangen.Generate(n, 1)
	plan = filepath.Join(root, "PLAN.md")
	if err := os.WriteFile(plan, src, 0o644); err != nil {
		b.Fatal(err)
	}
	cliApprove(b, root)
	return root, plan, src
}

// benchEnv is an approved generated plan of n items, open in the editor.
func benchEnv(b *testing.B, n int, opts options) (*env, string, []byte) {
	root, plan, src := approvedPlan(b, n)
	e := newEnv(b, envConfig{folders: []string{root}, opts: opts})
	u := e.open(plan, string(src))
	want := min(n, maxPublished) // every item has a diagnostic; a capped list has maxPublished
	e.waitDiags(u, "open items", func(d []protocol.Diagnostic) bool { return len(d) >= want })
	return e, u, src
}

// BenchmarkExternalWrite measures a write of the state file by another
// process (the store, as the CLI does) → republished diagnostics, through
// fsnotify with the production debounce. Reports p50/p99 in ms.
func BenchmarkExternalWrite(b *testing.B) {
	root := b.TempDir()
	plan := filepath.Join(root, "PLAN.md")
	if err := os.WriteFile(plan, plangen.Generate(100, 1), 0o644); err != nil {
		b.Fatal(err)
	}
	cliApprove(b, root)
	opts := defaultOptions()
	opts.gitHead = func(context.Context, string, string) headCommit { return headCommit{} }
	e := newEnv(b, envConfig{folders: []string{root}, opts: opts})
	u := uriOf(plan)
	e.waitDiags(u, "open", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleOpen) == 100 })
	var lat []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		status, want := "in_progress", 1
		if i%2 == 1 {
			status, want = "pending", 0
		}
		cli(b, root, fmt.Sprintf(`{"action":"update","id":1,"status":%q}`, status))
		start := time.Now()
		e.waitDiags(u, "republish", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleInProgress) == want })
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[(len(lat)*99)/100].Microseconds())/1000, "p99-ms")
}

func vmRSS(b *testing.B, pid int) float64 { return statusMB(b, pid, "VmRSS:") }

// statusMB reads one kB field of /proc/PID/status, in MB.
func statusMB(b *testing.B, pid int, field string) float64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), field); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")))
			return float64(kb) / 1024
		}
	}
	b.Fatal("no " + field)
	return 0
}

// BenchmarkStartup measures process start → initialize reply of the real
// `planls serve` binary.
func BenchmarkStartup(b *testing.B) {
	bin := planlsBinary(b)
	dir := b.TempDir()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		cmd := exec.Command(bin, "serve")
		cmd.Dir = dir
		stdin, _ := cmd.StdinPipe()
		stdout, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		conn := jsonrpc2.NewConn(jsonrpc2.NewStream(rwc{in: stdout, out: stdin}))
		conn.Go(context.Background(), jsonrpc2.MethodNotFoundHandler)
		ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
		if _, err := conn.Call(ctx, "initialize", map[string]any{"rootUri": uriOf(dir), "capabilities": map[string]any{}}, nil); err != nil {
			b.Fatal(err)
		}
		cancel()
		b.StopTimer()
		_ = conn.Notify(context.Background(), "exit", nil)
		_ = cmd.Wait()
		_ = conn.Close()
		b.StartTimer()
	}
}

// BenchmarkDocumentSymbol10k measures the outline of a 10k-item plan.
func BenchmarkDocumentSymbol10k(b *testing.B) {
	e, u, _ := benchEnv(b, 10000, testOptions())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var syms []protocol.DocumentSymbol
		e.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": u}}, &syms)
	}
}
