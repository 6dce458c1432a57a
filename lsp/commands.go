package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/planls/planls/core"
	"github.com/planls/planls/store"
)

// cmdArgs is the one argument object of every planls.* command
// (docs/PROTOCOL.md "Commands").
type cmdArgs struct {
	ID       int             `json:"id"`
	Evidence *string         `json:"evidence"`
	Reason   *string         `json:"reason"`
	URI      string          `json:"uri"`
	Params   json.RawMessage `json:"params"`
}

// statusCmd describes the commands that set an item's status.
type statusCmd struct {
	status core.Status
	field  string // "evidence", "reason" or ""
}

var statusCmds = map[string]statusCmd{
	"planls.complete": {core.Completed, "evidence"},
	"planls.defer":    {core.Deferred, "reason"},
	"planls.start":    {core.InProgress, ""},
	"planls.reopen":   {core.Pending, ""},
}

// executeCommand runs a planls.* command. Every state change goes through
// store.Store.Call / Approve (actor "lsp"); the reply is the todo envelope.
// The command runs off the request worker (detach): it may wait on the
// store's lock, on git and on the user.
func (s *server) executeCommand(r *request) (any, error) {
	var p protocol.ExecuteCommandParams
	if err := decode(r.params, &p); err != nil {
		return nil, err
	}
	var a cmdArgs
	if len(p.Arguments) > 0 {
		raw, _ := json.Marshal(p.Arguments[0])
		if err := json.Unmarshal(raw, &a); err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s takes one argument object: %v", p.Command, err)
		}
	}
	s.mu.Lock()
	f, err := s.folderOfURI(a.URI)
	s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	switch p.Command {
	case "planls.approve":
		return s.detach(r, func(ctx context.Context) (any, error) { return s.cmdApprove(ctx, f, a) })
	case "planls.todo":
		if len(a.Params) == 0 || string(a.Params) == "null" {
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, `planls.todo needs {"params": {<todo tool params>}}`)
		}
		call := func(ctx context.Context) (core.Result, error) { return f.store.Call(ctx, a.Params, core.Options{}) }
		return s.detach(r, func(ctx context.Context) (any, error) { return s.commit(ctx, f, call) })
	}
	sc, ok := statusCmds[p.Command]
	if !ok {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "unknown command %q (known: %s)", p.Command, strings.Join(commands, ", "))
	}
	if a.ID <= 0 {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, `%s needs {"id": <plan item id>}`, p.Command)
	}
	return s.detach(r, func(ctx context.Context) (any, error) { return s.cmdStatus(ctx, f, p.Command, a, sc) })
}

// detach runs fn on a group goroutine and answers r with its result, so the
// request worker goes on at once. fn's context ends with $/cancelRequest of
// r and at shutdown; a panic in fn is an InternalError reply.
func (s *server) detach(r *request, fn func(ctx context.Context) (any, error)) (any, error) {
	started := s.grp.goFn(func(gctx context.Context) {
		ctx, cancel := context.WithCancel(r.ctx)
		defer cancel()
		defer context.AfterFunc(gctx, cancel)()
		defer r.recoverPanic(s.log)
		r.answer(fn(ctx))
	})
	if !started {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "server is shut down")
	}
	return nil, errDetached
}

// folderOfURI resolves the optional uri argument (caller holds mu).
func (s *server) folderOfURI(u string) (*folder, error) {
	if u == "" {
		switch len(s.folders) {
		case 0:
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "no workspace folder: pass \"uri\"")
		case 1:
			return s.folders[0], nil
		}
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "several workspace folders: pass \"uri\" (a file or folder in the workspace)")
	}
	path, err := fileOf(u)
	if err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "uri %q: %v", u, err)
	}
	return s.folderFor(path, true), nil
}

