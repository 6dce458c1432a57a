package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/planls/planls/internal/plangen"
)

// benchEnv is an approved generated plan of n items, open in the editor.
func benchEnv(b *testing.B, n int, opts options) (*env, string, []byte) {
	root := b.TempDir()
	src := plangen.Generate(n, 1)
	plan := filepath.Join(root, "PLAN.md")
	if err := os.WriteFile(plan, src, 0o644); err != nil {
		b.Fatal(err)
	}
	cliApprove(b, root)
	e := newEnv(b, envConfig{folders: []string{root}, opts: opts})
	u := e.open(plan, string(src))
	e.waitDiags(u, "open items", func(d []protocol.Diagnostic) bool { return countCode(d, codeOpen) == n })
	return e, u, src
}

// BenchmarkDidChangeToPublish measures didChange → publishDiagnostics of
// the whole plan (decode, parse, match, diagnostics, JSON, framing) for an
// edit that adds one bullet, then takes it away. The client's side costs
// little: the changes are encoded once, and only the version of each
// publish is read.
func BenchmarkDidChangeToPublish(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			e, u, src := benchEnv(b, n, testOptions())
			e.mu.Lock()
			e.light = true
			e.mu.Unlock()
			variants := [][]byte{
				bytes.Replace(src, []byte("\n## "), []byte("\n- an extra bullet\n\n## "), 1),
				src,
			}
			quoted := make([][]byte, len(variants))
			for i, v := range variants {
				q, err := json.Marshal(string(v))
				if err != nil {
					b.Fatal(err)
				}
				quoted[i] = q
			}
			uq, _ := json.Marshal(u)
			var msg []byte
			version := 1
			b.ResetTimer()
			cpu0 := cpuTime()
			for i := 0; i < b.N; i++ {
				version++
				msg = append(msg[:0], `{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":`...)
				msg = append(msg, uq...)
				msg = fmt.Appendf(msg, `,"version":%d},"contentChanges":[{"text":`, version)
				msg = append(msg, quoted[i%2]...)
				msg = append(msg, "}]}}"...)
				if _, err := e.stream.writeRaw(msg); err != nil {
					b.Fatal(err)
				}
				want := uint32(version)
				e.waitFor("publish", func() bool {
					return len(e.pubs) > 0 && e.pubs[len(e.pubs)-1].Version == want
				})
			}
			// CPU per change (the server, plus the client's framing): on a
			// shared machine wall time mostly measures the other tenants.
			b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
		})
	}
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
	opts.gitHead = func(string) string { return "" }
	e := newEnv(b, envConfig{folders: []string{root}, opts: opts})
	u := uriOf(plan)
	e.waitDiags(u, "open", func(d []protocol.Diagnostic) bool { return countCode(d, codeOpen) == 100 })
	var lat []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		status, want := "in_progress", 1
		if i%2 == 1 {
			status, want = "pending", 0
		}
		cli(b, root, fmt.Sprintf(`{"action":"update","id":1,"status":%q}`, status))
		start := time.Now()
		e.waitDiags(u, "republish", func(d []protocol.Diagnostic) bool { return countCode(d, codeInProgress) == want })
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[(len(lat)*99)/100].Microseconds())/1000, "p99-ms")
}

// BenchmarkResidentMemory opens a 10k-item plan in a real `planls serve`
// process and reports its VmRSS (Linux) once the diagnostics are published.
func BenchmarkResidentMemory(b *testing.B) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		b.Skip("needs /proc")
	}
	root := b.TempDir()
	src := plangen.Generate(10000, 1)
	plan := filepath.Join(root, "PLAN.md")
	if err := os.WriteFile(plan, src, 0o644); err != nil {
		b.Fatal(err)
	}
	cliApprove(b, root)
	bin := planlsBinary(b)
	var rss, busy float64
	for i := 0; i < b.N; i++ {
		o := DemoOptions{Server: []string{bin, "serve"}, Timeout: time.Minute}
		c, err := startDemoClient(context.Background(), o, root)
		if err != nil {
			b.Fatal(err)
		}
		if err := c.call("initialize", map[string]any{"rootUri": uriOf(root), "capabilities": map[string]any{}}, nil); err != nil {
			b.Fatal(err)
		}
		_ = c.conn.Notify(context.Background(), "initialized", map[string]any{})
		u := uriOf(plan)
		_ = c.conn.Notify(context.Background(), "textDocument/didOpen", map[string]any{"textDocument": map[string]any{
			"uri": u, "languageId": "markdown", "version": 1, "text": string(src)}})
		if _, err := c.waitDiags(u, "10k items", func(d []protocol.Diagnostic) bool { return countOf(d, codeOpen) == 10000 }); err != nil {
			b.Fatal(err)
		}
		busy = vmRSS(b, c.cmd.Process.Pid)
		// Idle, as an editor's server is between keystrokes.
		time.Sleep(time.Second)
		rss = vmRSS(b, c.cmd.Process.Pid)
		c.kill()
	}
	b.ReportMetric(rss, "RSS-MB")
	b.ReportMetric(busy, "RSS-busy-MB")
}

// cpuTime is this process's user+system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func vmRSS(b *testing.B, pid int) float64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")))
			return float64(kb) / 1024
		}
	}
	b.Fatal("no VmRSS")
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
		conn := jsonrpc2.NewConn(newStream(rwc{in: stdout, out: stdin}, newDiscardLogger()))
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
