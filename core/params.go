package core

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

// knownFields are the accepted keys of a call and of an op ("ops" only at
// the top level). Anything else is refused so a misspelt field is never
// silently ignored.
var knownFields = map[string]bool{
	"action": true, "id": true, "subject": true, "blockedBy": true, "description": true,
	"activeForm": true, "owner": true, "metadata": true, "evidence": true, "reason": true,
	"addBlockedBy": true, "removeBlockedBy": true, "status": true, "includeDeleted": true,
	"todo_id": true, "content": true, "title": true, "project_id": true, "priority": true,
	"due_at": true, "note": true, "item_status": true, "due_before": true, "search": true,
	"query": true, "limit": true, "cursor": true, "owner_timezone": true,
	"client_mutation_id": true, "expected_version": true, "confirm_delete_all": true, "ids": true,
	"fields": true, "group": true,
}

// decodeObject reads a JSON object into its raw members, dropping nulls.
// Duplicate keys keep the last value, as JSON.parse does.
func decodeObject(raw json.RawMessage, what string) (map[string]json.RawMessage, error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, fmt.Errorf("%s must be a JSON object", what)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(trimmed, &m); err != nil {
		return nil, fmt.Errorf("%s must be a JSON object", what)
	}
	for k, v := range m {
		if string(bytes.TrimSpace(v)) == "null" {
			delete(m, k)
		}
	}
	return m, nil
}

