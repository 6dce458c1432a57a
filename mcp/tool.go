package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/planls/planls/core"
	"github.com/planls/planls/store"
	"github.com/planls/planls/verify"
)

// actor names the MCP server in the journal and in lock-holder messages.
const actor = "mcp"

// handler serves the `todo` tool for every session of one server.
type handler struct {
	opts Options
	log  *slog.Logger

	// callMu runs one call at a time across this server's sessions, so
	// they queue here instead of racing for the state lock inside one
	// process. (Within a session, the stdio guard already keeps arrival order.)
	callMu   sync.Mutex
	projects map[string]*project // by root, guarded by callMu

	rootsMu sync.Mutex
	roots   map[*sdk.ServerSession]string // resolved root per session
}

// call is the tools/call handler. Every outcome, including a missing
// project or an unreadable state file, is a tool result (isError for
// failures) so the agent sees the message; it never returns a protocol error.
func (h *handler) call(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	args := json.RawMessage(bytes.TrimSpace(req.Params.Arguments))
	if len(args) == 0 || string(args) == "null" {
		args = json.RawMessage("{}")
	}
	call := core.Decode(args)
	h.callMu.Lock()
	defer h.callMu.Unlock()

	structured := h.opts.Structured
	root, ask, err := h.rootFor(ctx, req)
	if ask != nil {
		return ask, nil
	}
	if err != nil {
		h.log.Warn("todo call without a project", "err", err)
		return toolResult(failure(call, err), structured), nil
	}
	res, err := h.apply(ctx, root, call)
	if err != nil {
		h.log.Warn("todo call failed", "root", root, "err", err)
		return toolResult(failure(call, err), structured), nil
	}
	res.Notices = append(res.Notices, verify.CompletionWarnings(ctx, root, res, verify.ToolFix)...)
	return toolResult(res, structured), nil
}

// apply runs one call on root's state. A read-only server, and any call
// that only reads (list, get), reads the state without the lock and never
// calls the store's writer: it cannot write or block on anything whatever
// core decides, and a reader never waits behind another process's write. A
// write waiting for the lock ends with ctx (the client cancelled the call,
// or the session ended). callMu must be held.
func (h *handler) apply(ctx context.Context, root string, req core.Request) (core.Result, error) {
	p := h.project(root)
	opts := core.Options{
		ReadOnly:    h.opts.ReadOnly,
		NoDeleteAll: h.opts.NoDeleteAll,
		ProjectID:   p.id,
		// List pages for agents: one line a row unless fields asks for
		// more, every field cut, the page within pageBytes (listpage.go).
		CompactRows: true,
		FieldBytes:  fieldBytes,
	}
	if h.opts.ReadOnly || req.ReadsOnly() {
		state, err := p.store.Read()
		if err != nil {
			return core.Result{}, err
		}
		return listPage(state, req, opts), nil
	}
	// A batch that changes the state and lists has its pages cut to the
	// budget like a lone list's (listPage is pure).
	return p.store.Apply(ctx, func(st *core.State) core.Result { return listPage(st, req, opts) })
}

// project is one workspace root's store and id, opened at its first call.
type project struct {
	store *store.Store
	id    string // store.ProjectID: it resolves symlinks, a few system calls
}

// project returns root's project, opening it at the first call: one Store
// per root lets its commits skip what it already checked (store.Store).
// callMu must be held.
func (h *handler) project(root string) *project {
	if p := h.projects[root]; p != nil {
		return p
	}
	if h.projects == nil {
		h.projects = map[string]*project{}
	}
	p := &project{store: store.Open(root, actor), id: store.ProjectID(root)}
	h.projects[root] = p
	return p
}

// failure shapes an out-of-band error (no project, lock timeout, a state
// file that does not parse) like core's in-band rejections: "Error: <msg>"
// and details.error, with no tasks since the state is unknown.
func failure(req core.Request, err error) core.Result {
	return core.Rejection(nil, req.Action(), req.Params(), err.Error())
}

// toolResult maps the core result onto MCP: content stays text content (the
// seed's text, what the model reads), details (only the tasks the call is
// about) goes to _meta[DetailsKey], or to structuredContent instead when
// withStructured, and a rejected call is isError so the agent reads it
// as a failure.
func toolResult(res core.Result, withStructured bool) *sdk.CallToolResult {
	env := withEvidenceNotes(res)
	content := make([]sdk.Content, 0, len(env.Content))
	for _, c := range env.Content {
		content = append(content, &sdk.TextContent{Text: c.Text})
	}
	d := structured(res)
	out := &sdk.CallToolResult{Content: content, IsError: env.IsError()}
	if withStructured {
		out.StructuredContent = d
	} else {
		out.Meta = sdk.Meta{DetailsKey: d}
	}
	return out
}
