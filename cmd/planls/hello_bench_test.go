package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// BenchmarkProcessHelloWorld is the floor of any CLI command: starting a Go
// program that does nothing (built here with the same toolchain). A CLI op
// (BenchmarkProcessTodoUpdate) is judged against it plus one durable commit
// (store's BenchmarkDurableCommitFloor), issue 15.
func BenchmarkProcessHelloWorld(b *testing.B) {
	dir := b.TempDir()
	src := filepath.Join(dir, "main.go")
	if err := os.WriteFile(src, []byte("package main\n\nfunc main() {}\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	bin := filepath.Join(dir, "hello")
	build := exec.Command("go", "build", "-o", bin, src)
	build.Dir = dir
	build.Env = append(os.Environ(), "GO111MODULE=off")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("build hello: %v\n%s", err, out)
	}
	wall := make([]time.Duration, 0, b.N)
	cpu := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		cmd := exec.Command(bin)
		start := time.Now()
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
		wall = append(wall, time.Since(start))
		cpu = append(cpu, cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
	}
	b.StopTimer()
	slices.Sort(wall)
	slices.Sort(cpu)
	b.ReportMetric(float64(wall[len(wall)/2].Microseconds())/1000, "ms-median")
	b.ReportMetric(float64(cpu[len(cpu)/2].Microseconds())/1000, "cpu-ms-median")
}
