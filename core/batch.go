package core

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// The seed's malformed-ops messages (the seed's ops batches), byte for byte.
const (
	msgOpsCombined = "ops can't be combined with a top-level action or fields: put them inside each op"
	msgOpsEmpty    = "ops must not be empty"
)

// parseOps reads the `ops` array of a call (the seed's ops batches: malformed
// ops): every op is checked for shape and fields in order. It returns the
// ops read before the first problem, and that problem: Run prechecks those
// ops first, so the first problem of the call wins.
func parseOps(obj map[string]json.RawMessage) ([]opCall, error) {
	if len(obj) > 1 {
		return nil, errors.New(msgOpsCombined)
	}
	var ops []json.RawMessage
	if err := json.Unmarshal(jsonInString(obj["ops"], '['), &ops); err != nil {
		return nil, errors.New("ops must be an array of op objects")
	}
	if len(ops) == 0 {
		return nil, errors.New(msgOpsEmpty)
	}
	parsed := make([]opCall, 0, len(ops))
	for i, opRaw := range ops {
		m, err := decodeObject(jsonInString(opRaw, '{'), "op")
		if err != nil {
			return parsed, fmt.Errorf("ops[%d]: op must be a JSON object", i)
		}
		if _, has := m["action"]; !has {
			return parsed, fmt.Errorf("ops[%d]: action required", i)
		}
		if _, has := m["ops"]; has {
			return parsed, fmt.Errorf("ops[%d]: ops can't be nested", i)
		}
		c, err := parseParams(m)
		if err != nil {
			return parsed, fmt.Errorf("ops[%d]: %v", i, err)
		}
		if c.action == "" {
			return parsed, fmt.Errorf("ops[%d]: action required", i)
		}
		parsed = append(parsed, c)
	}
	return parsed, nil
}

// batch runs checked ops as one atomic call (the seed's ops batches,
// with each op's text made at its own point in the batch): mutations run in order on one
// working copy, reads run on the final state, and the first failure rejects
// the whole call. Each mutation's text is made at its own point in the
// batch; a create that a later clear undid prints `Created #<id>`.
func (r *runner) batch(orig, view *State, raw json.RawMessage, parsed []opCall) Result {
	const action = "batch"
	failf := func(p *opCall, format string, a ...any) Result {
		return r.fail(orig, view, action, raw, p, fmt.Errorf(format, a...))
	}
	w := cloneState(view)
	r.created = map[int]int{}
	texts := make([]string, len(parsed))
	createdID := make([]int, len(parsed)) // 0 unless op i created a task
	changed := false
	for i := range parsed {
		p := &parsed[i]
		if isRead(p.action) {
			continue
		}
		text, ch, err := r.step(w, p)
		if err != nil {
			return failf(p, "ops[%d]: %w", i, err)
		}
		texts[i] = text
		changed = changed || ch
		if ch && p.action == "create" {
			createdID[i] = w.NextID - 1
			r.created[createdID[i]] = i
		}
	}
	for i := range parsed {
		p := &parsed[i]
		var err error
		switch op := p.op.(type) {
		case ListOp:
			var page listPage
			page, err = list(w, op, r.opts)
			texts[i] = page.text
			r.show(page.ids...)
		case GetOp:
			if texts[i], err = get(w, p); err == nil {
				r.show(p.id)
			}
		}
		if err != nil {
			return failf(p, "ops[%d]: %w", i, err)
		}
	}
	for i, id := range createdID {
		if at, live := r.created[id]; id != 0 && (!live || at != i) {
			texts[i] = fmt.Sprintf("Created #%d", id)
		}
	}

	var b strings.Builder
	fmt.Fprintf(&b, "Applied %d ops", len(parsed))
	for i, t := range texts {
		fmt.Fprintf(&b, "\n[%d] %s", i, t)
	}
	if h := planHeader(w); h != "" {
		b.WriteString("\n" + h)
	}
	if !changed || statesEqual(view, w) {
		return r.success(orig, view, action, raw, b.String(), false)
	}
	res := r.success(w, w, action, raw, b.String(), true)
	res.Envelope.Details.IDs = r.ids
	res.Notices = append(netDeferrals(view, w), weakEvidenceNotices(view, w)...)
	return res
}
