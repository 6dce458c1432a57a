package lsp

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/planls/planls/core"
	"github.com/planls/planls/internal/gitclone"
	"github.com/planls/planls/planparse"
	"github.com/planls/planls/store"
	"github.com/planls/planls/verify"
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
func (s *server) executeCommand(r *request, p *protocol.ExecuteCommandParams) (any, error) {
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
// or reason it needs when a.Evidence / a.Reason is missing. Reopening a
// completed item (or any reopen given a reason) is a person's correction,
// core.Reopen, and needs a reason.
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
	if name == "planls.reopen" && (t.Status == core.Completed || given(a.Reason)) {
		return s.reopen(ctx, f, t, a)
	}
	status := sc.status
	op := core.UpdateOp{ID: a.ID, Status: &status}
	value, slot := a.Evidence, &op.Evidence
	if sc.field == "reason" {
		value, slot = a.Reason, &op.Reason
	}
	if sc.field == "" {
		return s.update(ctx, f, op)
	}
	if given(value) {
		*slot = value
		return s.update(ctx, f, op)
	}
	var head headCommit
	if sc.field == "evidence" {
		// The background refresh's HEAD is what the code actions offered;
		// git is asked here only before that refresh has landed.
		s.mu.Lock()
		plan, known := f.relPath(f.planPath), f.headKnown
		head = f.head
		s.mu.Unlock()
		if !known {
			hctx, cancel := context.WithTimeout(ctx, promptHeadTimeout)
			head = s.gitHeadOf(hctx, f.root, plan)
			cancel()
		}
	}
	if v, ok, err := s.prompt(ctx, t, name, sc.field, suggestionsFrom(head, st, t, sc.field)); ok {
		*slot = &v
	} else if ctx.Err() != nil {
		return nil, err
	}
	return s.update(ctx, f, op) // unanswered: the seed's error names the missing field
}

// reopen runs core.Reopen on t with a.Reason, asking for it when missing;
// who reopens is the clone's git user (gitclone.Person).
func (s *server) reopen(ctx context.Context, f *folder, t *core.Task, a cmdArgs) (any, error) {
	reason := ""
	if given(a.Reason) {
		reason = *a.Reason
	} else if v, ok, err := s.prompt(ctx, t, "planls.reopen", "reopen", nil); ok {
		reason = v
	} else if ctx.Err() != nil {
		return nil, err
	}
	op := core.ReopenOp{ID: t.ID, Reason: reason, By: gitclone.Person(f.root)}
	return s.commit(ctx, f, func(ctx context.Context) (core.Result, error) {
		return f.store.Reopen(ctx, op, core.Options{})
	})
}

// given reports a value the user passed: present and not blank.
func given(v *string) bool { return v != nil && strings.TrimSpace(*v) != "" }

// prompt asks the user for field ("evidence", "reason", or "reopen": the
// reason to reopen) of task t through window/showMessageRequest, a base
// request every client may answer (LSP 3.17 §window): it is sent whether or
// not the client declares window.showMessage (eglot answers it and
// declares nothing), and also with no suggestion to pick, when the message
// says how to pass the value. ok is false when the user picked nothing;
// then, or when the client failed, a window/showMessage says how to pass
// it. err is ctx's error after $/cancelRequest.
func (s *server) prompt(ctx context.Context, t *core.Task, name, field string, suggestions []string) (string, bool, error) {
	v, ok, err := s.ask(ctx, t, name, field, suggestions)
	switch {
	case ok:
		return v, true, nil
	case ctx.Err() != nil:
		return "", false, ctx.Err()
	case err != nil || len(suggestions) > 0:
		// The client cannot prompt, or the user dismissed the choices.
		s.notify("window/showMessage", protocol.ShowMessageParams{Type: protocol.MessageTypeWarning, Message: howTo(name, t.ID, field)})
	}
	return "", false, nil
}

// howTo tells a client without prompts how to pass the missing value.
func howTo(cmd string, id int, field string) string {
	what := "the check that proves it (command + result, commit, or test name)"
	switch field {
	case "reason":
		what = "why it is descoped"
	case "reopen":
		field, what = "reason", "why it is not done"
	}
	return fmt.Sprintf(`%s needs %q: run it again with the argument {"id": %d, %q: "<%s>"}`, cmd, field, id, field, what)
}