// cmdStatus sets the status of item a.ID, asking the user for the evidence
// or reason it needs when a.Evidence / a.Reason is missing and the client
// answers a prompt.
func (s *server) cmdStatus(ctx context.Context, f *folder, name string, a cmdArgs, sc statusCmd) (any, error) {
	// The item may have changed since the action was offered: look it up again.
	st, err := f.store.Read()
	if err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "cannot read the state: %v", err)
	}
	t := findTask(st, a.ID)
	if t == nil || t.Status == core.Deleted {
		msg := fmt.Sprintf("plan item #%d is gone: the plan or the state changed since this action was offered; nothing was done", a.ID)
		s.notify("window/showMessage", protocol.ShowMessageParams{Type: protocol.MessageTypeError, Message: msg})
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, msg)
	}
	status := sc.status
	op := core.UpdateOp{ID: a.ID, Status: &status}
	given, slot := a.Evidence, &op.Evidence
	if sc.field == "reason" {
		given, slot = a.Reason, &op.Reason
	}
	if sc.field == "" {
		return s.update(ctx, f, op)
	}
	if given != nil && strings.TrimSpace(*given) != "" {
		*slot = given
		return s.update(ctx, f, op)
	}
	// window/showMessageRequest is a base request every client answers
	// (LSP 3.17 §window): it is sent whether or not the client declares
	// window.showMessage, which eglot and ALE never do.
	head := ""
	if sc.field == "evidence" {
		head = s.gitHeadOf(ctx, f.root)
	}
	suggestions := suggestionsFrom(head, st, sc.field)
	if len(suggestions) == 0 {
		s.notify("window/showMessage", protocol.ShowMessageParams{Type: protocol.MessageTypeWarning, Message: howTo(name, a.ID, sc.field)})
		return s.update(ctx, f, op) // the seed's error names the missing field
	}
	v, ok, err := s.ask(ctx, t, sc.field, suggestions)
	switch {
	case ok:
		*slot = &v
	case ctx.Err() != nil:
		return nil, ctx.Err() // $/cancelRequest while the prompt was open
	case err != nil:
		// The client cannot prompt: say how to pass the value instead.
		s.notify("window/showMessage", protocol.ShowMessageParams{Type: protocol.MessageTypeWarning, Message: howTo(name, a.ID, sc.field)})
	}
	return s.update(ctx, f, op)
}

// howTo tells a client without prompts how to pass the missing value.
func howTo(cmd string, id int, field string) string {
	what := "the check that proves it (command + result, commit, or test name)"
	if field == "reason" {
		what = "why it is descoped"
	}
	return fmt.Sprintf(`%s needs %q: run it again with the argument {"id": %d, %q: "<%s>"}`, cmd, field, id, field, what)
}

// ask offers suggestions through window/showMessageRequest; ok is false when
// the user dismissed it (err nil), the client failed (err set), or the
// request was cancelled (ctx's error).
func (s *server) ask(ctx context.Context, t *core.Task, field string, suggestions []string) (string, bool, error) {
	msg := fmt.Sprintf("Evidence for #%d %s (pick one, or cancel and pass \"evidence\")", t.ID, t.Subject)
	if field == "reason" {
		msg = fmt.Sprintf("Reason to defer #%d %s (pick one, or cancel and pass \"reason\")", t.ID, t.Subject)
	}
	params := protocol.ShowMessageRequestParams{Type: protocol.MessageTypeInfo, Message: msg}
	for _, sug := range suggestions {
		params.Actions = append(params.Actions, protocol.MessageActionItem{Title: sug})
	}
	var picked *protocol.MessageActionItem
	if err := s.callClient(ctx, s.askBound(), "window/showMessageRequest", params, &picked); err != nil {
		s.log.Info("showMessageRequest failed", "err", err)
		return "", false, err
	}
	if picked == nil || strings.TrimSpace(picked.Title) == "" {
		return "", false, nil
	}
	return picked.Title, true, nil
}

