package mcp

import (
	"encoding/json"

	"github.com/planls/planls/core"
)

// toolName is the one tool the server offers (both seeds call it `todo`).
const toolName = "todo"

// toolDescription is what an agent reads before its first call. It carries
// the working rules of rpiv-todo's prompt guidance and the MCP todo tool's "list before
// adding" advice, kept short because clients put it in every prompt.
const toolDescription = `Track this project's plan items and todos. The state lives in .planls/state.json and is shared with the planls language server and CLI, so every editor sees your changes.
Rules:
- List open items first ({"action":"list"}) before adding any; never create a duplicate of a plan item.
- Keep exactly one item in_progress; mark an item completed as soon as it is done, not in batches.
- Completing needs evidence: {"action":"update","id":3,"status":"completed","evidence":"abc1234: ` + "`go test ./...`" + ` passes"} (or {"action":"complete","id":3,"evidence":...}). Never complete with failing tests.
- Good evidence names what can be checked (planls verify checks it): a commit id (abc1234), a file path with an optional line (internal/ratelimit/bucket.go:42), a test (TestBucketRefill, pkg/foo_test.go:TestBar), a command in backticks with its result (` + "`go test ./...`" + ` passes, ` + "`npm test`" + `: 42 passed). "done", "fixed" or "works now" is accepted but flagged weak-evidence.
- Plan items (source "plan", from the approved PLAN.md) are completed with evidence or deferred with a reason ({"status":"deferred","reason":...}); they are never deleted, and never reported done while open.
- Use "ops":[...] for an atomic batch. Lists are paged: "limit" (default 20) and "cursor"; rows are one line ("fields":["evidence","planText"] adds those; "group" filters by plan heading).
- delete_all needs an explicit user request and "confirm_delete_all":true; it is recoverable with {"action":"restore"}.`

// readOnlyNote leads the description on a --read-only server.
const readOnlyNote = "This server is read-only: only list and get are allowed; every change is refused.\n"

// fieldSchemas are the per-call fields shared by the top level and by each
// element of `ops`: rpiv-todo's parameters, then the MCP todo tool's additions.
func fieldSchemas() map[string]any {
	str := func(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }
	ints := func(desc string) map[string]any {
		return map[string]any{"type": "array", "items": map[string]any{"type": "integer"}, "description": desc}
	}
	return map[string]any{
		"action": map[string]any{
			"type":        "string",
			"enum":        []string{"create", "update", "complete", "list", "get", "delete", "clear", "delete_all", "restore"},
			"description": "what to do; omit when passing ops",
		},
		// rpiv-todo's reference
		"id":              map[string]any{"type": "integer", "description": "task id (update, complete, get, delete)"},
		"subject":         str("task text (create); plan items' text cannot change"),
		"blockedBy":       ints("initial dependency ids (create)"),
		"description":     str("long-form detail (create, update)"),
		"activeForm":      str("present-continuous label shown while in_progress"),
		"owner":           str("agent or person assigned"),
		"metadata":        map[string]any{"type": "object", "description": "merged key by key on update; a null value deletes that key"},
		"evidence":        str("required to complete: the check that proves it, naming what can be verified: a commit id, a file path (path:line), a test name, a command in backticks with its result"),
		"reason":          str("required to defer: why it is descoped"),
		"addBlockedBy":    ints("dependency ids to add (update)"),
		"removeBlockedBy": ints("dependency ids to remove (update)"),
		"status": map[string]any{
			"type":        "string",
			"enum":        []string{"pending", "in_progress", "completed", "deferred", "deleted"},
			"description": "update: the new status; list: a status filter",
		},
		"includeDeleted": map[string]any{"type": "boolean", "description": "list: show tombstones (default false)"},
		// the MCP todo tool's reference
		"todo_id":     str("task id as a string, same as id"),
		"ids":         ints("restore: the ids to bring back (default: everything the last delete_all removed)"),
		"content":     str("task text, same as subject; must match title when both are given"),
		"title":       str("task text, same as subject; must match content when both are given"),
		"priority":    str("task priority"),
		"due_at":      str("due time: RFC 3339, or YYYY-MM-DD read in owner_timezone"),
		"note":        str("handoff note"),
		"item_status": str("list filter: open, pending, in_progress, completed, deferred, deleted or all"),
		"due_before":  str("list filter: due before this time (RFC 3339 or YYYY-MM-DD)"),
		"search":      str("list filter: text search; same as query"),
		"query":       str("list filter: text search; same as search"),
		"limit":       map[string]any{"type": "integer", "minimum": 1, "description": "list page size (default 20)"},
		"cursor":      str("list: nextCursor of the previous page"),
		"fields": map[string]any{
			"type":        "array",
			"items":       map[string]any{"type": "string", "enum": append(append([]string{}, core.RowFields...), "all")},
			"description": "list: what rows show below their line (default none; get shows a task whole); a page stays under 32 KiB and its cursor goes on",
		},
		"group":              str("list filter: plan items under this heading of the plan (its name, any case)"),
		"owner_timezone":     str("IANA time zone for date-only due_at and due_before"),
		"client_mutation_id": str("idempotency key for create/update: a retry returns the first result and applies nothing twice"),
		"expected_version":   map[string]any{"type": "integer", "minimum": 1, "description": "update: the task's version you last saw; a different current version is a conflict"},
		"confirm_delete_all": map[string]any{"type": "boolean", "description": "must be true for delete_all (recoverable soft delete)"},
		"project_id":         str("this project's id (planls status shows it); a different id is refused"),
	}
}

// inputSchema is the tool's JSON Schema (2020-12). It documents every field
// but requires none: `action` and `ops` are alternatives, and core reports
// missing or conflicting fields with the seed's exact messages, which an
// agent can act on better than a schema validator's.
func inputSchema() json.RawMessage {
	props := fieldSchemas()
	props["ops"] = map[string]any{
		"type":        "array",
		"minItems":    1,
		"items":       map[string]any{"type": "object", "properties": fieldSchemas()},
		"description": "atomic batch instead of action: each element is one call's action and fields; the first invalid op rejects the whole batch",
	}
	b, err := json.Marshal(map[string]any{"type": "object", "properties": props})
	if err != nil {
		panic(err) // a static map of strings cannot fail to marshal
	}
	return b
}
