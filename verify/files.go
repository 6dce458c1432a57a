package verify

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/planls/planls/core"
	"github.com/planls/planls/internal/lazy"
)

// maxScan bounds how much of one file a test search reads (bytes): test
// files are small; a huge generated file is not read whole.
const maxScan = 4 << 20

// tree is the workspace's files (slash-separated, relative to the root):
// git's tracked and untracked-not-ignored files in a repository, else a
// walk that skips dot directories, node_modules and vendor.
type tree struct {
	files  []string
	byBase map[string][]string
	tests  map[string][]string   // test function name → files declaring it (read lazily)
	decls  map[string][]testDecl // file (absolute) → its test functions, read once a run
	goTest bool                  // the tree has a _test.go file
	root   string
}

func loadTree(ctx context.Context, root string, r *repo) *tree {
	t := &tree{root: root, byBase: map[string][]string{}}
	if r.err == nil {
		if out, err := r.git(nil, "ls-files", "-z", "--cached", "--others", "--exclude-standard"); err == nil {
			seen := map[string]bool{}
			for _, f := range strings.Split(string(out), "\x00") {
				if f != "" && !seen[f] {
					seen[f] = true
					t.files = append(t.files, f)
				}
			}
		}
	}
	if t.files == nil {
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || ctx.Err() != nil {
				return fs.SkipDir
			}
			name := d.Name()
			if d.IsDir() {
				if p != root && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "vendor") {
					return fs.SkipDir
				}
				return nil
			}
			if rel, err := filepath.Rel(root, p); err == nil {
				t.files = append(t.files, filepath.ToSlash(rel))
			}
			return nil
		})
	}
	for _, f := range t.files {
		t.byBase[path.Base(f)] = append(t.byBase[path.Base(f)], f)
		t.goTest = t.goTest || strings.HasSuffix(f, "_test.go")
	}
	return t
}

// testFuncRe finds Go test, benchmark, fuzz and example functions.
var testFuncRe = lazy.Regexp(`(?m)^func\s+((?:Test|Benchmark|Fuzz|Example)\w*)\s*\(`)

// testIndex reads every *_test.go file once and indexes its functions.
func (t *tree) testIndex() map[string][]string {
	if t.tests != nil {
		return t.tests
	}
	t.tests = map[string][]string{}
	for _, f := range t.files {
		if !strings.HasSuffix(f, "_test.go") {
			continue
		}
		for _, name := range testFuncs(filepath.Join(t.root, filepath.FromSlash(f))) {
			t.tests[name] = append(t.tests[name], f)
		}
	}
	return t.tests
}

// testFuncs lists the test functions a Go file declares.
func testFuncs(file string) []string {
	var out []string
	for _, f := range testDecls(file) {
		out = append(out, f.name)
	}
	return out
}

// testDecl is a test function and the 1-based line it is declared on.
type testDecl struct {
	name string
	line int
}

// testDecls lists the test functions a Go file declares, with their lines.
func testDecls(file string) []testDecl {
	data, err := readPrefix(file, maxScan)
	if err != nil {
		return nil
	}
	var out []testDecl
	line, at := 1, 0
	for _, m := range testFuncRe().FindAllSubmatchIndex(data, -1) {
		line += bytes.Count(data[at:m[0]], []byte("\n"))
		at = m[0]
		out = append(out, testDecl{name: string(data[m[2]:m[3]]), line: line})
	}
	return out
}

// declLine is the line test name is declared on in file (0 when it is not).
// Each file is read once a run (t may be nil: then every time).
func (t *tree) declLine(file, name string) int {
	var decls []testDecl
	if t == nil {
		decls = testDecls(file)
	} else if d, ok := t.decls[file]; ok {
		decls = d
	} else {
		decls = testDecls(file)
		if t.decls == nil {
			t.decls = map[string][]testDecl{}
		}
		t.decls[file] = decls
	}
	for _, f := range decls {
		if f.name == name {
			return f.line
		}
	}
	return 0
}

func readPrefix(file string, n int64) ([]byte, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var b bytes.Buffer
	_, err = b.ReadFrom(io.LimitReader(f, n))
	return b.Bytes(), err
}