// suggestionsFrom lists the values offered for field ("evidence" or
// "reason"): head (the current commit, "abc1234 subject", for evidence,
// when not empty), then the last value of field recorded in st when it
// differs.
func suggestionsFrom(head string, st *core.State, field string) []string {
	var out []string
	if field == "evidence" && head != "" {
		out = append(out, head)
	}
	var last *core.Task
	lastValue := ""
	for i := range st.Tasks {
		t := &st.Tasks[i]
		v := t.Evidence
		if field == "reason" {
			v = t.Reason
		}
		if v != "" && (last == nil || t.UpdatedAt.After(last.UpdatedAt)) {
			last, lastValue = t, v
		}
	}
	if last != nil && (len(out) == 0 || out[0] != lastValue) {
		out = append(out, lastValue)
	}
	return out
}

// gitHeadOf is opts.gitHead for dir ("" without one). It waits on git:
// never call it holding mu.
func (s *server) gitHeadOf(ctx context.Context, dir string) string {
	if s.opts.gitHead == nil {
		return ""
	}
	return s.opts.gitHead(ctx, dir)
}

// gitHead returns `git log -1 --format='%h %s'` in dir, or "" (no git, no
// repository, no commit, slower than two seconds, or ctx ended).
func gitHead(ctx context.Context, dir string) string {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "-C", dir, "log", "-1", "--format=%h %s")
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0")
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

func (s *server) cmdApprove(ctx context.Context, f *folder, a cmdArgs) (any, error) {
	s.mu.Lock()
	planPath := f.planPath
	looked := s.folderSettings(f).PlanFiles
	if a.URI != "" {
		if p, err := fileOf(a.URI); err == nil && isFile(p) && keyOf(p) != f.key {
			planPath = p
		}
	}
	var dirty bool
	if d := s.docs[keyOf(planPath)]; d != nil && planPath != "" {
		disk, err := os.ReadFile(planPath)
		dirty = err != nil || !sameText(disk, d.text)
	}
	s.mu.Unlock()
	if planPath == "" {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "no plan file in %s (looked for %s)", f.root, strings.Join(looked, ", "))
	}
	if dirty {
		msg := fmt.Sprintf("%s has unsaved changes: save it, then approve (the approved plan is the file on disk)", f.relPath(planPath))
		s.notify("window/showMessage", protocol.ShowMessageParams{Type: protocol.MessageTypeWarning, Message: msg})
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, msg)
	}
	return s.commit(ctx, f, func(ctx context.Context) (core.Result, error) {
		res, err := f.store.Approve(ctx, planPath, core.Options{}, store.ApproveOptions{})
		if err != nil {
			return res, fmt.Errorf("approve failed: %w", err)
		}
		if res.Envelope.IsError() {
			// The store refuses plans that would silently close items (an
			// emptied or binary file): the person who clicked must see why.
			s.notify("window/showMessage", protocol.ShowMessageParams{Type: protocol.MessageTypeError, Message: res.Envelope.Text()})
		}
		return res, nil
	})
}

// update runs core.Update(op) on folder f's state; see commit.
func (s *server) update(ctx context.Context, f *folder, op core.UpdateOp) (any, error) {
	return s.commit(ctx, f, func(ctx context.Context) (core.Result, error) {
		return f.store.Apply(ctx, func(st *core.State) core.Result { return core.Update(st, op, core.Options{}) })
	})
}

// commit runs one store operation for folder f and republishes at once, so
// the change shows before (and without) the file watcher's event, which then
// finds the same bytes and does nothing (B07). The reply is the todo
// envelope; an operation that ctx ended (while it waited on the lock) is
// RequestCancelled.
func (s *server) commit(ctx context.Context, f *folder, op func(context.Context) (core.Result, error)) (any, error) {
	res, err := op(ctx)
	if err != nil && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "%v", err)
	}
	for _, n := range res.Notices {
		typ := protocol.MessageTypeInfo
		if n.Level == "warning" {
			typ = protocol.MessageTypeWarning
		}
		s.notify("window/showMessage", protocol.ShowMessageParams{Type: typ, Message: n.Text})
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	f.stateOK = false
	s.reload(f, false)
	return res.Envelope, nil
}

func findTask(st *core.State, id int) *core.Task {
	if i := slices.IndexFunc(st.Tasks, func(t core.Task) bool { return t.ID == id }); i >= 0 {
		return &st.Tasks[i]
	}
	return nil
}
