package store

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

func TestFindRoot(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mk := func(p string) string {
		full := filepath.Join(base, p)
		if err := os.MkdirAll(full, 0o755); err != nil {
			t.Fatal(err)
		}
		return full
	}
	repo := mk("repo")
	mk("repo/.git")
	deep := mk("repo/a/b")
	sub := mk("repo/sub")
	mk("repo/sub/.planls")
	wt := mk("worktree/x")
	if err := os.WriteFile(filepath.Join(base, "worktree/.git"), []byte("gitdir: /elsewhere\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := mk("other")
	file := filepath.Join(base, "file")
	os.WriteFile(file, nil, 0o644)

	for _, tc := range []struct {
		name, flag, env, cwd, want, err string
	}{
		{name: "git above", cwd: deep, want: repo},
		{name: "git here", cwd: repo, want: repo},
		{name: "nearest .planls wins", cwd: sub, want: sub},
		{name: ".git file (worktree)", cwd: wt, want: filepath.Join(base, "worktree")},
		{name: "flag", flag: other, cwd: deep, want: other},
		{name: "flag over env", flag: other, env: repo, cwd: deep, want: other},
		{name: "env", env: other, cwd: deep, want: other},
		{name: "flag not a dir", flag: file, cwd: deep, err: "--root " + file + ": not a directory"},
		{name: "flag missing", flag: filepath.Join(base, "nope"), cwd: deep, err: "--root " + filepath.Join(base, "nope") + ": no such directory"},
		{name: "env missing", env: filepath.Join(base, "nope"), cwd: deep, err: "$PLANLS_ROOT " + filepath.Join(base, "nope") + ": no such directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(EnvRoot, tc.env)
			got, err := FindRoot(tc.flag, tc.cwd)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("FindRoot = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

// Outside any project the error names every place looked, in order.
func TestFindRootNamesPlacesLooked(t *testing.T) {
	t.Setenv(EnvRoot, "")
	dir := t.TempDir()
	cwd := filepath.Join(dir, "x", "y")
	if err := os.MkdirAll(cwd, 0o755); err != nil {
		t.Fatal(err)
	}
	// Only meaningful when no ancestor of the temp dir is a repository.
	for d := dir; ; d = filepath.Dir(d) {
		if exists(filepath.Join(d, ".git")) || exists(filepath.Join(d, DirName)) {
			t.Skipf("%s is inside a project", dir)
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	_, err := FindRoot("", cwd)
	if err == nil {
		t.Fatal("no error")
	}
	var looked []string
	for d := cwd; ; d = filepath.Dir(d) {
		looked = append(looked, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	want := "no planls root found: --root not given, $PLANLS_ROOT not set, and no .planls/ or .git in " + strings.Join(looked, ", ") + "; run inside a git repository or pass --root"
	if err.Error() != want {
		t.Errorf("error\n got: %s\nwant: %s", err, want)
	}
}

func TestProjectID(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	id := ProjectID(a)
	if !regexp.MustCompile(`^[0-9a-f]{12}$`).MatchString(id) {
		t.Fatalf("ProjectID = %q", id)
	}
	if ProjectID(a+string(filepath.Separator)) != id || ProjectID(filepath.Join(a, "x", "..")) != id {
		t.Error("ProjectID depends on how the path is spelt")
	}
	link := filepath.Join(b, "link")
	if err := os.Symlink(a, link); err == nil && symlinksResolve && ProjectID(link) != id {
		t.Error("ProjectID differs through a symlink")
	}
	if ProjectID(b) == id {
		t.Error("two roots share an id")
	}
	// Pinned: sha256("/planls-test-root-that-does-not-exist")[:12]; on
	// Windows that path is absolute only with a drive, so another hash.
	if got := ProjectID("/planls-test-root-that-does-not-exist"); got != "730789cde895" && runtime.GOOS != "windows" {
		t.Errorf("ProjectID = %s, want the documented sha256 prefix 730789cde895", got)
	}
}
