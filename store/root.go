package store

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// EnvRoot is the environment variable FindRoot consults after the --root flag.
const EnvRoot = "PLANLS_ROOT"

// FindRoot returns the absolute workspace root: flag when not empty, else
// $PLANLS_ROOT when set, else the nearest ancestor of cwd (cwd included) that
// holds a .planls directory or a .git entry (a directory, or a file for git
// worktrees and submodules). Relative flag and cwd values are resolved against
// the process's working directory. A flag or $PLANLS_ROOT naming something
// that is not a directory is an error. When nothing is found the error names
// every place looked, in the order they were tried (a *NoRootError).
func FindRoot(flag, cwd string) (string, error) {
	if flag != "" {
		return explicitRoot("--root", flag)
	}
	if env := os.Getenv(EnvRoot); env != "" {
		return explicitRoot("$"+EnvRoot, env)
	}
	if cwd == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", fmt.Errorf("cannot find the planls root: working directory: %w", err)
		}
		cwd = wd
	}
	dir, err := filepath.Abs(cwd)
	if err != nil {
		return "", fmt.Errorf("cannot find the planls root: %w", err)
	}
	var looked []string
	for {
		looked = append(looked, dir)
		if isDir(filepath.Join(dir, DirName)) || exists(filepath.Join(dir, ".git")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return "", &NoRootError{Looked: looked}
}

// NoRootError is FindRoot finding no project: neither --root nor
// $PLANLS_ROOT was given and no directory in Looked (cwd first, then each
// parent up to the filesystem root, absolute) holds .planls/ or .git.
type NoRootError struct{ Looked []string }

func (e *NoRootError) Error() string {
	return fmt.Sprintf("no planls root found: --root not given, $%s not set, and no %s/ or .git in %s; run inside a git repository or pass --root",
		EnvRoot, DirName, strings.Join(e.Looked, ", "))
}

func explicitRoot(from, p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", fmt.Errorf("%s %s: %w", from, p, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("%s %s: no such directory", from, p)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("%s %s: not a directory", from, p)
	}
	return abs, nil
}

// ProjectID is the project scope id of a root: the first 12 lowercase hex
// digits of the SHA-256 of the root's absolute, cleaned path with symbolic
// links resolved (when they can be; else the path as given), slash-separated.
// It is stable for one checkout on one machine, differs between checkouts, and
// is what `planls status` prints and the MCP project_id parameter must equal.
func ProjectID(root string) string {
	p, err := filepath.Abs(root)
	if err != nil {
		p = root
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		p = r
	}
	sum := sha256.Sum256([]byte(filepath.ToSlash(filepath.Clean(p))))
	return hex.EncodeToString(sum[:])[:12]
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
