package core

import (
	"encoding/json"
	"fmt"
)

// The typed operations: what editors and programs call instead of building a
// `todo` call's JSON. Each runs the same rules, checks and content strings
// as the tool's JSON run by Run (the seed's texts and errors, read-only, project_id), returns the
// same Result (Affected names the tasks it changed), never mutates st, and
// reads a nil st as Empty(). The envelope's details.params (and the
// journal's params) is the op as the tool's JSON fields.

// Op is one typed operation, for Do: a CreateOp, UpdateOp, DeleteOp,
// RestoreOp, ListOp, GetOp, ClearOp or DeleteAllOp.
type Op interface {
	// action is the tool action the op runs as.
	action() string
}

// CreateOp creates a todo (seed "create"). Subject is required.
type CreateOp struct {
	Subject     string         `json:"subject"`
	Description *string        `json:"description,omitempty"`
	ActiveForm  *string        `json:"activeForm,omitempty"`
	Owner       *string        `json:"owner,omitempty"`
	BlockedBy   []int          `json:"blockedBy,omitempty"`
	Metadata    map[string]any `json:"metadata,omitempty"`
	Priority    *string        `json:"priority,omitempty"` // low, medium, high or urgent
	DueAt       *string        `json:"due_at,omitempty"`   // RFC 3339, or YYYY-MM-DD in OwnerTimezone
	Note        *string        `json:"note,omitempty"`
	// OwnerTimezone is the IANA zone of a date-only DueAt; nil = Options.Zone.
	OwnerTimezone *string `json:"owner_timezone,omitempty"`
	// ClientMutationID makes a retry return the first result (MCP seed).
	ClientMutationID *string `json:"client_mutation_id,omitempty"`
}

// UpdateOp changes a task (seed "update"): nil fields stay as they are.
// Completing needs Evidence and deferring a Reason (the seed's status transitions).
type UpdateOp struct {
	ID          int     `json:"id"`
	Subject     *string `json:"subject,omitempty"`
	Description *string `json:"description,omitempty"`
	ActiveForm  *string `json:"activeForm,omitempty"`
	Owner       *string `json:"owner,omitempty"`
	Status      *Status `json:"status,omitempty"`
	Evidence    *string `json:"evidence,omitempty"`
	Reason      *string `json:"reason,omitempty"`
	// Metadata is merged key by key; a nil value deletes its key.
	Metadata        map[string]any `json:"metadata,omitempty"`
	AddBlockedBy    []int          `json:"addBlockedBy,omitempty"`
	RemoveBlockedBy []int          `json:"removeBlockedBy,omitempty"`
	Priority        *string        `json:"priority,omitempty"`
	DueAt           *string        `json:"due_at,omitempty"`
	Note            *string        `json:"note,omitempty"`
	OwnerTimezone   *string        `json:"owner_timezone,omitempty"`
	// ExpectedVersion refuses the change unless the task is at this version.
	ExpectedVersion  *int    `json:"expected_version,omitempty"`
	ClientMutationID *string `json:"client_mutation_id,omitempty"`
}

// DeleteOp tombstones a todo (seed "delete"); plan items are refused.
type DeleteOp struct {
	ID              int  `json:"id"`
	ExpectedVersion *int `json:"expected_version,omitempty"`
}

// RestoreOp brings tombstones back (MCP seed "restore"); nil IDs undo the
// last delete_all.
type RestoreOp struct {
	IDs []int `json:"ids,omitempty"`
}

// ListOp is one list page (seed "list" with the MCP seed's filters and
// paging). Zero values mean no filter, the default page size and the first page.
type ListOp struct {
	Status         *Status `json:"status,omitempty"`
	ItemStatus     *string `json:"item_status,omitempty"` // open, all or a status
	IncludeDeleted bool    `json:"includeDeleted,omitempty"`
	DueBefore      *string `json:"due_before,omitempty"`
	Search         *string `json:"search,omitempty"`
	OwnerTimezone  *string `json:"owner_timezone,omitempty"`
	Limit          *int    `json:"limit,omitempty"` // 1..MaxLimit; nil = DefaultLimit
	Cursor         *string `json:"cursor,omitempty"`
	// Fields are the RowFields rows show below their line; nil = the
	// default of Options.CompactRows.
	Fields []string `json:"fields,omitempty"`
	Group  *string  `json:"group,omitempty"` // plan items under this heading only
}

// GetOp renders one task (seed "get").
type GetOp struct {
	ID int `json:"id"`
}

// ClearOp removes every todo that is not a plan item (seed "clear").
type ClearOp struct{}

// DeleteAllOp soft-deletes every todo that is not a plan item (MCP seed
// "delete_all"). Calling it is the confirmation; Options.NoDeleteAll still refuses it.
type DeleteAllOp struct{}

func (CreateOp) action() string    { return "create" }
func (UpdateOp) action() string    { return "update" }
func (DeleteOp) action() string    { return "delete" }
func (RestoreOp) action() string   { return "restore" }
func (ListOp) action() string      { return "list" }
func (GetOp) action() string       { return "get" }
func (ClearOp) action() string     { return "clear" }
func (DeleteAllOp) action() string { return "delete_all" }

// Do runs one typed op as a whole call, as Run runs its JSON: Affected is
// what it created, changed or removed (a create's new id, a delete_all's
// or restore's ids), Shown what it rendered (a list page's rows, a get's
// task); a list's Details.Total and Details.NextCursor say what is left.
// Completing needs UpdateOp.Evidence and deferring UpdateOp.Reason (the
// seed's status transitions); a deferred plan item's text asks the agent to
// tell the user, and Result.Notices carries the deferral. The op runs in
// the engine as it is, after the schema's value checks the same fields
// sent as JSON meet, so a typed op is refused with the same message;
// details.params is the op as the tool's JSON fields (typedRequest).
func Do(st *State, op Op, opts Options) Result {
	return Run(st, typedRequest(op), opts)
}

// typedRequest is the Request of one typed op: the op as the tool's JSON
// fields with its action, decoded as Decode decodes a call, so a typed op
// meets the same value checks and details.params is that JSON. Empty
// slices and maps count as absent (omitempty), as in that JSON.
func typedRequest(op Op) Request {
	action := op.action()
	fields, err := json.Marshal(op)
	var obj map[string]json.RawMessage
	if err == nil {
		err = json.Unmarshal(fields, &obj)
	}
	if err != nil {
		return Request{action: action, err: fmt.Errorf("%s: %v", action, err)}
	}
	obj["action"], _ = json.Marshal(action)
	if _, ok := op.(DeleteAllOp); ok {
		obj["confirm_delete_all"] = json.RawMessage("true")
	}
	raw, _ := json.Marshal(obj) // valid members: cannot fail
	return Decode(raw)
}
