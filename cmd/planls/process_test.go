package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/planls/planls/core"
	"github.com/planls/planls/store"
)

// These tests run the real binary (built by TestMain) as separate
// processes on the real disk.

// newProject is an empty git-marked workspace.
func newProject(t testing.TB) string {
	t.Helper()
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	return root
}

// planls runs the binary in root and returns stdout, failing on a non-zero exit.
func planls(t testing.TB, root string, args ...string) string {
	t.Helper()
	out, err := planlsCmd(root, args...).Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("planls %s: %v\n%s", strings.Join(args, " "), err, msg)
	}
	return string(out)
}

func planlsCmd(root string, args ...string) *exec.Cmd {
	cmd := exec.Command(planlsBin, args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "PLANLS_ROOT=", "PLANLS_LOCK_TIMEOUT=60s")
	return cmd
}

func readState(t testing.TB, root string) *core.State {
	t.Helper()
	st, err := store.Open(root, "test").Read()
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// Eight processes at once, each creating tasks and updating its own
// pre-existing task; every change is present, the revision counts them all,
// and the journal holds each commit once, in order.
func TestEightProcessesLoseNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("runs many processes")
	}
	root := newProject(t)
	const writers, each = 8, 6
	for w := 1; w <= writers; w++ {
		planls(t, root, "todo", "create", fmt.Sprintf("writer %d", w))
	}
	var wg sync.WaitGroup
	errs := make(chan string, writers*each*2)
	for w := 1; w <= writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				for _, args := range [][]string{
					{"todo", "create", fmt.Sprintf("w%d-%d", w, i)},
					{"todo", "update", fmt.Sprint(w), "--metadata", fmt.Sprintf("k%d=v", i)},
				} {
					if out, err := planlsCmd(root, args...).CombinedOutput(); err != nil {
						errs <- fmt.Sprintf("%v: %v: %s", args, err, out)
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	st := readState(t, root)
	wantRev := int64(writers + writers*each*2)
	if st.Revision != wantRev {
		t.Errorf("revision %d, want %d", st.Revision, wantRev)
	}
	if len(st.Tasks) != writers+writers*each {
		t.Fatalf("%d tasks, want %d", len(st.Tasks), writers+writers*each)
	}
	subjects := map[string]bool{}
	for i, task := range st.Tasks {
		if task.ID != i+1 {
			t.Fatalf("task %d has id %d", i, task.ID)
		}
		subjects[task.Subject] = true
		if task.ID <= writers && len(task.Metadata) != each {
			t.Errorf("#%d has %d metadata keys, want %d: %v", task.ID, len(task.Metadata), each, task.Metadata)
		}
	}
	for w := 1; w <= writers; w++ {
		for i := 0; i < each; i++ {
			if !subjects[fmt.Sprintf("w%d-%d", w, i)] {
				t.Errorf("lost create w%d-%d", w, i)
			}
		}
	}
	entries, probs, err := store.ReadJournal(filepath.Join(root, ".planls", "journal.jsonl"))
	if err != nil || len(probs) > 0 {
		t.Fatalf("journal: %v %v", probs, err)
	}
	if int64(len(entries)) != wantRev {
		t.Fatalf("journal has %d entries, want %d", len(entries), wantRev)
	}
	for i, e := range entries {
		if e.Revision != int64(i+1) || e.Base != int64(i) || e.Actor != "cli" {
			t.Fatalf("journal entry %d: revision %d base %d actor %q", i, e.Revision, e.Base, e.Actor)
		}
	}
}

// CLI writers are killed with SIGKILL at random moments. The state
// always parses and is a whole commit (creates only: revision = tasks =
// highest id), never goes back, no temp file survives the next commit, and
// the journal rebuilds the state.
func TestKill9CLIWriters(t *testing.T) {
	if testing.Short() {
		t.Skip("runs many processes")
	}
	root := newProject(t)
	// Kill within about one process lifetime, measured on this machine now
	// and adapted each round: a busy machine can stretch a lifetime many
	// times over, so a round in which no writer committed widens the
	// window and one in which both did narrows it. The rounds so end up
	// killing writers on both sides of their commit, however loaded.
	start := time.Now()
	planls(t, root, "todo", "create", "first")
	life := max(time.Since(start), time.Millisecond)
	last := int64(1)
	rounds, killedBefore := 30, 0
	for r := 0; r < rounds || (last == 1 && r < 4*rounds); r++ {
		var procs []*exec.Cmd
		for i := 0; i < 2; i++ {
			c := planlsCmd(root, "todo", "create", fmt.Sprintf("r%d-%d", r, i))
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			procs = append(procs, c)
		}
		time.Sleep(time.Duration(rand.Int64N(int64(life) * 3 / 2)))
		for _, c := range procs {
			c.Process.Signal(syscall.SIGKILL)
		}
		for _, c := range procs {
			c.Wait()
		}
		st, err := store.Open(root, "test").Read()
		if err != nil {
			t.Fatalf("round %d: %v", r, err)
		}
		n := len(st.Tasks)
		if st.Revision < last || int64(n) != st.Revision || (n > 0 && st.Tasks[n-1].ID != n) {
			t.Fatalf("round %d: revision %d (before %d) with %d tasks", r, st.Revision, last, n)
		}
		switch st.Revision - last {
		case 0:
			life = life * 3 / 2
		case 2:
			life = max(life*2/3, time.Millisecond)
		}
		if st.Revision-last < 2 {
			killedBefore++
		}
		last = st.Revision
	}
	planls(t, root, "todo", "create", "after")
	if temps, _ := filepath.Glob(filepath.Join(root, ".planls", ".state.json*")); len(temps) > 0 {
		t.Errorf("temp files left: %v", temps)
	}
	// Rebuild from the journal in a copy and compare.
	copyRoot := newProject(t)
	os.Mkdir(filepath.Join(copyRoot, ".planls"), 0o755)
	j, _ := os.ReadFile(filepath.Join(root, ".planls", "journal.jsonl"))
	os.WriteFile(filepath.Join(copyRoot, ".planls", "journal.jsonl"), j, 0o644)
	planls(t, copyRoot, "doctor", "--rebuild")
	a, _ := os.ReadFile(filepath.Join(root, ".planls", "state.json"))
	b, _ := os.ReadFile(filepath.Join(copyRoot, ".planls", "state.json"))
	if !bytes.Equal(a, b) {
		t.Errorf("journal rebuild differs from the state:\n%s\n---\n%s", b, a)
	}
	if last == 1 {
		t.Error("no killed writer ever committed: the kills came too early to test anything")
	}
	if killedBefore == 0 {
		t.Error("every writer committed before its kill: the kills came too late to test anything")
	}
	t.Logf("%d commits survived; %d rounds killed a writer before its commit", last-1, killedBefore)
}

// BenchmarkProcessTodoUpdate is one `planls todo update` as a whole
// process (start, find root, read, lock, commit with fsync, journal) on an
// approved plan of 20 items plus 30 todos. Target: median under 15 ms.
func BenchmarkProcessTodoUpdate(b *testing.B) {
	root := newProject(b)
	var plan strings.Builder
	plan.WriteString("# Bench\n\n## Work\n")
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&plan, "- item %d\n  detail %d\n", i, i)
	}
	os.WriteFile(filepath.Join(root, "PLAN.md"), []byte(plan.String()), 0o644)
	planls(b, root, "approve")
	ops := []map[string]any{}
	for i := 0; i < 30; i++ {
		ops = append(ops, map[string]any{"action": "create", "subject": fmt.Sprintf("todo %d", i)})
	}
	p, _ := json.Marshal(map[string]any{"ops": ops})
	planls(b, root, "todo", "--params", string(p))
	b.ResetTimer()
	timeProcesses(b, root, func(i int) []string {
		return []string{"todo", "update", "25", "--owner", fmt.Sprintf("o%d", i)}
	})
}

// BenchmarkProcessTodoList is a read-only `planls todo list` process.
func BenchmarkProcessTodoList(b *testing.B) {
	root := newProject(b)
	planls(b, root, "todo", "create", "x")
	b.ResetTimer()
	timeProcesses(b, root, func(int) []string { return []string{"todo", "list"} })
}

// timeProcesses runs b.N processes and reports the median wall time and the
// median CPU time (user + system) of one; the CPU time is what a loaded
// machine does not inflate.
func timeProcesses(b *testing.B, root string, args func(i int) []string) {
	wall := make([]time.Duration, 0, b.N)
	cpu := make([]time.Duration, 0, b.N)
	for i := 0; i < b.N; i++ {
		cmd := planlsCmd(root, args(i)...)
		start := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v: %s", err, out)
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
