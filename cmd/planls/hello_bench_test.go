package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/planls/planls/internal/floor"
)

// BenchmarkCLIVsFloor interleaves, b.N times, the floor of a CLI command
// (starting a Go program that does nothing, built here with the same
// toolchain, then one durable commit with plain system calls, floor.Commit)
// with a real `planls todo update` process on the project of
// BenchmarkProcessTodoUpdate's size. Interleaving keeps a busy machine's
// drift out of the ratio. Target: cli-ms ≤ 1.5 × floor-ms.
func BenchmarkCLIVsFloor(b *testing.B) {
	dir := b.TempDir()
	src := filepath.Join(dir, "main.go")
	if err := os.WriteFile(src, []byte("package main\n\nfunc main() {}\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	hello := filepath.Join(dir, "hello")
	build := exec.Command("go", "build", "-o", hello, src)
	build.Dir = dir
	build.Env = append(os.Environ(), "GO111MODULE=off")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("build hello: %v\n%s", err, out)
	}
	root := newProject(b)
	for i := 0; i < 50; i++ {
		planls(b, root, "todo", "create", fmt.Sprintf("todo %d", i))
	}
	state, err := os.ReadFile(filepath.Join(root, ".planls", "state.json"))
	if err != nil {
		b.Fatal(err)
	}
	floorDir := b.TempDir()
	floors := make([]time.Duration, 0, b.N)
	clis := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		if err := exec.Command(hello).Run(); err != nil {
			b.Fatal(err)
		}
		if err := floor.Commit(floorDir, state, floor.JournalLine); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		cmd := planlsCmd(root, "todo", "update", "25", "--owner", fmt.Sprintf("o%d", i))
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v: %s", err, out)
		}
		clis = append(clis, time.Since(t1))
		floors = append(floors, t1.Sub(t0))
	}
	b.StopTimer()
	slices.Sort(floors)
	slices.Sort(clis)
	f, c := floors[len(floors)/2], clis[len(clis)/2]
	b.ReportMetric(float64(f.Microseconds())/1000, "floor-ms")
	b.ReportMetric(float64(c.Microseconds())/1000, "cli-ms")
	b.ReportMetric(float64(c)/float64(f), "x-floor")
}
