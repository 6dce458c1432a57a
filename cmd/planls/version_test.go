package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// A build from a checkout names its commit, not "devel".
func TestVersionFrom(t *testing.T) {
	vcs := func(modified string) []debug.BuildSetting {
		return []debug.BuildSetting{
			{Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: "89e9b5e1a9e26b0bd36ef83b3ed481afd7e264b3"},
			{Key: "vcs.time", Value: "2026-11-30T09:00:40Z"},
			{Key: "vcs.modified", Value: modified},
		}
	}
	for _, c := range []struct {
		name     string
		main     string
		settings []debug.BuildSetting
		want     string
	}{
		{"release", "v1.2.3", nil, "v1.2.3"},
		{"stamped pseudo-version", "v0.0.0-20261130090040-89e9b5e1a9e2+dirty", vcs("true"), "v0.0.0-20261130090040-89e9b5e1a9e2+dirty"},
		{"vcs settings only", "(devel)", vcs("false"), "v0.0.0-20261130090040-89e9b5e1a9e2"},
		{"vcs settings, modified", "", vcs("true"), "v0.0.0-20261130090040-89e9b5e1a9e2+dirty"},
		{"no vcs information", "(devel)", nil, "devel"},
	} {
		info := &debug.BuildInfo{Main: debug.Module{Path: "github.com/planls/planls", Version: c.main}, Settings: c.settings}
		if got := versionFrom(info); got != c.want {
			t.Errorf("%s: versionFrom = %q, want %q", c.name, got, c.want)
		}
	}
}

// TestVersionOfCheckoutBuild builds the real binary with -buildvcs=true in
// this checkout and expects `planls version` to name HEAD. It needs a
// checkout whose .git is a directory: the go command records no VCS
// information in a git worktree (.git is a file there), so it is skipped
// in one, and runs in a clone (CI).
func TestVersionOfCheckoutBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	top, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skip("not in a git checkout")
	}
	if st, err := os.Stat(filepath.Join(strings.TrimSpace(string(top)), ".git")); err != nil || !st.IsDir() {
		t.Skip("a git worktree: the go command stamps no VCS information")
	}
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "planls")
	build := exec.Command("go", "build", "-buildvcs=true", "-o", bin, ".")
	build.Env = append(os.Environ(), "GOFLAGS=")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if rev := strings.TrimSpace(string(head))[:12]; !strings.Contains(string(out), rev) || strings.Contains(string(out), "devel") {
		t.Errorf("planls version = %q, want the commit %s and no devel", out, rev)
	}
}

// TestVersionWithoutVCS builds the real binary as the README's first
// command does on a machine with GOFLAGS=-buildvcs=false, and expects what
// the README says it prints then.
func TestVersionWithoutVCS(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "planls")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "GOFLAGS=-buildvcs=false", "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	got := strings.TrimSpace(string(out))
	if got != "planls devel" {
		t.Fatalf("planls version = %q, want %q", got, "planls devel")
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(readme)), " ")
	for _, want := range []string{"else `" + got + "`", "`-buildvcs=false` is in effect", "`./bin/planls version`"} {
		if !strings.Contains(text, want) {
			t.Errorf("README.md does not say %q", want)
		}
	}
}
