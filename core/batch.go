package core

import (
	"encoding/json"
	"fmt"
	"strings"
)

// The seed's malformed-ops messages (todo-behaviour.md §5), byte for byte.
const (
	msgOpsCombined = "ops can't be combined with a top-level action or fields: put them inside each op"
	msgOpsEmpty    = "ops must not be empty"
)

// batch runs an `ops` call (todo-behaviour.md §5 as amended by planls-rules.md
// "Batches"): every op is checked for shape first; mutations then run in
// order on one working copy, reads run on the final state, and the first
// failure rejects the whole call. Each mutation's text is made at its own
// point in the batch; a create that a later clear undid prints `Created #<id>`.
func (r *runner) batch(orig, view *State, raw json.RawMessage, obj map[string]json.RawMessage) Result {
	const action = "batch"
	failf := func(format string, a ...any) Result {
		return fail(orig, view, action, raw, fmt.Errorf(format, a...))
	}
	if len(obj) > 1 {
		return failf("%s", msgOpsCombined)
	}
	var ops []json.RawMessage
	if err := json.Unmarshal(obj["ops"], &ops); err != nil {
		return failf("ops must be an array of op objects")
	}
	if len(ops) == 0 {
		return failf("%s", msgOpsEmpty)
	}
	parsed := make([]*params, len(ops))
	for i, opRaw := range ops {
		m, err := decodeObject(opRaw, "op")
		if err != nil {
			return failf("ops[%d]: op must be a JSON object", i)
		}
		if _, has := m["action"]; !has {
			return failf("ops[%d]: action required", i)
		}
		if _, has := m["ops"]; has {
			return failf("ops[%d]: ops can't be nested", i)
		}
		p, err := parseParams(m)
		if err != nil {
			return failf("ops[%d]: %v", i, err)
		}
		if p.Action == "" {
			return failf("ops[%d]: action required", i)
		}
		if err := r.precheck(p); err != nil {
			return failf("ops[%d]: %v", i, err)
		}
		parsed[i] = p
	}

	w := cloneState(view)
	r.created = map[int]int{}
	texts := make([]string, len(ops))
	createdID := make([]int, len(ops)) // 0 unless op i created a task
	changed := false
	for i, p := range parsed {
		if isRead(p.Action) {
			continue
		}
		if p.ClientMutationID != nil {
			text, hit, err := replay(w, p)
			if err != nil {
				return failf("ops[%d]: %v", i, err)
			}
			if hit {
				texts[i] = text
				continue
			}
		}
		text, ch, err := r.mutate(w, p)
		if err != nil {
			return failf("ops[%d]: %v", i, err)
		}
		texts[i] = text
		if !ch {
			continue
		}
		changed = true
		if p.Action == "create" {
			createdID[i] = w.NextID - 1
			r.created[createdID[i]] = i
		}
		if p.ClientMutationID != nil {
			r.remember(w, p, text, touched(w, p))
		}
	}
	for i, p := range parsed {
		var err error
		switch p.Action {
		case "list":
			var page listPage
			page, err = list(w, p, r.opts)
			texts[i] = page.text
		case "get":
			texts[i], err = get(w, p)
		}
		if err != nil {
			return failf("ops[%d]: %v", i, err)
		}
	}
	for i, id := range createdID {
		if at, live := r.created[id]; id != 0 && (!live || at != i) {
			texts[i] = fmt.Sprintf("Created #%d", id)
		}
	}

	var b strings.Builder
	fmt.Fprintf(&b, "Applied %d ops", len(ops))
	for i, t := range texts {
		fmt.Fprintf(&b, "\n[%d] %s", i, t)
	}
	if h := planHeader(w); h != "" {
		b.WriteString("\n" + h)
	}
	if !changed || statesEqual(view, w) {
		return success(orig, view, action, raw, b.String(), false)
	}
	res := success(w, w, action, raw, b.String(), true)
	res.Envelope.Details.IDs = r.ids
	res.Notices = append(netDeferrals(view, w), weakEvidenceNotices(view, w)...)
	return res
}
