package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/planls/planls/store"
)

// BenchmarkLongHistory measures what a journal's age costs the commands
// people and agents run all day: a CLI update, check, doctor (processes,
// as a person runs them) and an update over one MCP session (the real
// `planls mcp` over stdio), on a workspace of 50 open tasks whose journal
// holds 200, 20,000 or 100,000 changes (a team's day, months, a year).
// layout=flat is the journal as one growing file (sealing off:
// PLANLS_JOURNAL_SEAL_BYTES=off), as planls kept it before; layout=sealed
// is the default, a bounded tail plus sealed segments. Each op reports the
// median CPU time (user + system) of one, which a loaded machine inflates
// least, and the median wall time; op=size reports the journal's bytes in
// the work tree (the tail plus every sealed segment). The targets: at
// 20,000 and 100,000 changes every op within 1.5× its cost at 200, and
// under 4 MB of journal at 20,000.
//
// PLANLS_BENCH_BINS=before=/tmp/planls-main,after=$PWD/bin/planls runs the
// ops with each build on copies of the same histories, so an older build
// and this one are measured in one run (default: this package's build).
//
//	go test ./cmd/planls -run '^$' -bench LongHistory -benchtime 15x -timeout 60m
func BenchmarkLongHistory(b *testing.B) {
	if testing.Short() {
		b.Skip("builds histories of up to 100,000 changes")
	}
	bins := [][2]string{{"this", planlsBin}}
	if spec := os.Getenv("PLANLS_BENCH_BINS"); spec != "" {
		bins = nil
		for _, part := range strings.Split(spec, ",") {
			name, path, ok := strings.Cut(part, "=")
			if !ok {
				b.Fatalf("PLANLS_BENCH_BINS: %q is not name=path", part)
			}
			bins = append(bins, [2]string{name, path})
		}
	}
	for _, layout := range []string{"flat", "sealed"} {
		b.Run("layout="+layout, func(b *testing.B) {
			seal := ""
			if layout == "flat" {
				seal = "off"
			}
			b.Setenv(store.EnvSealBytes, seal)
			for _, n := range []int{200, 20_000, 100_000} {
				b.Run(fmt.Sprintf("entries=%d", n), func(b *testing.B) {
					history := longHistory(b, n)
					b.Run("op=size", func(b *testing.B) {
						for b.Loop() {
						}
						b.ReportMetric(float64(journalBytes(b, history)), "journal-bytes")
					})
					for _, bin := range bins {
						b.Run("build="+bin[0], func(b *testing.B) {
							root := b.TempDir()
							if err := os.CopyFS(root, os.DirFS(history)); err != nil {
								b.Fatal(err)
							}
							b.Run("op=cli-update", func(b *testing.B) {
								timeOps(b, bin[1], root, func(i int) []string { return []string{"todo", "update", "25", "--owner", fmt.Sprintf("o%d", i)} })
							})
							b.Run("op=check", func(b *testing.B) {
								timeOps(b, bin[1], root, func(int) []string { return []string{"check"} })
							})
							b.Run("op=doctor", func(b *testing.B) {
								timeOps(b, bin[1], root, func(int) []string { return []string{"doctor"} })
							})
							b.Run("op=mcp-update", func(b *testing.B) { mcpUpdates(b, bin[1], root) })
						})
					}
				})
			}
		})
	}
}

