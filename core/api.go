package core

import (
	"bytes"

	"github.com/planls/planls/planparse"
)

// The functions below are the public surface of core that store, lsp, mcp and
// the CLI build on. Their bodies live in the files named after each concern.

// Approve turns a parsed plan into plan items (planls-rules.md "Approval and
// reconciliation"). src is the plan's markdown (its sha256 is the plan id);
// path is the plan file relative to the workspace root, slash-separated.
// Approving the same content again is a no-op (Changed false). Unchanged
// items keep their id and state; an item whose key is a tombstoned plan
// item's is restored (same id, its evidence or reason and the status they
// prove, see PreviewApproval); other items get new ids from nextId; old plan
// items no longer in the plan are tombstoned and edges to them dropped.
// Items with a blank subject are skipped. Text:
// `Approved plan "<title>": <n> plan items (<k> kept, <m> new, <r> removed)`,
// with `, <s> restored` appended inside the parentheses when s > 0.
// Refused (Error envelope) when opts.ReadOnly.
func Approve(st *State, plan *planparse.Plan, src []byte, path string, opts Options) Result {
	return approve(st, plan, src, path, opts)
}

// PlanID returns the id of a plan's markdown: "sha256:" + lowercase hex of
// its bytes after a leading UTF-8 BOM, so the file saved with a BOM and an
// editor's buffer of it (which drops the BOM) are the same plan.
func PlanID(src []byte) string { return planID(src) }

// PlanMatches reports whether src is the plan approved as id. It also
// accepts the id of the bytes with their BOM, as planls computed it before
// ignoring the BOM, so a plan approved then needs no second approval.
func PlanMatches(src []byte, id string) bool {
	return planID(src) == id || (bytes.HasPrefix(src, utf8BOM) && rawPlanID(src) == id)
}

// DriftKind says how a bullet of the current PLAN.md relates to the approved plan.
type DriftKind int

const (
	// Same: the item matches an approved plan item exactly (scope, subject, planText).
	Same DriftKind = iota
	// Changed: the item is at the place of an approved item whose text differs.
	Changed
	// New: the item is not in the approved plan.
	New
)

// ItemMatch links one parsed item (index into Plan.Items) to a task.
type ItemMatch struct {
	Item   int // index into plan.Items
	TaskID int // the matched plan item's id; 0 when Kind is New
	Kind   DriftKind
}

// MatchPlan links the items of the current plan file to the approved plan items
// in st, so editors can place diagnostics on them and report drift. Missing is
// the ids of approved, non-deleted plan items that no parsed item matched.
func MatchPlan(st *State, plan *planparse.Plan) (matches []ItemMatch, missing []int) {
	return matchPlan(st, plan)
}

// Reminder returns the wrap-up reminder text of todo-behaviour.md §7 for the
// open plan items ("Plan check: the approved plan ..."), or "" when no plan
// item is pending or in_progress.
func Reminder(st *State) string { return reminder(st) }

// Validate checks a state read from disk (all-or-nothing, todo-behaviour.md §8):
// errors are fatal shape problems (duplicate ids, ids below 1, unknown
// statuses, nextId not above every id, plan items without a subject, a newer
// schema version); warnings are dangling blockedBy ("#1: blockedBy #5 not
// found") and cycles ("cycle: #2 → #3 → #2"), reported but kept. st is not changed.
func Validate(st *State) (errs []string, warnings []string) { return validate(st) }
