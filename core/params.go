package core

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// params is one call's (or one op's) fields after type checking. A JSON null
// counts as absent, as an omitted field does in the seed's TypeScript; only
// metadata values keep null (it deletes that key on update).
type params struct {
	obj map[string]json.RawMessage // every present, non-null key

	Action string

	ID    int
	HasID bool

	Subject     *string // subject, content or title (they must agree)
	Description *string
	ActiveForm  *string
	Owner       *string
	Evidence    *string
	Reason      *string
	Status      *Status

	Metadata map[string]any // nil when not given

	BlockedBy       []int
	AddBlockedBy    []int
	RemoveBlockedBy []int

	IncludeDeleted bool

	// List shaping: the extra fields rows show, and a
	// plan-group filter.
	Fields []string // nil when not given
	Group  *string

	// The public MCP todo tool's additions (docs/DEVELOPING.md, "Where the rules come from").
	ProjectID        *string
	Priority         *string
	DueAt            *string
	Note             *string
	OwnerTimezone    *string
	ItemStatus       *string
	DueBefore        *string
	Search           *string // search or query (they must agree)
	Limit            *int
	Cursor           *string
	ClientMutationID *string
	ExpectedVersion  *int
	ConfirmDeleteAll bool
	IDs              []int // nil when not given
}

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
		if isNull(v) {
			delete(m, k)
		}
	}
	return m, nil
}

func isNull(v json.RawMessage) bool { return string(bytes.TrimSpace(v)) == "null" }

// parseParams type-checks obj (ops must already be removed by the caller).
// Errors name the field; they come before the seed's rule order because the
// seed's schema validation rejects a mistyped call before it runs.
func parseParams(obj map[string]json.RawMessage) (*params, error) {
	var unknown []string
	for k := range obj {
		if !knownFields[k] {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return nil, fmt.Errorf("unknown field %q: see the todo tool's parameters", unknown[0])
	}
	p := &params{obj: obj}
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
		p.Action = *a
	}
	if id := integer("id"); id != nil {
		p.ID, p.HasID = *id, true
	}
	if tid := str("todo_id"); tid != nil {
		n, ok := parseTodoID(*tid)
		if !ok && err == nil {
			err = fmt.Errorf("todo_id %q is not a task id (use \"3\" or \"#3\")", *tid)
		}
		if ok {
			if p.HasID && p.ID != n && err == nil {
				err = fmt.Errorf("id %d and todo_id %q disagree: pass one of them", p.ID, *tid)
			}
			p.ID, p.HasID = n, true
		}
	}
	p.Subject = agree(&err, []string{"subject", "content", "title"}, []*string{str("subject"), str("content"), str("title")})
	p.Description = str("description")
	p.ActiveForm = str("activeForm")
	p.Owner = str("owner")
	p.Evidence = str("evidence")
	p.Reason = str("reason")
	if s := str("status"); s != nil {
		st := Status(*s)
		if e := checkStatus(&st); e != nil && err == nil {
			err = e
		}
		p.Status = &st
	}
	if raw, ok := obj["metadata"]; ok && err == nil {
		m, e := decodeMetadata(jsonInString(raw, '{'))
		if e != nil {
			err = e
		}
		p.Metadata = m
	}
	p.BlockedBy = ints("blockedBy")
	p.AddBlockedBy = ints("addBlockedBy")
	p.RemoveBlockedBy = ints("removeBlockedBy")
	p.IncludeDeleted = boolean("includeDeleted")
	if raw, ok := obj["fields"]; ok && err == nil {
		p.Fields, err = parseFields(raw)
	}
	p.Group = str("group")

	p.ProjectID = str("project_id")
	p.Priority = str("priority")
	if e := checkPriority(p.Priority); e != nil && err == nil {
		err = e
	}
	p.DueAt = str("due_at")
	p.Note = str("note")
	p.OwnerTimezone = str("owner_timezone")
	p.ItemStatus = str("item_status")
	p.DueBefore = str("due_before")
	p.Search = agree(&err, []string{"search", "query"}, []*string{str("search"), str("query")})
	p.Limit = integer("limit")
	p.Cursor = str("cursor")
	p.ClientMutationID = str("client_mutation_id")
	p.ExpectedVersion = integer("expected_version")
	if e := checkVersionParam(p.ExpectedVersion); e != nil && err == nil {
		err = e
	}
	p.ConfirmDeleteAll = boolean("confirm_delete_all")
	p.IDs = ints("ids")
	if err != nil {
		return nil, err
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

// checkStatus, checkPriority and checkVersionParam are the schema's value
// checks, which a typed op meets as the same fields sent as JSON do.
func checkStatus(s *Status) error {
	if s != nil && !validStatus(*s) {
		return fmt.Errorf("status must be one of pending, in_progress, completed, deferred, deleted (got %q)", *s)
	}
	return nil
}

func checkPriority(s *string) error {
	if s != nil && !validPriority(*s) {
		return fmt.Errorf("priority must be one of low, medium, high, urgent (got %q)", *s)
	}
	return nil
}

func checkVersionParam(v *int) error {
	if v != nil && *v < 1 {
		return fmt.Errorf("expected_version must be a positive integer (got %d)", *v)
	}
	return nil
}

func validStatus(s Status) bool {
	switch s {
	case Pending, InProgress, Completed, Deferred, Deleted:
		return true
	}
	return false
}

func validPriority(s string) bool {
	switch s {
	case "low", "medium", "high", "urgent":
		return true
	}
	return false
}

// call is the typed op p's action names, with what the engine reads beside
// it (opCall); an action that is not the tool's has no op, and precheck
// refuses it.
func (p *params) call() opCall {
	c := opCall{action: p.Action, id: p.ID, hasID: p.HasID, projectID: p.ProjectID, obj: p.obj}
	switch p.Action {
	case "create":
		c.op = CreateOp{Subject: deref(p.Subject), Description: p.Description, ActiveForm: p.ActiveForm, Owner: p.Owner,
			BlockedBy: p.BlockedBy, Metadata: p.Metadata, Priority: p.Priority, DueAt: p.DueAt, Note: p.Note,
			OwnerTimezone: p.OwnerTimezone, ClientMutationID: p.ClientMutationID}
	case "update", "complete":
		c.op = UpdateOp{ID: p.ID, Subject: p.Subject, Description: p.Description, ActiveForm: p.ActiveForm,
			Owner: p.Owner, Status: p.Status, Evidence: p.Evidence, Reason: p.Reason, Metadata: p.Metadata,
			AddBlockedBy: p.AddBlockedBy, RemoveBlockedBy: p.RemoveBlockedBy, Priority: p.Priority, DueAt: p.DueAt,
			Note: p.Note, OwnerTimezone: p.OwnerTimezone, ExpectedVersion: p.ExpectedVersion, ClientMutationID: p.ClientMutationID}
	case "delete":
		c.op = DeleteOp{ID: p.ID, ExpectedVersion: p.ExpectedVersion}
	case "restore":
		c.op = RestoreOp{IDs: p.IDs}
	case "list":
		c.op = ListOp{Status: p.Status, ItemStatus: p.ItemStatus, IncludeDeleted: p.IncludeDeleted, DueBefore: p.DueBefore,
			Search: p.Search, OwnerTimezone: p.OwnerTimezone, Limit: p.Limit, Cursor: p.Cursor, Fields: p.Fields, Group: p.Group}
	case "get":
		c.op = GetOp{ID: p.ID}
	case "clear":
		c.op = ClearOp{}
	case "delete_all":
		c.op, c.unconfirmed = DeleteAllOp{}, !p.ConfirmDeleteAll
	}
	return c
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
