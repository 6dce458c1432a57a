package core

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Actions, in the order error messages list them.
var actions = []string{"create", "update", "complete", "list", "get", "delete", "clear", "delete_all", "restore"}

func isRead(action string) bool { return action == "list" || action == "get" }

// onlyFor names the actions an MCP-seed field applies to; given to another
// action it is refused rather than ignored. The seed-000 fields keep rpiv's
// leniency (create ignores status, evidence and reason).
var onlyFor = map[string][]string{
	"item_status": {"list"}, "due_before": {"list"}, "search": {"list"}, "query": {"list"},
	"limit": {"list"}, "cursor": {"list"}, "fields": {"list"}, "group": {"list"},
	"confirm_delete_all": {"delete_all"},
	"ids":                {"restore"},
	"client_mutation_id": {"create", "update", "complete"},
	"expected_version":   {"update", "complete", "delete"},
	"priority":           {"create", "update", "complete"},
	"due_at":             {"create", "update", "complete"},
	"note":               {"create", "update", "complete"},
	"owner_timezone":     {"create", "update", "complete", "list"},
}

var onlyForKeys = slices.Sorted(maps.Keys(onlyFor))

// precheck runs the checks every call or op gets before its action's own
// rules: a known action, fields that apply to it, the project, the scope.
func (r *runner) precheck(p *opCall) error {
	if !slices.Contains(actions, p.action) {
		if p.action == "defer" {
			// Deferring is an update (rpiv-todo's status machine), and the CLI
			// has a `todo defer`: name the call that does it.
			id := "N"
			if p.hasID && p.id > 0 {
				id = fmt.Sprint(p.id)
			}
			return fmt.Errorf(`unknown action "defer": defer with {"action":"update","id":%s,"status":"deferred","reason":"..."}`, id)
		}
		return fmt.Errorf("unknown action %q: use %s", p.action, strings.Join(actions, ", "))
	}
	for _, k := range onlyForKeys {
		if p.has(k) && !slices.Contains(onlyFor[k], p.action) {
			return fmt.Errorf("%s only applies to %s", k, englishList(onlyFor[k]))
		}
	}
	if p.projectID != nil && *p.projectID != r.opts.ProjectID {
		if r.opts.ProjectID == "" {
			return fmt.Errorf("project_id %q is not this project: this server has no project id, leave project_id out", *p.projectID)
		}
		return fmt.Errorf("project_id %q is not this project (%q)", *p.projectID, r.opts.ProjectID)
	}
	if r.opts.ReadOnly && !isRead(p.action) {
		return fmt.Errorf("read-only: this server only reads (planls mcp --read-only): list and get work, %s does not; ask the user to make the change, or to serve planls without --read-only", p.action)
	}
	return nil
}

