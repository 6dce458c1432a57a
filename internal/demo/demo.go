// Package demo is the client side of `planls demo`: a real LSP session
// against a `planls serve` child process, printed as an editor would show
// it. It is a client of the server, so it lives outside package lsp.
package demo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/planls/planls/core"
)

// Options configure Demo.
type Options struct {
	Plan     []byte   // the plan's markdown
	Server   []string // argv of the server, e.g. {"/path/planls", "serve"}
	Out      io.Writer
	Stderr   io.Writer     // the server's stderr; nil discards it
	Evidence string        // evidence used to complete the first item
	Timeout  time.Duration // bound on each wait; 0 means 10 s
}

// Demo runs a real LSP session against a child server process in a temp
// workspace holding a copy of the plan, and prints what an editor would show:
// the initialize summary, the diagnostics before approval, approval through
// the "Approve plan" code action, one line per open item, the code actions on
// the first item, its completion with evidence, and the diagnostics after.
// It returns an error when the session did not behave as expected.
func Demo(ctx context.Context, o Options) error {
	if o.Timeout == 0 {
		o.Timeout = 10 * time.Second
	}
	if o.Evidence == "" {
		o.Evidence = "planls demo: checked by hand"
	}
	dir, err := os.MkdirTemp("", "planls-demo-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	plan := filepath.Join(dir, "PLAN.md")
	if err := os.WriteFile(plan, o.Plan, 0o644); err != nil {
		return err
	}
	c, err := startDemoClient(ctx, o, dir)
	if err != nil {
		return err
	}
	defer c.kill()
	return c.script(dir, plan, o)
}

type demoClient struct {
	cmd     *exec.Cmd
	conn    jsonrpc2.Conn
	timeout time.Duration
	w       io.Writer

	mu      sync.Mutex
	changed chan struct{}
	diags   map[string][]protocol.Diagnostic
	msgs    []string
}

func startDemoClient(ctx context.Context, o Options, dir string) (*demoClient, error) {
	if len(o.Server) == 0 {
		return nil, errors.New("demo: no server command")
	}
	cmd := exec.CommandContext(ctx, o.Server[0], o.Server[1:]...)
	cmd.Dir = dir
	cmd.Stderr = o.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("demo: starting %s: %w", o.Server[0], err)
	}
	c := &demoClient{cmd: cmd, timeout: o.Timeout, w: o.Out, changed: make(chan struct{}), diags: map[string][]protocol.Diagnostic{}}
	c.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(pipes{in: stdout, out: stdin}))
	c.conn.Go(ctx, c.handle)
	return c, nil
}

func (c *demoClient) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	c.mu.Lock()
	switch req.Method() {
	case "textDocument/publishDiagnostics":
		var p protocol.PublishDiagnosticsParams
		if json.Unmarshal(req.Params(), &p) == nil {
			c.diags[string(p.URI)] = p.Diagnostics
		}
	case "window/showMessage":
		var p protocol.ShowMessageParams
		if json.Unmarshal(req.Params(), &p) == nil {
			c.msgs = append(c.msgs, p.Message)
		}
	}
	close(c.changed)
	c.changed = make(chan struct{})
	c.mu.Unlock()
	if _, ok := req.(*jsonrpc2.Call); ok {
		return reply(ctx, nil, nil)
	}
	return nil
}

func (c *demoClient) call(method string, params, result any) error {
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	_, err := c.conn.Call(ctx, method, params, result)
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	return nil
}

// waitDiags waits until uri's diagnostics satisfy ok.
func (c *demoClient) waitDiags(uri, what string, ok func([]protocol.Diagnostic) bool) ([]protocol.Diagnostic, error) {
	deadline := time.After(c.timeout)
	for {
		c.mu.Lock()
		d, seen := c.diags[uri]
		ch := c.changed
		c.mu.Unlock()
		if seen && ok(d) {
			return d, nil
		}
		select {
		case <-ch:
		case <-deadline:
			return d, fmt.Errorf("demo: timed out waiting for %s", what)
		}
	}
}

func (c *demoClient) kill() {
	_ = c.conn.Close()
	if c.cmd.ProcessState == nil {
		_ = c.cmd.Process.Kill()
		_ = c.cmd.Wait()
	}
}

