// Package core is the domain of planls: tasks and plan items, the status
// machine, validation with the seed's exact error strings, atomic ops batches,
// plan approval and reconciliation, the content strings, and the `todo` tool
// dispatcher (JSON params in, envelope out). It is pure over a State value:
// no I/O, no protocol types. The behaviour is the seed's
// (the rpiv-todo tool reference and the MCP todo tool's additions; their
// vectors are testdata/core/vectors.json), with planls's own rules in
// docs/PLAN-FORMAT.md and docs/AGENTS.md.
package core

import "time"

// Status is a task status (the seed's status transitions).
type Status string

// The five statuses of the seed's status machine.
const (
	Pending    Status = "pending"
	InProgress Status = "in_progress"
	Completed  Status = "completed"
	Deferred   Status = "deferred"
	Deleted    Status = "deleted"
)

// Open reports whether s is pending or in progress: the work is still owed.
func (s Status) Open() bool { return s == Pending || s == InProgress }

// SchemaVersion is the version of the on-disk state shape written in State.Version.
const SchemaVersion = 1

// Task is one todo or plan item. Optional fields are left out of JSON when
// absent (never null). Field order here is the key order of state.json.
type Task struct {
	ID int `json:"id"`
	// UID is the task's identity: given once, by the store when it first
	// writes the task, never changed, and unlike ID never renumbered, so a
	// merge, rebase or cherry-pick matches the task by it (see Merge). It is
	// kept in the state file and the journal only: details.tasks leaves it
	// out (DetailTasks), and no content string shows it. Core leaves it
	// empty on the tasks it creates; a task recorded before identities
	// existed gets its DerivedUID (EnsureUIDs).
	UID         string         `json:"uid,omitempty"`
	Subject     string         `json:"subject"`
	Status      Status         `json:"status"`
	Description *string        `json:"description,omitempty"` // nil = absent; "" is kept on update
	ActiveForm  *string        `json:"activeForm,omitempty"`
	Owner       *string        `json:"owner,omitempty"`
	BlockedBy   []int          `json:"blockedBy,omitempty"` // insertion order; dropped when empty
	Metadata    map[string]any `json:"metadata,omitempty"`
	Source      string         `json:"source,omitempty"`    // "plan" for plan items
	PlanGroup   string         `json:"planGroup,omitempty"` // nearest heading, verbatim
	PlanScope   []string       `json:"planScope,omitempty"` // full heading path (levels 2–6)
	PlanText    string         `json:"planText,omitempty"`
	Evidence    string         `json:"evidence,omitempty"` // stored trimmed on completion
	Reason      string         `json:"reason,omitempty"`   // stored trimmed on deferral
	// The public MCP todo tool's additions (docs/DEVELOPING.md).
	Priority string `json:"priority,omitempty"`
	DueAt    string `json:"dueAt,omitempty"` // RFC 3339, UTC
	Note     string `json:"note,omitempty"`
	// DeletedFrom is the status a tombstone had before it was deleted, so
	// restore can bring it back; empty on live tasks and on plan items removed
	// by a re-approval (those come back only by approving them again).
	DeletedFrom Status `json:"deletedFrom,omitempty"`
	// PlanOrder is the 1-based position of a plan item in the approved plan
	// (document order); 0 for agent todos. matchLive pairs changed items by it.
	PlanOrder int `json:"planOrder,omitempty"`
	// Version rises by one with every change to this task (for expected_version).
	Version   int       `json:"version"`
	CreatedAt time.Time `json:"createdAt"` // RFC 3339, UTC
	UpdatedAt time.Time `json:"updatedAt"`
}

// PlanRef is the approved plan.
type PlanRef struct {
	ID         string    `json:"id"`             // content hash of the approved markdown ("sha256:<hex>")
	Title      string    `json:"title"`          // planparse title
	Path       string    `json:"path,omitempty"` // slash-separated, relative to the workspace root
	ApprovedAt time.Time `json:"approvedAt"`
	// TextID is the hash of the approved text as a reader sees it (see
	// TextChanged); empty in states written before planls kept it.
	TextID string `json:"textId,omitempty"`
	// Outside is a short hash of each non-blank line of the approved text
	// outside every item (base64): where an edit there is (textdrift.go).
	// Empty in states approved before planls kept it; details never show it.
	Outside string `json:"outside,omitempty"`
}

// MutationKey remembers the result of a create/update that carried a
// client_mutation_id, so a retry returns the first result and applies nothing twice.
type MutationKey struct {
	Key    string    `json:"key"`
	Action string    `json:"action"`
	Text   string    `json:"text"`          // content[0].text of the first result
	IDs    []int     `json:"ids,omitempty"` // tasks it touched
	At     time.Time `json:"at"`
	// Hash identifies the params of the first call (sha256 of their canonical
	// JSON, hex); a reuse of Key with other params is refused.
	Hash string `json:"hash,omitempty"`
}

// State is the whole project state: what .planls/state.json holds.
// The empty state is {Version: SchemaVersion, NextID: 1}.
type State struct {
	Version   int           `json:"version"`
	Revision  int64         `json:"revision"` // +1 per committed change (the store sets it)
	NextID    int           `json:"nextId"`
	Plan      *PlanRef      `json:"plan,omitempty"`
	Tasks     []Task        `json:"tasks"`               // sorted by id
	Mutations []MutationKey `json:"mutations,omitempty"` // recent idempotency keys, oldest first
	// LastDeleteAll is the ids the last delete_all tombstoned: what a restore
	// without ids brings back.
	LastDeleteAll []int `json:"lastDeleteAll,omitempty"`
	// Cleared is what the last clear dropped, the records as they were
	// (tombstones among them), in id order: the tombstones of a clear. The
	// seed's clear drops them from Tasks, and with them their ids, which
	// later tasks may reuse; a restore without ids (when no delete_all is
	// left to undo) brings them back, under new ids where theirs are taken.
	// Each clear replaces it; details never show it.
	Cleared []Task `json:"cleared,omitempty"`
}

// PlanPath is the approved plan file's path as State.Plan records it
// (slash-separated, relative to the root); "" when st is nil or no plan
// is approved.
func (st *State) PlanPath() string {
	if st == nil || st.Plan == nil {
		return ""
	}
	return st.Plan.Path
}

// Empty returns the empty state.
func Empty() *State { return &State{Version: SchemaVersion, NextID: 1, Tasks: []Task{}} }

// ForDetails is p as the envelope's details.plan shows it: without Outside,
// which only planls reads. nil stays nil; p is not changed.
func (p *PlanRef) ForDetails() *PlanRef {
	if p == nil || p.Outside == "" {
		return p
	}
	c := *p
	c.Outside = ""
	return &c
}