// Resolve maps a file reference's path to a file in the workspace: the
// path relative to root (or absolute inside it), backslashes read as
// separators. ok is false for a path outside the root (absolute elsewhere,
// ~, a Windows drive on another system). rel is slash-separated.
func Resolve(root, p string) (abs, rel string, ok bool) {
	p = strings.TrimRight(p, `/\`)
	if p == "" {
		p = "."
	}
	if core.DriveRe().MatchString(p) && filepath.VolumeName(p) == "" {
		return "", "", false // C:\... read on a system without drives
	}
	if strings.HasPrefix(p, "~") {
		return "", "", false
	}
	native := filepath.FromSlash(strings.ReplaceAll(p, `\`, "/"))
	if filepath.IsAbs(native) {
		abs = filepath.Clean(native)
	} else {
		abs = filepath.Join(root, native)
	}
	r, err := filepath.Rel(root, abs)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", "", false
	}
	return abs, filepath.ToSlash(r), true
}

// fileCheck: the file exists and has the line named. A bare name (no
// directory) not at the root is looked up anywhere in the tree.
func fileCheck(root string, t *tree, ref core.EvidenceRef) Check {
	c := Check{Ref: ref}
	abs, rel, ok := Resolve(root, ref.Path)
	if !ok {
		c.State, c.Detail = Unverifiable, fmt.Sprintf("file %s is outside the workspace", ref.Path)
		return c
	}
	info, err := os.Stat(abs)
	if err != nil && t != nil && !strings.ContainsAny(ref.Path, `/\`) {
		if found := t.byBase[ref.Path]; len(found) > 0 {
			rel = found[0]
			abs = filepath.Join(root, filepath.FromSlash(rel))
			info, err = os.Stat(abs)
		}
	}
	if err != nil {
		c.State, c.Detail = Failed, fmt.Sprintf("file %s does not exist", ref.Path)
		return c
	}
	c.File = rel
	if ref.Line == 0 {
		c.State, c.Detail = Verified, "file "+rel+" exists"
		return c
	}
	if info.IsDir() {
		c.State, c.Detail = Failed, fmt.Sprintf("%s is a directory: it has no line %d", rel, ref.Line)
		return c
	}
	n, err := countLines(abs)
	if err != nil {
		c.State, c.Detail = Unverifiable, fmt.Sprintf("file %s: %v", rel, err)
		return c
	}
	last := max(ref.Line, ref.EndLine)
	if last > n {
		c.State, c.Detail = Failed, fmt.Sprintf("file %s has %d lines: no line %d", rel, n, last)
		return c
	}
	c.State, c.Detail = Verified, fmt.Sprintf("file %s has line %d", rel, ref.Line)
	return c
}

// countLines counts a file's lines: a last line without a newline counts.
func countLines(file string) (int, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return 0, err
	}
	n := bytes.Count(data, []byte("\n"))
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return n, nil
}

// testCheck: the test function exists, in the file named when one is.
// A subtest path (TestX/case) is checked by its top-level function.
func testCheck(root string, t *tree, ref core.EvidenceRef) Check {
	c := Check{Ref: ref}
	name, _, _ := strings.Cut(ref.Test, "/")
	if ref.Path != "" {
		abs, rel, ok := Resolve(root, ref.Path)
		if !ok {
			c.State, c.Detail = Unverifiable, fmt.Sprintf("test file %s is outside the workspace", ref.Path)
			return c
		}
		if _, err := os.Stat(abs); err != nil && !strings.ContainsAny(ref.Path, `/\`) && t != nil {
			if found := t.byBase[ref.Path]; len(found) > 0 {
				rel, abs = found[0], filepath.Join(root, filepath.FromSlash(found[0]))
			}
		}
		if _, err := os.Stat(abs); err != nil {
			c.State, c.Detail = Failed, fmt.Sprintf("test file %s does not exist", ref.Path)
			return c
		}
		if line := t.declLine(abs, name); line > 0 {
			c.State, c.Detail, c.File, c.Line = Verified, fmt.Sprintf("test %s is in %s", name, rel), rel, line
			return c
		}
		c.State, c.Detail, c.File = Failed, fmt.Sprintf("test %s not found in %s", name, rel), rel
		return c
	}
	if t == nil || !t.goTest {
		// Only Go's test functions are indexed: elsewhere the name says
		// nothing planls can look up.
		c.State, c.Detail = Unverifiable, "test "+name+": the workspace has no Go test files to search"
		return c
	}
	if files := t.testIndex()[name]; len(files) > 0 {
		c.State, c.Detail, c.File = Verified, fmt.Sprintf("test %s is in %s", name, files[0]), files[0]
		c.Line = t.declLine(filepath.Join(root, filepath.FromSlash(files[0])), name)
		return c
	}
	c.State, c.Detail = Failed, fmt.Sprintf("test %s not found in any _test.go file", name)
	return c
}