// parseParams type-checks obj (ops must already be removed by the caller)
// and returns the typed op its action names, with what the engine reads
// beside it (opCall): the JSON layer of the typed operations. A JSON null
// counts as absent, as an omitted field does in the seed's TypeScript; only
// metadata values keep null (it deletes that key on update). Every field is
// checked, whatever the action. Errors name the field; they come before the
// seed's rule order because the seed's schema validation rejects a mistyped
// call before it runs. An action that is not the tool's gets no op, and
// precheck refuses it.
func parseParams(obj map[string]json.RawMessage) (opCall, error) {
	keys := slices.Sorted(maps.Keys(obj))
	if i := slices.IndexFunc(keys, func(k string) bool { return !knownFields[k] }); i >= 0 {
		return opCall{}, fmt.Errorf("unknown field %q: see the todo tool's parameters", keys[i])
	}
	p := opCall{obj: obj}
	var err error
	// field is key's raw value, absent once an earlier field failed: the
	// first error wins.
	field := func(key string) (json.RawMessage, bool) {
		raw, ok := obj[key]
		return raw, ok && err == nil
	}
	str := func(key string) *string {
		raw, ok := field(key)
		if !ok {
			return nil
		}
		var s string
		if e := json.Unmarshal(raw, &s); e != nil {
			err = fmt.Errorf("%s must be a string", key)
			return nil
		}
		return &s
	}
	integer := func(key string) *int {
		raw, ok := field(key)
		if !ok {
			return nil
		}
		n, ok := parseInt(raw)
		if !ok {
			err = fmt.Errorf("%s must be an integer", key)
			return nil
		}
		return &n
	}
	ints := func(key string) []int {
		raw, ok := field(key)
		if !ok {
			return nil
		}
		var items []json.RawMessage
		if e := json.Unmarshal(jsonInString(raw, '['), &items); e != nil {
			err = fmt.Errorf("%s must be an array of task ids", key)
			return nil
		}
		out := make([]int, 0, len(items))
		for _, it := range items {
			n, ok := parseInt(it)
			if !ok {
				err = fmt.Errorf("%s must be an array of task ids", key)
				return nil
			}
			out = append(out, n)
		}
		return out
	}
	boolean := func(key string) bool {
		raw, ok := field(key)
		if !ok {
			return false
		}
		var b bool
		if e := json.Unmarshal(raw, &b); e != nil {
			var s string
			switch _ = json.Unmarshal(raw, &s); s {
			case "true":
				return true
			case "false":
				return false
			}
			err = fmt.Errorf("%s must be true or false", key)
		}
		return b
	}

	if a := str("action"); a != nil {
		p.action = *a
	}
	if id := integer("id"); id != nil {
		p.id, p.hasID = *id, true
	}
	if tid := str("todo_id"); tid != nil {
		n, ok := parseTodoID(*tid)
		if !ok && err == nil {
			err = fmt.Errorf("todo_id %q is not a task id (use \"3\" or \"#3\")", *tid)
		}
		if ok {
			if p.hasID && p.id != n && err == nil {
				err = fmt.Errorf("id %d and todo_id %q disagree: pass one of them", p.id, *tid)
			}
			p.id, p.hasID = n, true
		}
	}
	subject := agree(&err, []string{"subject", "content", "title"}, []*string{str("subject"), str("content"), str("title")})
	description, activeForm, owner := str("description"), str("activeForm"), str("owner")
	evidence, reason := str("evidence"), str("reason")
	var status *Status
	if s := str("status"); s != nil {
		st := Status(*s)
		if !validStatus(st) {
			err = fmt.Errorf("status must be one of pending, in_progress, completed, deferred, deleted (got %q)", st)
		}
		status = &st
	}
	var metadata map[string]any // nil when not given
	if raw, ok := obj["metadata"]; ok && err == nil {
		m, e := decodeMetadata(jsonInString(raw, '{'))
		if e != nil {
			err = e
		}
		metadata = m
	}
	blockedBy, addBlockedBy, removeBlockedBy := ints("blockedBy"), ints("addBlockedBy"), ints("removeBlockedBy")
	includeDeleted := boolean("includeDeleted")
	var fields []string // nil when not given
	if raw, ok := obj["fields"]; ok && err == nil {
		fields, err = parseFields(raw)
	}
	group := str("group")
	p.projectID = str("project_id")
	priority := str("priority")
	if priority != nil && !slices.Contains(priorities, *priority) {
		err = fmt.Errorf("priority must be one of low, medium, high, urgent (got %q)", *priority)
	}
	dueAt, note, zone := str("due_at"), str("note"), str("owner_timezone")
	itemStatus, dueBefore := str("item_status"), str("due_before")
	search := agree(&err, []string{"search", "query"}, []*string{str("search"), str("query")})
	limit, cursor := integer("limit"), str("cursor")
	mutationID := str("client_mutation_id")
	version := integer("expected_version")
	if version != nil && *version < 1 {
		err = fmt.Errorf("expected_version must be a positive integer (got %d)", *version)
	}
	confirmed := boolean("confirm_delete_all")
	ids := ints("ids") // nil when not given
	if err != nil {
		return opCall{}, err
	}
	switch p.action {
	case "create":
		p.op = CreateOp{Subject: deref(subject), Description: description, ActiveForm: activeForm, Owner: owner,
			BlockedBy: blockedBy, Metadata: metadata, Priority: priority, DueAt: dueAt, Note: note,
			OwnerTimezone: zone, ClientMutationID: mutationID}
	case "update", "complete":
		p.op = UpdateOp{ID: p.id, Subject: subject, Description: description, ActiveForm: activeForm,
			Owner: owner, Status: status, Evidence: evidence, Reason: reason, Metadata: metadata,
			AddBlockedBy: addBlockedBy, RemoveBlockedBy: removeBlockedBy, Priority: priority, DueAt: dueAt,
			Note: note, OwnerTimezone: zone, ExpectedVersion: version, ClientMutationID: mutationID}
	case "delete":
		p.op = DeleteOp{ID: p.id, ExpectedVersion: version}
	case "restore":
		p.op = RestoreOp{IDs: ids}
	case "list":
		p.op = ListOp{Status: status, ItemStatus: itemStatus, IncludeDeleted: includeDeleted, DueBefore: dueBefore,
			Search: search, OwnerTimezone: zone, Limit: limit, Cursor: cursor, Fields: fields, Group: group}
	case "get":
		p.op = GetOp{ID: p.id}
	case "clear":
		p.op = ClearOp{}
	case "delete_all":
		p.op, p.unconfirmed = DeleteAllOp{}, !confirmed
	}
	return p, nil
}