func (c *demoClient) printDiags(ds []protocol.Diagnostic) {
	if len(ds) == 0 {
		fmt.Fprintln(c.w, "  (none)")
	}
	for _, d := range ds {
		fmt.Fprintf(c.w, "  PLAN.md:%d:%d  %s\n", d.Range.Start.Line+1, d.Range.Start.Character+1, d.Message)
	}
}

// firstOf is the first diagnostic with code (the zero one when none has it).
func firstOf(ds []protocol.Diagnostic, code string) protocol.Diagnostic {
	if i := slices.IndexFunc(ds, func(d protocol.Diagnostic) bool { return d.Code == code }); i >= 0 {
		return ds[i]
	}
	return protocol.Diagnostic{}
}

func countOf(ds []protocol.Diagnostic, code string) int {
	n := 0
	for _, d := range ds {
		if d.Code == code {
			n++
		}
	}
	return n
}

func (c *demoClient) script(dir, plan string, o Options) error {
	w := c.w
	root, u := string(uri.File(dir)), string(uri.File(plan))
	var init struct {
		Capabilities struct {
			PositionEncoding       string `json:"positionEncoding"`
			ExecuteCommandProvider struct {
				Commands []string `json:"commands"`
			} `json:"executeCommandProvider"`
		} `json:"capabilities"`
		ServerInfo struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"serverInfo"`
	}
	err := c.call("initialize", map[string]any{
		"processId": os.Getpid(), "rootUri": root,
		"workspaceFolders": []any{map[string]any{"uri": root, "name": "demo"}},
		"capabilities": map[string]any{"textDocument": map[string]any{
			"publishDiagnostics": map[string]any{},
			"codeAction":         map[string]any{"codeActionLiteralSupport": map[string]any{"codeActionKind": map[string]any{"valueSet": []string{"quickfix", "source"}}}},
		}},
	}, &init)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "planls demo: a real LSP session with %s over stdio\n", strings.Join(shortCommand(o.Server), " "))
	fmt.Fprintf(w, "workspace: %s\n\n", dir)
	fmt.Fprintf(w, "initialize: %s %s, positions in %s, commands: %s\n\n", init.ServerInfo.Name, init.ServerInfo.Version,
		init.Capabilities.PositionEncoding, strings.Join(init.Capabilities.ExecuteCommandProvider.Commands, ", "))
	if err := c.conn.Notify(context.Background(), "initialized", map[string]any{}); err != nil {
		return err
	}
	if err := c.conn.Notify(context.Background(), "textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": u, "languageId": "markdown", "version": 1, "text": string(o.Plan)}}); err != nil {
		return err
	}
	ds, err := c.waitDiags(u, "the diagnostics before approval", func(d []protocol.Diagnostic) bool { return countOf(d, "plan-not-approved") == 1 })
	if err != nil {
		return err
	}
	fmt.Fprintln(w, "Before approval:")
	c.printDiags(ds)
	title := firstOf(ds, "plan-not-approved")
	acts, err := c.actions(u, title.Range, []protocol.Diagnostic{title})
	if err != nil {
		return err
	}
	approve := pick(acts, func(a *protocol.CodeAction) bool { return a.Title == "Approve plan" })
	if approve == nil {
		return fmt.Errorf("demo: no \"Approve plan\" code action (got %s)", actionTitles(acts))
	}
	fmt.Fprintf(w, "\nCode action %q → %s\n", approve.Title, approve.Command.Command)
	env, err := c.run(approve.Command)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "  %s\n", firstLine(env))
	ds, err = c.waitDiags(u, "the diagnostics after approval", func(d []protocol.Diagnostic) bool { return countOf(d, "plan-not-approved") == 0 })
	if err != nil {
		return err
	}
	open := countOf(ds, "open-item")
	if open == 0 {
		c.printDiags(ds)
		return errors.New("demo: the approved plan has no open items (no top-level bullets under a work heading?)")
	}
	fmt.Fprintf(w, "\nAfter approval: %s\n", core.CountNoun(open, "open plan item"))
	c.printDiags(ds)
	first := firstOf(ds, "open-item")
	acts, err = c.actions(u, first.Range, []protocol.Diagnostic{first})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nCode actions on line %d:\n", first.Range.Start.Line+1)
	for _, a := range acts {
		fmt.Fprintf(w, "  %s  (%s)\n", a.Title, a.Command.Command)
	}
	complete := pick(acts, func(a *protocol.CodeAction) bool { return strings.HasPrefix(a.Title, "Complete #") })
	if complete == nil {
		return fmt.Errorf("demo: no Complete action on the first item (got %s)", actionTitles(acts))
	}
	args, _ := json.Marshal(complete.Command.Arguments)
	var arg []map[string]any
	if err := json.Unmarshal(args, &arg); err != nil || len(arg) != 1 {
		return fmt.Errorf("demo: unexpected arguments %s", args)
	}
	arg[0]["evidence"] = o.Evidence
	fmt.Fprintf(w, "\nplanls.complete with evidence %q:\n", o.Evidence)
	env, err = c.run(&protocol.Command{Command: "planls.complete", Arguments: []any{arg[0]}})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "  %s\n", firstLine(env))
	ds, err = c.waitDiags(u, "the item to close", func(d []protocol.Diagnostic) bool { return countOf(d, "open-item") == open-1 })
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nAfter: %s\n", core.CountNoun(open-1, "open plan item"))
	c.printDiags(ds)
	if err := c.call("shutdown", nil, nil); err != nil {
		return err
	}
	_ = c.conn.Notify(context.Background(), "exit", nil)
	waited := make(chan error, 1)
	go func() { waited <- c.cmd.Wait() }()
	select {
	case err := <-waited:
		if err != nil {
			return fmt.Errorf("demo: server exit: %w", err)
		}
	case <-time.After(c.timeout):
		return errors.New("demo: server did not exit")
	}
	fmt.Fprintln(w, "\nok: the server approved the plan, reported each open item, and closed one with evidence")
	return nil
}

func (c *demoClient) actions(u string, r protocol.Range, ds []protocol.Diagnostic) ([]protocol.CodeAction, error) {
	var acts []protocol.CodeAction
	err := c.call("textDocument/codeAction", protocol.CodeActionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: protocol.DocumentURI(u)},
		Range:        r, Context: protocol.CodeActionContext{Diagnostics: ds},
	}, &acts)
	return acts, err
}

func (c *demoClient) run(cmd *protocol.Command) (string, error) {
	var env struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
		Details struct {
			Error string `json:"error"`
		} `json:"details"`
	}
	if err := c.call("workspace/executeCommand", protocol.ExecuteCommandParams{Command: cmd.Command, Arguments: cmd.Arguments}, &env); err != nil {
		return "", err
	}
	if env.Details.Error != "" {
		return "", fmt.Errorf("demo: %s refused: %s", cmd.Command, env.Details.Error)
	}
	if len(env.Content) == 0 {
		return "", fmt.Errorf("demo: %s returned no content", cmd.Command)
	}
	return env.Content[0].Text, nil
}

// pick is the first of acts with a command that is, by ok, the one wanted.
func pick(acts []protocol.CodeAction, ok func(*protocol.CodeAction) bool) *protocol.CodeAction {
	for i := range acts {
		if acts[i].Command != nil && ok(&acts[i]) {
			return &acts[i]
		}
	}
	return nil
}

func actionTitles(acts []protocol.CodeAction) string {
	var t []string
	for _, a := range acts {
		t = append(t, fmt.Sprintf("%q", a.Title))
	}
	if len(t) == 0 {
		return "none"
	}
	return strings.Join(t, ", ")
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// shortCommand is cmd with its program shown relative to the working
// directory when it lies below it (bin/planls rather than /home/.../bin/planls),
// as a person would have typed it.
func shortCommand(cmd []string) []string {
	if len(cmd) == 0 || !filepath.IsAbs(cmd[0]) {
		return cmd
	}
	wd, err := os.Getwd()
	if err != nil {
		return cmd
	}
	rel, err := filepath.Rel(wd, cmd[0])
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return cmd
	}
	return append([]string{rel}, cmd[1:]...)
}

// pipes joins the child's stdout and stdin into one connection; Close
// closes both.
type pipes struct {
	in  io.ReadCloser
	out io.WriteCloser
}

func (p pipes) Read(b []byte) (int, error)  { return p.in.Read(b) }
func (p pipes) Write(b []byte) (int, error) { return p.out.Write(b) }
func (p pipes) Close() error                { return errors.Join(p.in.Close(), p.out.Close()) }