func englishList(xs []string) string {
	if len(xs) == 1 {
		return xs[0]
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

// single runs one op as a whole call: the checks every call gets,
// then the read or the mutation on a working copy of view.
func (r *runner) single(orig, view *State, raw json.RawMessage, p *opCall) Result {
	action := p.action
	if err := r.precheck(p); err != nil {
		return r.fail(orig, view, action, raw, p, err)
	}
	switch op := p.op.(type) {
	case ListOp:
		page, err := list(view, op, r.opts)
		if err != nil {
			return r.fail(orig, view, action, raw, p, err)
		}
		r.shown = page.ids
		res := r.success(orig, view, action, raw, page.text, false)
		total := page.total
		res.Envelope.Details.Total = &total
		res.Envelope.Details.NextCursor = page.nextCursor
		res.Envelope.Details.Fields = page.fields
		return res
	case GetOp:
		text, err := get(view, p)
		if err != nil {
			return r.fail(orig, view, action, raw, p, err)
		}
		r.show(p.id)
		return r.success(orig, view, action, raw, text, false)
	}
	w := cloneState(view)
	text, changed, err := r.step(w, p)
	if err != nil {
		return r.fail(orig, view, action, raw, p, err)
	}
	if !changed {
		return r.success(orig, view, action, raw, text, false)
	}
	res := r.success(w, w, action, raw, text, true)
	res.Envelope.Details.IDs = r.ids
	res.Notices = append(netDeferrals(view, w), weakEvidenceNotices(view, w)...)
	return res
}

// step runs one mutating op against the working state w: a retry of a
// remembered client_mutation_id replays its first text, else the action
// runs and a keyed change is remembered. An op that changes nothing shows
// the task it named.
func (r *runner) step(w *State, p *opCall) (text string, changed bool, err error) {
	hit := false
	key := p.mutationKey()
	if key != nil {
		text, hit, err = replay(w, p, *key)
	}
	if !hit && err == nil {
		text, changed, err = r.mutate(w, p)
	}
	switch {
	case err != nil:
	case !changed:
		r.named(p)
	case key != nil:
		r.remember(w, p, *key, text, touched(w, p))
	}
	return text, changed, err
}

// mutate runs one mutating op against the working state w.
func (r *runner) mutate(w *State, p *opCall) (string, bool, error) {
	switch op := p.op.(type) {
	case CreateOp:
		return r.create(w, op)
	case UpdateOp:
		return r.update(w, op, p)
	case DeleteOp:
		return r.del(w, op, p)
	case ClearOp:
		return r.clear(w)
	case DeleteAllOp:
		return r.deleteAll(w, p)
	case RestoreOp:
		return r.restore(w, op)
	}
	return "", false, fmt.Errorf("unknown action %q", p.action)
}

// mutationKey is the op's client_mutation_id, nil when it has none.
func (p *opCall) mutationKey() *string {
	switch op := p.op.(type) {
	case CreateOp:
		return op.ClientMutationID
	case UpdateOp:
		return op.ClientMutationID
	}
	return nil
}

// touched is the ids a keyed create/update affected, for MutationKey.IDs.
func touched(w *State, p *opCall) []int {
	if p.action == "create" {
		return []int{w.NextID - 1}
	}
	return []int{p.id}
}

// netDeferrals are the notices of plan items deferred by this call: deferred
// now and not before. A defer-then-reopen batch sends none and repeated
// deferrals one, with the final reason.
func netDeferrals(before, after *State) []Notice {
	var out []Notice
	for i := range after.Tasks {
		t := &after.Tasks[i]
		if !t.isPlan() || t.Status != Deferred {
			continue
		}
		if old := before.task(t.ID); old != nil && old.Status == Deferred {
			continue
		}
		out = append(out, Notice{Level: "warning", Code: DeferredCode, ID: t.ID,
			Text:  fmt.Sprintf("Plan item deferred: #%d %s -- %s", t.ID, sanitize(t.Subject), sanitize(t.Reason)),
			Plain: DeferralForPeople(t)})
	}
	return out
}

// envelope builds the tool result over st's snapshot.
func envelope(st *State, action string, raw json.RawMessage, text, errMsg string) Envelope {
	tasks := st.Tasks
	if tasks == nil {
		tasks = []Task{}
	}
	var params json.RawMessage
	if json.Valid(raw) {
		params = raw
	}
	return Envelope{
		Content: []Content{{Type: "text", Text: text}},
		Details: Details{Action: action, Params: params, Tasks: tasks, NextID: st.NextID, Error: errMsg, Plan: st.Plan.ForDetails()},
	}
}

// success is an accepted call over view's snapshot; res is the resulting
// state (view itself when nothing changed).
func (r *runner) success(res, view *State, action string, raw json.RawMessage, text string, changed bool) Result {
	out := success(res, view, action, raw, text, changed)
	out.Shown = r.shown
	if changed {
		out.Affected = r.affected
	}
	return out
}

func success(res, view *State, action string, raw json.RawMessage, text string, changed bool) Result {
	return Result{Envelope: envelope(view, action, raw, text, ""), State: res, Changed: changed}
}

// fail is a rejected call: `Error: <msg>`, details.error, state unchanged.
// The task the rejected op named (if any) is in Shown, so a client sees
// the row it asked about.
func (r *runner) fail(orig, view *State, action string, raw json.RawMessage, p *opCall, err error) Result {
	res := fail(orig, view, action, raw, err)
	res.Notices = reopenNotice(err)
	r.shown = nil
	if p != nil {
		r.named(p)
	}
	res.Shown = r.shown
	return res
}

// Rejection is a call refused in-band outside the engine (an approval the
// store refuses, a call with no project): "Error: <msg>" as its text,
// details.error set, over st's snapshot (nil reads as no tasks), with st
// unchanged.
func Rejection(st *State, action string, params json.RawMessage, msg string) Result {
	st = cmp.Or(st, &State{})
	return fail(st, st, action, params, errors.New(msg))
}

// fail is a rejected call before any op could be read.
func fail(orig, view *State, action string, raw json.RawMessage, err error) Result {
	return Result{Envelope: envelope(view, action, raw, "Error: "+err.Error(), err.Error()), State: orig}
}

// touch records id as created or changed by this call (Result.Affected).
func (r *runner) touch(ids ...int) { r.affected = appendNew(r.affected, ids...) }

// show records id as shown by this call (Result.Shown).
func (r *runner) show(ids ...int) { r.shown = appendNew(r.shown, ids...) }

// named shows the task an op named by id, when it exists.
func (r *runner) named(p *opCall) {
	if p.hasID {
		r.show(p.id)
	}
}

// appendNew appends the ids not yet in list, keeping order.
func appendNew(list []int, ids ...int) []int {
	for _, id := range ids {
		if !slices.Contains(list, id) {
			list = append(list, id)
		}
	}
	return list
}
