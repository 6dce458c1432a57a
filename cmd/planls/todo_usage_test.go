package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every todo subcommand that takes an id (or create, a subject) treats a
// missing or malformed one as a usage error: exit 2, before the tool runs,
// so nothing is created. The tool's own rejection of a well-formed call
// stays exit 1.
func TestTodoPositionalExitCodes(t *testing.T) {
	type row struct {
		args   []string
		code   int
		stderr string // first line of stderr
	}
	var rows []row
	for _, a := range todoActions {
		name := strings.Fields(a.use)[0]
		path := "planls todo " + name
		switch a.pos {
		case argsID:
			rows = append(rows,
				row{[]string{name}, exitError, "Error: " + path + " needs a task id: " + path + " <id>"},
				row{[]string{name, "abc"}, exitError, `Error: "abc" is not a task id`},
				row{[]string{name, "1", "2"}, exitError, "Error: accepts at most 1 arg(s), received 2"},
				row{[]string{name, "99"}, exitRejected, "Error: #99 not found"},
			)
		case argsIDs:
			rows = append(rows, row{[]string{name, "1", "x"}, exitError, `Error: "x" is not a task id`})
		case argsSubject:
			rows = append(rows, row{[]string{name}, exitError, "Error: " + path + " needs a subject: " + path + " <subject...>"})
		case argsNone:
			rows = append(rows, row{[]string{name, "extra"}, exitError, `Error: unknown command "extra" for "` + path + `"`})
		}
	}
	if len(rows) < 2*len(todoActions) {
		t.Fatalf("only %d rows for %d subcommands", len(rows), len(todoActions))
	}
	for _, r := range rows {
		root := t.TempDir()
		var out, errw bytes.Buffer
		args := append([]string{"--root", root, "todo"}, r.args...)
		code := runIO(args, strings.NewReader(""), &out, &errw)
		first, _, _ := strings.Cut(errw.String(), "\n")
		if code != r.code || first != r.stderr {
			t.Errorf("planls todo %s: exit %d, stderr %q; want exit %d, %q", strings.Join(r.args, " "), code, errw.String(), r.code, r.stderr)
		}
		if r.code == exitError {
			if out.Len() != 0 {
				t.Errorf("planls todo %s: stdout %q", strings.Join(r.args, " "), out.String())
			}
			if _, err := os.Stat(filepath.Join(root, ".planls")); err == nil {
				t.Errorf("planls todo %s: a usage error created .planls", strings.Join(r.args, " "))
			}
		}
	}
}