// ask offers suggestions through window/showMessageRequest; ok is false when
// the user dismissed it (err nil), the client failed (err set), or the
// request was cancelled (ctx's error). With no suggestion the message says
// how to pass the value, and the request only informs.
func (s *server) ask(ctx context.Context, t *core.Task, name, field string, suggestions []string) (string, bool, error) {
	kind := map[string]string{"evidence": "Evidence for", "reason": "Reason to defer", "reopen": "Reason to reopen"}[field]
	// As people read it: no markdown, no colon ending a lead-in.
	subject := strings.TrimRight(planparse.Display(t.Subject, t.PlanText), ": ")
	msg := fmt.Sprintf("%s #%d %s (pick one, or cancel and pass %q)", kind, t.ID, subject, cmp.Or(map[string]string{"reopen": "reason"}[field], field))
	if len(suggestions) == 0 {
		msg = fmt.Sprintf("%s #%d %s: nothing to suggest. %s", kind, t.ID, subject, howTo(name, t.ID, field))
	}
	params := protocol.ShowMessageRequestParams{Type: protocol.MessageTypeInfo, Message: msg, Actions: []protocol.MessageActionItem{}}
	for _, sug := range suggestions {
		params.Actions = append(params.Actions, protocol.MessageActionItem{Title: sug})
	}
	var picked *protocol.MessageActionItem
	if err := s.callClient(ctx, s.askBound(), "window/showMessageRequest", params, &picked); err != nil {
		s.log.Info("showMessageRequest failed", "err", err)
		return "", false, err
	}
	if picked == nil || strings.TrimSpace(picked.Title) == "" || len(suggestions) == 0 {
		return "", false, nil
	}
	return picked.Title, true, nil
}

// suggestionsFrom lists the values offered as field ("evidence" or
// "reason") of task t: for evidence only head, the newest commit that
// changes more than the plan, when it was made after t's approval and no
// other task's evidence names it (another item's evidence is never
// offered: it proves that item); for a reason the last deferral reason
// recorded in st. Reopening suggests nothing.
func suggestionsFrom(head headCommit, st *core.State, t *core.Task, field string) []string {
	switch field {
	case "evidence":
		if head.offers(t) && !provesAnother(head, st, t) {
			return []string{head.Line}
		}
	case "reason":
		var last *core.Task
		for i := range st.Tasks {
			u := &st.Tasks[i]
			if u.Reason != "" && (last == nil || u.UpdatedAt.After(last.UpdatedAt)) {
				last = u
			}
		}
		if last != nil {
			return []string{last.Reason}
		}
	}
	return nil
}

// provesAnother reports whether the evidence of a task in st other than t
// (tombstones too) names head's commit: the same commit, abbreviated to
// any length of 7 or more hex digits on either side.
func provesAnother(head headCommit, st *core.State, t *core.Task) bool {
	hash := head.Hash
	if st == nil || hash == "" {
		return false
	}
	for i := range st.Tasks {
		u := &st.Tasks[i]
		if u.ID == t.ID || u.Evidence == "" {
			continue
		}
		// A candidate (1234567 without the word commit) names head when
		// head's id starts with it: head is a commit, so that is the one.
		refs, cands := core.ParseEvidenceCandidates(u.Evidence)
		for _, ref := range append(refs, cands...) {
			if ref.Kind == core.RefCommit && (strings.HasPrefix(ref.Commit, hash) || strings.HasPrefix(hash, ref.Commit)) {
				return true
			}
		}
	}
	return false
}

// promptHeadTimeout bounds the git lookup of HEAD while a user waits for
// the evidence prompt (only before the first background refresh).
const promptHeadTimeout = 2 * time.Second

// gitHeadOf is opts.gitHead for dir and its plan file ("" when there is
// none yet). It waits on git: never call it holding mu.
func (s *server) gitHeadOf(ctx context.Context, dir, plan string) headCommit {
	if s.opts.gitHead == nil {
		return headCommit{}
	}
	return s.opts.gitHead(ctx, dir, plan)
}

// headCommit is a commit offered as evidence: Line is "abc1234 subject"
// ("commit 1234567 subject" when the abbreviated id is all digits or all
// letters, which evidence reads as a commit only after the word commit),
// Hash the abbreviated id, At its committer time; the zero value is no
// commit.
type headCommit struct {
	Line string
	Hash string
	At   time.Time
}

