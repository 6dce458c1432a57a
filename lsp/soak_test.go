package lsp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/planls/planls/internal/plangen"
	"github.com/planls/planls/store"
)

// TestSoak is one server session through many edits of the open plan,
// interleaved with writes by the planls CLI (other processes) and git
// checkouts of a branch whose PLAN.md and .planls/ differ (the editor then
// reloads the buffer). After every edit, write and switch, the session's
// diagnostics must equal those of a fresh server given the same text and
// the same files; at checkpoints the goroutine count and the resident
// memory (after a collection) must stay within 10% of the first one.
//
// CI runs 200 edits; the soak is PLANLS_SOAK_EDITS=20000 (docs/DEVELOPING.md;
// about 10 minutes here), where the flatness is checked too.
func TestSoak(t *testing.T) {
	if testing.Short() {
		t.Skip("long; skipped with -short")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	edits := 200
	if s := os.Getenv("PLANLS_SOAK_EDITS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("PLANLS_SOAK_EDITS=%q", s)
		}
		edits = n
	}
	bin := planlsBinary(t)
	root := t.TempDir()
	plan := filepath.Join(root, "PLAN.md")
	run := func(name string, args ...string) {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "PLANLS_ROOT=", "GIT_CONFIG_GLOBAL=/dev/null",
			"GIT_AUTHOR_NAME=soak", "GIT_AUTHOR_EMAIL=soak@example.com", "GIT_COMMITTER_NAME=soak", "GIT_COMMITTER_EMAIL=soak@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s %v: %v\n%s", name, args, err, out)
		}
	}
	branches := []string{"main", "other"}
	run("git", "init", "-q", "-b", "main")
	writeFile(t, plan, string(plangen.Generate(40, 1)))
	run(bin, "approve")
	run("git", "add", "-A")
	run("git", "commit", "-q", "-m", "main plan")
	run("git", "checkout", "-q", "-b", "other")
	writeFile(t, plan, string(plangen.Generate(60, 2)))
	run(bin, "approve")
	run("git", "add", "-A")
	run("git", "commit", "-q", "-m", "other plan")
	run("git", "checkout", "-q", "main")

	opts := testOptions()
	e := newEnv(t, envConfig{folders: []string{root}, opts: opts})
	e.mu.Lock()
	e.keepLast = true
	e.mu.Unlock()
	text, _ := os.ReadFile(plan)
	u := e.open(plan, string(text))
	version := 1
	r := rand.New(rand.NewPCG(7, 25))

	// same waits until the session's diagnostics equal a fresh server's
	// for the buffer's text and the files on disk now. A file event the
	// session has not handled yet is waited out; a difference that stays
	// fails.
	checks := 0
	same := func(what string) {
		t.Helper()
		checks++
		var want string
		t.Run("fresh", func(t *testing.T) {
			fresh := newEnv(t, envConfig{folders: []string{root}, opts: opts})
			fresh.mu.Lock()
			fresh.keepLast = true
			fresh.mu.Unlock()
			fresh.open(plan, string(text))
			fresh.barrier()
			want = diagsJSON(t, fresh, u)
		})
		e.barrier()
		e.waitFor(what+": the session's diagnostics equal a fresh server's", func() bool {
			d, ok := e.diags[u]
			got, _ := json.Marshal(d)
			return ok && string(got) == want
		})
	}
	type sample struct {
		edit       int
		goroutines int
		rss        int64
	}
	var samples []sample
	measure := func(edit int) {
		runtime.GC()
		debug.FreeOSMemory()
		samples = append(samples, sample{edit, runtime.NumGoroutine(), residentBytes(t)})
	}

	branch := 0
	every := max(edits/20, 10) // checkpoints and branch switches
	same("open")
	for i := 1; i <= edits; i++ {
		lines := bytes.Split(text, []byte("\n"))
		at := 2 + r.IntN(len(lines)-2)
		switch r.IntN(3) {
		case 0: // a new bullet
			lines = append(lines[:at], append([][]byte{[]byte(fmt.Sprintf("- soak item %d", i))}, lines[at:]...)...)
		case 1: // a line removed
			lines = append(lines[:at], lines[at+1:]...)
		default: // a word typed into a line
			lines[at] = append(bytes.Clone(lines[at]), []byte(" edited")...)
		}
		text = bytes.Join(lines, []byte("\n"))
		version++
		e.change(u, version, string(text))
		switch {
		case i%every == 0: // commit the branch's state, check out the other one, reload
			run("git", "add", "-A", ".planls")
			run("git", "commit", "-q", "--allow-empty", "-m", fmt.Sprintf("state at edit %d", i))
			branch = 1 - branch
			run("git", "checkout", "-q", "-f", branches[branch])
			text, _ = os.ReadFile(plan)
			version++
			e.change(u, version, string(text))
			same(fmt.Sprintf("edit %d, checkout %s", i, branches[branch]))
			measure(i)
		case i%(every/5) == 0: // another process writes the state
			st, err := store.Open(root, "soak").Read()
			if err != nil {
				t.Fatal(err)
			}
			var live []string
			for _, task := range st.Tasks {
				if task.Status == "pending" {
					live = append(live, strconv.Itoa(task.ID))
				}
			}
			if len(live) > 0 {
				run(bin, "todo", "start", live[r.IntN(len(live))])
			} else {
				run(bin, "todo", "create", fmt.Sprintf("soak task %d", i))
			}
			same(fmt.Sprintf("edit %d, CLI write", i))
		default:
			same(fmt.Sprintf("edit %d", i))
		}
	}
	t.Logf("%d edits, %d comparisons with a fresh server, %d branch switches", edits, checks, len(samples))
	for _, s := range samples {
		t.Logf("edit %6d: %4d goroutines, RSS %6.1f MB", s.edit, s.goroutines, float64(s.rss)/(1<<20))
	}
	if edits < 5000 || len(samples) < 3 {
		return // too short to call anything flat
	}
	first, last := samples[1], samples[len(samples)-1] // after a warm-up
	if float64(last.goroutines) > 1.10*float64(first.goroutines) {
		t.Errorf("goroutines grew from %d to %d", first.goroutines, last.goroutines)
	}
	if float64(last.rss) > 1.10*float64(first.rss) {
		t.Errorf("RSS grew from %.1f MB to %.1f MB", float64(first.rss)/(1<<20), float64(last.rss)/(1<<20))
	}
}

// residentBytes is this process's resident set (Linux /proc; 0 elsewhere).
func residentBytes(t *testing.T) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}
