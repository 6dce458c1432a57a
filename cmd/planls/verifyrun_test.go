package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/parser"
	"go/token"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const shellPkg = "github.com/planls/planls/verify/shell"

// TestOnlyVerifyRunCanRunCommands: the one package that runs evidence
// commands is out of reach of the language server, the MCP server, the
// store and core (their imports, tests excluded), and in the binary only
// verify --run's file imports it.
func TestOnlyVerifyRunCanRunCommands(t *testing.T) {
	for _, pkg := range []string{"../../lsp", "../../mcp", "../../store", "../../core", "../../verify"} {
		out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", pkg).Output()
		if err != nil {
			t.Fatalf("go list %s: %v", pkg, err)
		}
		if strings.Contains(string(out), shellPkg+"\n") {
			t.Errorf("%s depends on %s: it could run commands from the state file", pkg, shellPkg)
		}
	}
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		ast, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range ast.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == shellPkg && f != "verifyrun.go" {
				t.Errorf("%s imports %s: only verify --run (verifyrun.go) may run recorded commands", f, shellPkg)
			}
		}
	}
}

// trapProject is a git repository whose approved plan has a completed item
// whose evidence is a command that, if anything ran it, would leave a file
// (marker) behind.
func trapProject(t *testing.T) (root, marker string) {
	t.Helper()
	root = t.TempDir()
	marker = filepath.Join(root, "ran")
	gitIn(t, root, "init", "-q")
	if err := os.WriteFile(filepath.Join(root, "PLAN.md"), []byte("# Trap\n\n- Build it\n- Ship it\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	planls(t, root, "approve")
	planls(t, root, "todo", "complete", "1", "--evidence", "`touch "+marker+"` passes")
	gitIn(t, root, "add", "-A")
	gitIn(t, root, "commit", "-q", "-m", "Build it")
	return root, marker
}

func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=Ann", "GIT_AUTHOR_EMAIL=ann@example.com",
		"GIT_COMMITTER_NAME=Ann", "GIT_COMMITTER_EMAIL=ann@example.com", "GIT_CONFIG_GLOBAL=/dev/null")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func assertNotRun(t *testing.T, marker, by string) {
	t.Helper()
	if _, err := os.Stat(marker); err == nil {
		t.Fatalf("%s ran a command from the state file", by)
	}
}

// TestRecordedCommandsRunNowhereElse: every way in but verify --run reads
// the trap item (checks, the stop hook, status, doctor, the todo tool from
// the CLI and over MCP, the language server's hover, code actions, plan
// view and commands) and none runs its command.
func TestRecordedCommandsRunNowhereElse(t *testing.T) {
	root, marker := trapProject(t)
	for _, args := range [][]string{
		{"check"}, {"check", "--verify"}, {"check", "--verify", "--format", "json"}, {"status"},
		{"verify"}, {"verify", "1"}, {"verify", "--format", "sarif"}, {"doctor"}, {"todo", "list"}, {"todo", "get", "1"},
	} {
		_ = planlsCmd(root, args...).Run() // exit codes vary; only what ran matters
		assertNotRun(t, marker, "planls "+strings.Join(args, " "))
	}
	hook := planlsCmd(root, "check", "--hook", "claude")
	hook.Stdin = strings.NewReader(`{"cwd":` + strconv.Quote(root) + `}`)
	_ = hook.Run()
	assertNotRun(t, marker, "the stop hook")

	m := startPeer(t, root, "mcp")
	m.initialize(root)
	for i, args := range []string{`{"action":"list"}`, `{"action":"get","id":1}`, `{"action":"list","fields":["all"]}`,
		`{"action":"complete","id":2,"evidence":"` + "`touch " + marker + "` passes" + `"}`} {
		m.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"todo","arguments":%s}}`, i, args))
		m.next()
	}
	assertNotRun(t, marker, "the MCP server")

	l := startPeer(t, root, "serve")
	l.initialize(root)
	plan := filepath.Join(root, "PLAN.md")
	text, _ := os.ReadFile(plan)
	u := (&url.URL{Scheme: "file", Path: plan}).String()
	q, _ := json.Marshal(string(text))
	l.send(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"` + u + `","languageId":"markdown","version":1,"text":` + string(q) + `}}}`)
	for i, req := range []string{
		`"method":"textDocument/hover","params":{"textDocument":{"uri":"` + u + `"},"position":{"line":2,"character":3}}`,
		`"method":"textDocument/codeAction","params":{"textDocument":{"uri":"` + u + `"},"range":{"start":{"line":2,"character":0},"end":{"line":3,"character":0}},"context":{"diagnostics":[]}}`,
		`"method":"planls/plan","params":{"uri":"` + u + `"}`,
		`"method":"textDocument/codeLens","params":{"textDocument":{"uri":"` + u + `"}}`,
		`"method":"textDocument/inlayHint","params":{"textDocument":{"uri":"` + u + `"},"range":{"start":{"line":0,"character":0},"end":{"line":9,"character":0}}}`,
		`"method":"workspace/executeCommand","params":{"command":"planls.reopen","arguments":[{"id":1,"uri":"` + u + `"}]}`,
	} {
		l.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,%s}`, i, req))
		l.next()
	}
	assertNotRun(t, marker, "the language server")

	// verify --run itself, with no terminal to ask on, refuses and says why.
	cmd := planlsCmd(root, "verify", "--run")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err == nil {
		t.Error("verify --run without a terminal succeeded")
	}
	assertNotRun(t, marker, "verify --run without a terminal")
	for _, want := range []string{"#1 Build it: `touch " + marker + "`", "recorded by cli at ", "committed in ", `"Build it" by Ann <ann@example.com>`,
		"no terminal to confirm them on; nothing was run", "--trust-recorded-commands"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("verify --run's listing lacks %q:\n%s", want, stderr.String())
		}
	}
}

// TestVerifyRunConfirmation: on a terminal, verify --run lists the commands
// and runs them only on "y"; stdin is not the terminal, so a pipe saying
// "y" confirms nothing; --trust-recorded-commands runs them unasked.
func TestVerifyRunConfirmation(t *testing.T) {
	if _, err := exec.LookPath("script"); err != nil {
		t.Skip("needs script(1) for a terminal")
	}
	root, marker := trapProject(t)
	onTerminal := func(answer string) string {
		t.Helper()
		cmd := exec.Command("script", "-qec", strconv.Quote(planlsBin)+" verify --run", "/dev/null")
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "PLANLS_ROOT=")
		cmd.Stdin = strings.NewReader(answer)
		out, _ := cmd.CombinedOutput()
		return string(out)
	}
	for _, no := range []string{"n\n", "\n", "yess\n", ""} {
		out := onTerminal(no)
		if !strings.Contains(out, "Run this command? [y/N]") {
			t.Errorf("answer %q: no question:\n%s", no, out)
		}
		assertNotRun(t, marker, fmt.Sprintf("verify --run answered %q", no))
	}
	piped := planlsCmd(root, "verify", "--run")
	piped.Stdin = strings.NewReader("y\n")
	_ = piped.Run()
	assertNotRun(t, marker, "verify --run with y on stdin")

	if out := onTerminal("y\n"); !strings.Contains(out, "plan item #1 verified: command `touch "+marker+"` exited 0 as stated") {
		t.Errorf("answered y:\n%s", out)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Fatal("answered y, and the command did not run")
	}
	os.Remove(marker)
	out := planls(t, root, "verify", "--run", "--trust-recorded-commands")
	if !strings.Contains(out, "verified: command `touch "+marker+"`") {
		t.Errorf("--trust-recorded-commands:\n%s", out)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Fatal("--trust-recorded-commands did not run the command")
	}
}
