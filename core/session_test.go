package core

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planls/planls/planparse"
	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the want section of testdata/core/sessions/*.txtar")

// TestSessions replays the txtar sessions in testdata/core/sessions. Each
// archive has a `script` file, one command a line, run against a state that
// starts empty:
//
//	{...}            a todo call (its JSON params)
//	approve FILE     parse FILE of the archive and approve it
//	match FILE       MatchPlan of FILE against the state
//	reminder         the wrap-up reminder
//	readonly on|off  Options.ReadOnly for the following calls
//	// ...           a comment
//
// The transcript (each command, its text, `(changed)`, notices) must equal
// the archive's `want` file; go test -run TestSessions -update rewrites it.
func TestSessions(t *testing.T) {
	paths, err := filepath.Glob("../testdata/core/sessions/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no sessions: %v", err)
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			ar, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			files := map[string][]byte{}
			for _, f := range ar.Files {
				files[f.Name] = f.Data
			}
			got := runSession(t, string(files["script"]), files)
			if *update {
				for i := range ar.Files {
					if ar.Files[i].Name == "want" {
						ar.Files[i].Data = []byte(got)
					}
				}
				if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if want := string(files["want"]); got != want {
				t.Fatalf("transcript differs (go test -run TestSessions -update to see):\n%s", diffLines(want, got))
			}
		})
	}
}

func runSession(t *testing.T, script string, files map[string][]byte) string {
	t.Helper()
	st := Empty()
	opts := testOpts()
	var out strings.Builder
	for _, line := range strings.Split(script, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "//") {
			continue
		}
		fmt.Fprintf(&out, "> %s\n", line)
		var res Result
		switch cmd, arg, _ := strings.Cut(line, " "); cmd {
		case "approve":
			src, ok := files[arg]
			if !ok {
				t.Fatalf("no file %q", arg)
			}
			res = Approve(st, planparse.Parse(src), src, arg, opts)
		case "match":
			matches, missing := MatchPlan(st, planparse.Parse(files[arg]))
			kinds := []string{"same", "changed", "new"}
			for _, m := range matches {
				fmt.Fprintf(&out, "item %d: #%d %s\n", m.Item, m.TaskID, kinds[m.Kind])
			}
			fmt.Fprintf(&out, "missing: %v\n", missing)
			continue
		case "reminder":
			fmt.Fprintf(&out, "%s\n", Reminder(st, nil))
			continue
		case "readonly":
			opts.ReadOnly = arg == "on"
			continue
		default:
			before := snapshot(t, st)
			res = call(st, json.RawMessage(line), opts)
			if snapshot(t, st) != before {
				t.Fatalf("%s mutated its input", line)
			}
		}
		out.WriteString(res.Envelope.Text() + "\n")
		if res.Changed {
			out.WriteString("(changed)\n")
		}
		for _, n := range res.Notices {
			fmt.Fprintf(&out, "! %s: %s\n", n.Level, n.Text)
		}
		st = res.State
	}
	return out.String()
}

// diffLines shows the first differing line of two transcripts.
func diffLines(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\n want %q\n got  %q", i+1, a, b)
		}
	}
	return ""
}
