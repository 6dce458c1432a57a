package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/planls/planls/core"
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
		return s.cmdApprove(f, a)
	case "planls.todo":
		if len(a.Params) == 0 || string(a.Params) == "null" {
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, `planls.todo needs {"params": {<todo tool params>}}`)
		}
		return s.callStore(f, a.Params)
	}
	sc, ok := statusCmds[p.Command]
	if !ok {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "unknown command %q (known: %s)", p.Command, strings.Join(commands, ", "))
	}
	return s.cmdStatus(r, f, p.Command, a, sc)
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
	f := s.folderFor(path, true)
	return f, nil
}

func (s *server) cmdStatus(r *request, f *folder, name string, a cmdArgs, sc statusCmd) (any, error) {
	if a.ID <= 0 {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, `%s needs {"id": <plan item id>}`, name)
	}
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
	value := ""
	switch sc.field {
	case "evidence":
		if a.Evidence != nil {
			value = *a.Evidence
		}
	case "reason":
		if a.Reason != nil {
			value = *a.Reason
		}
	}
	params := map[string]any{"action": "update", "id": a.ID, "status": string(sc.status)}
	if sc.field == "" || strings.TrimSpace(value) != "" {
		if sc.field != "" {
			params[sc.field] = value
		}
		return s.callStore(f, mustJSON(params))
	}
	// window/showMessageRequest is a base request every client answers
	// (LSP 3.17 §window): it is sent whether or not the client declares
	// window.showMessage, which eglot and ALE never do.
	suggestions := s.suggestions(f, st, sc.field)
	if len(suggestions) == 0 {
		s.notify("window/showMessage", protocol.ShowMessageParams{Type: protocol.MessageTypeWarning, Message: howTo(name, a.ID, sc.field)})
		return s.callStore(f, mustJSON(params))
	}
	go func() {
		defer func() {
			if p := recover(); p != nil {
				s.log.Error("command panic", "command", name, "panic", fmt.Sprint(p))
				r.answer(nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "internal error in %s: %v", name, p))
			}
		}()
		v, ok, err := s.ask(r.ctx, t, sc.field, suggestions)
		switch {
		case ok:
			params[sc.field] = v
		case r.ctx.Err() != nil:
			r.answer(nil, r.ctx.Err()) // $/cancelRequest while the prompt was open
			return
		case err != nil:
			// The client cannot prompt: say how to pass the value instead.
			s.notify("window/showMessage", protocol.ShowMessageParams{Type: protocol.MessageTypeWarning, Message: howTo(name, a.ID, sc.field)})
		}
		res, err := s.callStore(f, mustJSON(params))
		r.answer(res, err)
	}()
	return nil, errDetached
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

// suggestions are the values offered for evidence or a reason: the current
// commit ("abc1234 subject") and the last value recorded in the state.
func (s *server) suggestions(f *folder, st *core.State, field string) []string {
	head := ""
	if field == "evidence" && s.opts.gitHead != nil {
		head = s.opts.gitHead(f.root)
	}
	return suggestionsFrom(head, st, field)
}

// suggestionsFrom lists head (when field is "evidence" and head is not
// empty), then the last value of field recorded in st when it differs.
func suggestionsFrom(head string, st *core.State, field string) []string {
	var out []string
	if field == "evidence" && head != "" {
		out = append(out, head)
	}
	var last *core.Task
	for i := range st.Tasks {
		t := &st.Tasks[i]
		v := t.Evidence
		if field == "reason" {
			v = t.Reason
		}
		if v != "" && (last == nil || t.UpdatedAt.After(last.UpdatedAt)) {
			last = t
		}
	}
	if last != nil {
		v := last.Evidence
		if field == "reason" {
			v = last.Reason
		}
		if len(out) == 0 || out[0] != v {
			out = append(out, v)
		}
	}
	return out
}

// gitHead returns `git log -1 --format='%h %s'` in dir, or "" (no git, no
// repository, no commit, or slower than two seconds).
func gitHead(dir string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "-C", dir, "log", "-1", "--format=%h %s")
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0")
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

func (s *server) cmdApprove(f *folder, a cmdArgs) (any, error) {
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
		dirty = err != nil || !sameBytes(disk, d.text)
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
	res, err := f.store.Approve(planPath, core.Options{})
	if err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "approve failed: %v", err)
	}
	if res.Envelope.IsError() {
		// The store refuses plans that would silently close items (an emptied
		// or binary file): the person who clicked must see why.
		s.notify("window/showMessage", protocol.ShowMessageParams{Type: protocol.MessageTypeError, Message: res.Envelope.Text()})
	}
	s.after(f, res)
	return res.Envelope, nil
}

// callStore runs one todo tool call for folder f and republishes at once, so
// the change shows before (and without) the file watcher's event, which then
// finds the same bytes and does nothing (B07).
func (s *server) callStore(f *folder, params json.RawMessage) (any, error) {
	res, err := f.store.Call(params, core.Options{})
	if err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "%v", err)
	}
	s.after(f, res)
	return res.Envelope, nil
}

func (s *server) after(f *folder, res core.Result) {
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
	s.refresh(f, false)
}

func findTask(st *core.State, id int) *core.Task {
	for i := range st.Tasks {
		if st.Tasks[i].ID == id {
			return &st.Tasks[i]
		}
	}
	return nil
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only maps of strings and ints reach here
	}
	return b
}
