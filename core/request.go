package core

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// Request is one `todo` tool call decoded into typed operations (Decode):
// the JSON layer in front of the engine. Run runs it. The zero Request is
// a call with no action.
type Request struct {
	raw   json.RawMessage // the params as sent: details.params and the journal's
	ops   []opCall        // the ops decoded before err
	batch bool            // an `ops` call
	// action is details.action when the call is refused before it runs:
	// the single call's action as sent, or "batch".
	action string
	err    error // the decoding error, after the ops in ops
}

// opCall is one typed op as the engine runs it, with what the JSON layer
// read beside the op's own fields.
type opCall struct {
	op     Op     // nil for an action that is not the tool's
	action string // op.action(), "complete" for an update sent as complete, or the unknown action as sent
	id     int    // the task the call named (for Shown), when hasID
	hasID  bool
	// projectID is the call's project_id, checked against Options.ProjectID.
	projectID *string
	// obj is the call's fields as sent (no nulls), a typed op's as its
	// JSON: precheck's field rules and client_mutation_id's params hash.
	obj map[string]json.RawMessage
	// unconfirmed is a delete_all sent without confirm_delete_all: true.
	unconfirmed bool
}

// has reports whether the call sent key; a typed op sends only its own fields.
func (c *opCall) has(key string) bool { _, ok := c.obj[key]; return ok }

// Decode reads a `todo` tool call's params (an `action` with its fields,
// or `ops`) into typed operations, checking every field's type (the seed's
// schema errors). Params sent as a JSON string holding the object, as some
// agent clients send a tool's arguments, are read as that object. It never
// fails out-of-band: a call that does not decode is refused by Run, in an
// error envelope.
func Decode(raw json.RawMessage) Request {
	raw = jsonInString(bytes.TrimSpace(raw), '{')
	req := Request{raw: raw, action: "batch"}
	obj, err := decodeObject(raw, "params")
	if err != nil {
		req.err = err
		return req
	}
	if _, ok := obj["ops"]; ok {
		req.batch = true
		req.ops, req.err = parseOps(obj)
		return req
	}
	if a, ok := obj["action"]; ok {
		var s string
		if json.Unmarshal(a, &s) == nil && s != "" {
			req.action = s
		}
	}
	c, err := parseParams(obj)
	switch {
	case err != nil:
		req.err = err
	case c.action == "":
		req.action, req.err = "batch", errors.New("action required (or pass ops)")
	default:
		req.ops = []opCall{c}
	}
	return req
}

// ReadsOnly reports whether req only reads: a list or get, or a batch of
// only those. A call that does not decode does not read only.
func (req Request) ReadsOnly() bool {
	return req.err == nil && len(req.ops) > 0 && !slices.ContainsFunc(req.ops, func(c opCall) bool { return !isRead(c.action) })
}

// HasList reports whether req has a list op.
func (req Request) HasList() bool {
	return slices.ContainsFunc(req.ops, func(c opCall) bool { return c.action == "list" })
}

// Action is details.action of req's result: "batch" for ops (and for a
// call without an action), else the action as sent.
func (req Request) Action() string { return req.action }

// Params is req's params as sent (details.params).
func (req Request) Params() json.RawMessage { return req.raw }

// WithLimit is req with each list op's limit (DefaultLimit when it gave
// none) cut to at most n, keeping its params as sent; ok is false when
// that changes nothing.
func (req Request) WithLimit(n int) (Request, bool) {
	ops := make([]opCall, len(req.ops))
	copy(ops, req.ops)
	changed := false
	for i, c := range ops {
		l, isList := c.op.(ListOp)
		if !isList || (l.Limit != nil && *l.Limit <= n) || (l.Limit == nil && DefaultLimit <= n) {
			continue
		}
		l.Limit = &n
		ops[i].op, changed = l, true
	}
	req.ops = ops
	return req, changed
}

// Run runs one `todo` tool call decoded by Decode (Run(st, Decode(raw),
// opts) runs the tool's JSON object: an `action` with its fields, or
// `ops`). Actions: the seed's create, update, list, get, delete, clear, and
// the MCP seed's complete, delete_all, restore. It never fails out-of-band:
// a rejected call (bad JSON, unknown or mistyped field, any rule of the
// seed's status transitions/§5, read-only, project mismatch, version
// conflict) returns an envelope with content "Error: <msg>" and
// details.error set, and Result.State is the unchanged input. st is never
// mutated; a nil st reads as Empty(). Result.Notices carries the net plan
// deferrals a UI should show; Result.Affected and Result.Shown name the
// tasks the call changed and showed. Tasks in the returned state are
// sorted by id.
func Run(st *State, req Request, opts Options) Result {
	view := sortedView(st)
	r := &runner{opts: opts, now: opts.now()}
	return r.run(cmp.Or(st, view), view, req)
}

// run checks req's ops in order (precheck after each op's decoding, so the
// first problem of the call wins) and runs them as one call or a batch.
func (r *runner) run(orig, view *State, req Request) Result {
	if !req.batch {
		if req.err != nil {
			return fail(orig, view, req.action, req.raw, req.err)
		}
		return r.single(orig, view, req.raw, &req.ops[0])
	}
	for i := range req.ops {
		if err := r.precheck(&req.ops[i]); err != nil {
			return fail(orig, view, "batch", req.raw, fmt.Errorf("ops[%d]: %v", i, err))
		}
	}
	if req.err != nil {
		return fail(orig, view, "batch", req.raw, req.err)
	}
	return r.batch(orig, view, req.raw, req.ops)
}
