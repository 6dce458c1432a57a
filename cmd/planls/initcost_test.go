package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// Every planls command is a new process that first runs the
// initialisers of every package linked in, so work done there (a
// regexp.MustCompile or a table built in a var declaration) is paid by each
// `planls todo update` whether it is used or not. Our packages build such
// values on first use (internal/lazy, sync.OnceValue); this keeps them from
// coming back. GODEBUG=inittrace=1 makes the runtime print each package's
// init cost: "init PKG @T ms, C ms clock, B bytes, N allocs". At 6605b2a
// our packages made 1,294 allocations (core alone 1,051); now about 150.
func TestPackageInitIsCheap(t *testing.T) {
	cmd := exec.Command(planlsBin, "version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("planls version: %v\n%s", err, stderr.Bytes())
	}
	const limit = 400
	allocs, seen := 0, 0
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 11 || f[0] != "init" || f[10] != "allocs" {
			continue
		}
		if f[1] != "main" && !strings.HasPrefix(f[1], "github.com/planls/planls/") {
			continue
		}
		n, err := strconv.Atoi(f[9])
		if err != nil {
			t.Fatalf("unexpected inittrace line %q", sc.Text())
		}
		allocs += n
		seen++
		t.Logf("%s: %d allocs", f[1], n)
	}
	if seen == 0 {
		t.Fatalf("no init line for our packages in:\n%s", stderr.String())
	}
	if allocs > limit {
		t.Errorf("our packages allocate %d times at start, more than %d: build package-level values on first use", allocs, limit)
	}
}