// gitHead returns the newest commit in dir that is some plan item's work
// (not verify.PlanOnly: a commit that only edits the plan or the state, or
// the approval's .gitattributes set-up, proves no plan item, and verify
// would refuse it), among the newest few that change a file other than
// plan and .planls/; or the zero headCommit: no git, no repository, no
// such commit, or ctx ended first. The caller bounds the wait: a fixed
// bound here would drop the commit on a busy machine, where git can take
// seconds, though nobody waits on the background refresh.
func gitHead(ctx context.Context, dir, plan string) headCommit {
	args := append([]string{"-C", dir, "log", "-8", "--format=%H %h %ct %s", "--", "."}, verify.NotWork(plan)...)
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0")
	out, err := cmd.Output()
	if err != nil || strings.TrimSpace(string(out)) == "" {
		return headCommit{}
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	var ids []string
	for _, l := range lines {
		id, _, _ := strings.Cut(l, " ")
		ids = append(ids, id)
	}
	skip := verify.PlanOnly(ctx, dir, plan, ids)
	for i, l := range lines {
		if skip[ids[i]] {
			continue
		}
		fields := strings.SplitN(l, " ", 4)
		if len(fields) < 3 {
			return headCommit{}
		}
		n, err := strconv.ParseInt(fields[2], 10, 64)
		if err != nil {
			return headCommit{}
		}
		subject := ""
		if len(fields) == 4 {
			subject = fields[3]
		}
		return headCommit{Line: offeredLine(fields[1], subject), Hash: fields[1], At: time.Unix(n, 0).UTC()}
	}
	return headCommit{}
}

// offeredLine is the evidence offered for the commit hash (abbreviated)
// with subject: "abc1234 subject", or "commit 1234567 subject" when the
// id is all digits or all letters, which evidence would otherwise read as
// a number or a word (weak evidence).
func offeredLine(hash, subject string) string {
	if !core.MixedHex(hash) {
		hash = "commit " + hash
	}
	return strings.TrimSpace(hash + " " + subject)
}

// offers reports whether c may be offered as the evidence of t: it exists
// and was made after t was approved (git keeps whole seconds), so it can be
// the work that closes t.
func (c headCommit) offers(t *core.Task) bool {
	return c.Line != "" && !c.At.Before(t.CreatedAt.Truncate(time.Second))
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
		before, _ := f.store.Read()
		res, err := f.store.Approve(ctx, planPath, core.Options{}, store.ApproveOptions{})
		if err != nil {
			return res, fmt.Errorf("approve failed: %w", err)
		}
		if res.Changed && before != nil && before.Plan == nil {
			s.setUpMerging(f.root)
		}
		if res.Envelope.IsError() {
			// The store refuses plans that would silently close items (an
			// emptied or binary file): the person who clicked must see why.
			s.notify("window/showMessage", protocol.ShowMessageParams{Type: protocol.MessageTypeError, Message: res.Envelope.Text()})
		}
		return res, nil
	})
}

// setUpMerging does after a first approval what the CLI's does: git merges
// .planls/ by task id from then on, and the user is told once, in one
// message, what changed in the clone (gitclone.FirstApprovalNote).
func (s *server) setUpMerging(root string) {
	note, failed := gitclone.FirstApprovalNote(root)
	typ := protocol.MessageTypeInfo
	if failed {
		typ = protocol.MessageTypeWarning
	}
	if note != "" {
		s.notify("window/showMessage", protocol.ShowMessageParams{Type: typ, Message: note})
	}
}

// update runs core.Do(op) on folder f's state; see commit.
func (s *server) update(ctx context.Context, f *folder, op core.UpdateOp) (any, error) {
	return s.commit(ctx, f, func(ctx context.Context) (core.Result, error) {
		return f.store.Apply(ctx, func(st *core.State) core.Result { return core.Do(st, op, core.Options{}) })
	})
}

// commit runs one store operation for folder f and republishes at once, so
// the change shows before (and without) the file watcher's event, which then
// finds the same bytes and does nothing. The reply is the todo
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
		msg := n.Text
		if n.Code == core.DeferredCode && n.Plain != "" {
			// The person deferred it here: their confirmation, in their
			// words (the seed's notice is for agents). The planls plugins
			// show it as the command's one message (docs/PROTOCOL.md).
			typ, msg = protocol.MessageTypeInfo, "planls: "+n.Plain
		}
		s.notify("window/showMessage", protocol.ShowMessageParams{Type: typ, Message: msg})
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