// parseFields reads list's fields: an array of field names, or one string
// of names separated by commas ("evidence,planText").
func parseFields(raw json.RawMessage) ([]string, error) {
	var names []string
	if json.Unmarshal(jsonInString(raw, '['), &names) != nil {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil, fmt.Errorf("fields must be an array of field names (%s, or \"all\")", strings.Join(RowFields, ", "))
		}
		names = strings.Split(s, ",")
	}
	return rowFields(names)
}

// rowFields checks field names against RowFields; "all" names every one
// and blank names are skipped. The result is never nil: fields given, even
// none, replace the default row shape.
func rowFields(names []string) ([]string, error) {
	out := []string{}
	for _, n := range names {
		n = strings.TrimSpace(n)
		switch {
		case n == "all":
			out = append(out, RowFields...)
		case slices.Contains(RowFields, n):
			out = append(out, n)
		case n == "":
		default:
			return nil, fmt.Errorf("fields: %q is not a row field; use %s, or \"all\"", n, strings.Join(RowFields, ", "))
		}
	}
	return out, nil
}

// agree returns the first present value of aliases that must be equal when
// several are given (MCP seed: content/title, search/query).
func agree(errp *error, names []string, vals []*string) *string {
	var first *string
	firstName := ""
	for i, v := range vals {
		if v == nil {
			continue
		}
		if first == nil {
			first, firstName = v, names[i]
			continue
		}
		if *v != *first && *errp == nil {
			*errp = fmt.Errorf("%s %q and %s %q disagree: pass one of them", firstName, *first, names[i], *v)
		}
	}
	return first
}

// parseInt accepts a JSON number with an integral value (1 and 1.0 alike)
// within ±2^53, or a string holding one in decimal (intInString); booleans
// and fractions are refused.
func parseInt(raw json.RawMessage) (int, bool) {
	s := strings.TrimSpace(string(raw))
	if s == "" || (s[0] != '-' && (s[0] < '0' || s[0] > '9')) {
		return intInString(raw)
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		if n > 1<<53 || n < -(1<<53) {
			return 0, false
		}
		return int(n), true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, false
	}
	return int(f), true
}

// intInString reads a JSON string holding a decimal integer ("2", " 12 ")
// within ±2^53, as some agent clients send every argument.
// Anything else ("2.5", "", "two", "0x10", "1e3") is not an integer.
func intInString(raw json.RawMessage) (int, bool) {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || n > 1<<53 || n < -(1<<53) {
		return 0, false
	}
	return int(n), true
}

// jsonInString returns the JSON text inside raw when raw is a JSON string
// whose content is a JSON value starting with open ('[' or '{') — an array
// or object sent as a string — and raw itself otherwise,
// so the caller's own type error still names what was wrong.
func jsonInString(raw json.RawMessage, open byte) json.RawMessage {
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return raw
	}
	inner := bytes.TrimSpace([]byte(s))
	if len(inner) == 0 || inner[0] != open || !json.Valid(inner) {
		return raw
	}
	return inner
}

// parseTodoID reads the MCP seed's string id: "3" or "#3".
func parseTodoID(s string) (int, bool) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "#")
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return 0, false
	}
	return n, true
}

// decodeMetadata keeps numbers exact (json.Number) and null values (a null
// deletes that key on update).
func decodeMetadata(raw json.RawMessage) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil || m == nil {
		return nil, fmt.Errorf("metadata must be an object")
	}
	return m, nil
}

// statuses and priorities are the values status and priority take, in
// the order their errors list them.
var (
	statuses   = []Status{Pending, InProgress, Completed, Deferred, Deleted}
	priorities = []string{"low", "medium", "high", "urgent"}
)

func validStatus(s Status) bool { return slices.Contains(statuses, s) }

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