// longHistory is a git repository with the merge driver set up, a plan of
// 20 items approved and 30 todos (one history entry each), then n-51
// more changes to those 50 tasks (store's TestWriteLongHistory). The state
// stays the same size whatever n is, so only the journal's age differs.
func longHistory(b *testing.B, n int) string {
	b.Helper()
	root := b.TempDir()
	gitRun(b, root, false, "init", "-q")
	var plan strings.Builder
	plan.WriteString("# Long history\n\n## Work\n")
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&plan, "- item %d: wire the %d-th part of the ingest path\n  detail %d, with a line of plan text\n", i, i, i)
	}
	if err := os.WriteFile(filepath.Join(root, "PLAN.md"), []byte(plan.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	planls(b, root, "approve")
	// The store's own test writes the history: it alone can append many
	// changes under one lock, which one commit a change (8 ms of fsync
	// each) would take 15 minutes to do at 100,000.
	gen := exec.Command("go", "test", "-count=1", "-run", "^TestWriteLongHistory$", "github.com/planls/planls/store")
	gen.Env = append(os.Environ(), "PLANLS_LONG_HISTORY_ROOT="+root, fmt.Sprintf("PLANLS_LONG_HISTORY_N=%d", n-1))
	if out, err := gen.CombinedOutput(); err != nil {
		b.Fatalf("writing the history: %v\n%s", err, out)
	}
	planls(b, root, "init")
	return root
}

// journalBytes is the size of the journal in root's work tree: the tail
// and every sealed segment.
func journalBytes(b *testing.B, root string) int64 {
	var total int64
	dir := filepath.Join(root, store.DirName)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if rel == store.JournalName || strings.HasPrefix(rel, store.SealDirName+string(filepath.Separator)) {
			fi, err := d.Info()
			if err != nil {
				return err
			}
			if !fi.IsDir() {
				total += fi.Size()
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return total
}

// timeOps runs b.N processes of the planls at bin and reports the median CPU and wall
// time of one. Exit 1 (check's "items open", doctor's "needs attention")
// is an answer, not a failure.
func timeOps(b *testing.B, bin, root string, args func(i int) []string) {
	wall := make([]time.Duration, 0, b.N)
	cpu := make([]time.Duration, 0, b.N)
	for i := 0; b.Loop(); i++ {
		cmd := planlsCmd(root, args(i)...)
		cmd.Path, cmd.Args[0] = bin, bin
		start := time.Now()
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) {
			b.Fatalf("planls %v: %v\n%s", args(i), err, out)
		}
		wall = append(wall, time.Since(start))
		cpu = append(cpu, cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
	}
	slices.Sort(wall)
	slices.Sort(cpu)
	b.ReportMetric(float64(wall[len(wall)/2].Microseconds())/1000, "ms-median")
	b.ReportMetric(float64(cpu[len(cpu)/2].Microseconds())/1000, "cpu-ms-median")
}

// mcpUpdates is 20·b.N owner updates over one `mcp` session of the planls
// at bin on root,
// reporting the server's CPU time per call (its CPU clock from /proc) and
// the median round trip.
func mcpUpdates(b *testing.B, bin, root string) {
	cmd := exec.Command(bin, "mcp", "--root", root)
	cmd.Env = append(os.Environ(), "PLANLS_ROOT=", "PLANLS_LOCK_TIMEOUT=60s")
	client := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "0"}, nil)
	ctx := context.Background()
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	call := func(i int) {
		args := json.RawMessage(fmt.Sprintf(`{"action":"update","id":26,"owner":"m%d"}`, i))
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "todo", Arguments: args})
		if err != nil || res.IsError {
			b.Fatalf("update: %v %+v", err, res)
		}
	}
	call(-1) // the session's first commit checks what later ones need not
	cpu0 := processCPU(b, cmd.Process.Pid)
	// 20 calls an iteration: the CPU clock ticks in 10 ms.
	wall := make([]time.Duration, 0, 20*b.N)
	for i := 0; b.Loop(); i++ {
		for j := range 20 {
			start := time.Now()
			call(20*i + j)
			wall = append(wall, time.Since(start))
		}
	}
	cpu := processCPU(b, cmd.Process.Pid) - cpu0
	slices.Sort(wall)
	b.ReportMetric(float64(wall[len(wall)/2].Microseconds())/1000, "ms-median")
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(len(wall)), "server-cpu-ms")
}

// processCPU is the user + system CPU time of a running process, from
// /proc/PID/stat (Linux; clock ticks of 10 ms).
func processCPU(b *testing.B, pid int) time.Duration {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Skipf("no /proc: %v", err)
	}
	f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+2:]))
	var utime, stime int64
	fmt.Sscan(f[11], &utime)
	fmt.Sscan(f[12], &stime)
	return time.Duration(utime+stime) * 10 * time.Millisecond
}
