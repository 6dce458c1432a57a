package core

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/planls/planls/planparse"
)

// PlanID returns the id of a plan's markdown: "sha256:" + lowercase hex of
// its bytes after a leading UTF-8 BOM, so the file saved with a BOM and an
// editor's buffer of it (which drops the BOM) are the same plan.
func PlanID(src []byte) string { return rawPlanID(bytes.TrimPrefix(src, utf8BOM)) }

// PlanMatches reports whether src is the plan approved as id. It also
// accepts the id of the bytes with their BOM, as planls computed it before
// ignoring the BOM, so a plan approved then needs no second approval.
func PlanMatches(src []byte, id string) bool {
	return PlanID(src) == id || (bytes.HasPrefix(src, utf8BOM) && rawPlanID(src) == id)
}

func rawPlanID(src []byte) string {
	sum := sha256.Sum256(src)
	return "sha256:" + hex.EncodeToString(sum[:])
}

var utf8BOM = []byte("\xEF\xBB\xBF")

// itemKey is a plan item's identity for reconciliation: full scope, subject
// and planText, compared exactly (docs/PLAN-FORMAT.md
// "Approval and re-approval") but for the marks of the task boxes in
// planText (ticking an item's sub-check is progress, not a new item) and
// headings' sequence numbers (see keyOf). A struct of the item's own strings hashes without
// building a new string, except to join a scope deeper than one heading.
type itemKey struct {
	depth                    int // len(scope): tells no scope from one empty heading
	scope, subject, planText string
}

// A heading's sequence number is no part of its key either
// (planparse.Unnumbered): the headings of the scope, and the subject of an
// item made from its own heading (its subject is the last heading of its
// scope), so inserting a "### 1." step before the others and renumbering
// them keeps every later step. A bullet's subject keeps its numbers: "Phase
// 2 migration" and "Phase 3 migration" are different work.
func keyOf(scope []string, subject, planText string) itemKey {
	k := itemKey{depth: len(scope), subject: keyText(subject), planText: keyText(untickedLines(planText))}
	if n := len(scope); n > 0 && scope[n-1] == subject {
		k.subject = keyText(planparse.Unnumbered(subject))
	}
	switch len(scope) {
	case 0:
	case 1:
		k.scope = keyText(planparse.Unnumbered(scope[0]))
	default:
		k.scope = keyText(joinUnnumbered(scope))
	}
	return k
}

// joinUnnumbered is scope's headings, each planparse.Unnumbered, joined
// by NUL; one allocation, as strings.Join's.
func joinUnnumbered(scope []string) string {
	var b strings.Builder
	n := len(scope)
	for _, h := range scope {
		n += len(h)
	}
	b.Grow(n)
	for i, h := range scope {
		if i > 0 {
			b.WriteByte(0)
		}
		b.WriteString(planparse.Unnumbered(h))
	}
	return b.String()
}

func taskKey(t *Task) itemKey { return keyOf(t.PlanScope, t.Subject, t.PlanText) }

// refreshText gives kept plan item t the text of it, the item of the plan
// approved now that has t's key, where the two differ in what the key
// leaves out (a heading's renumbering, a ticked sub-check, Unicode
// normalization): the task then reads as the plan file does. It reports
// whether anything changed.
func refreshText(t *Task, it *planparse.Item) bool {
	subject := strings.TrimSpace(it.Subject)
	if t.Subject == subject && t.PlanText == it.PlanText && t.PlanGroup == it.Group && slices.Equal(t.PlanScope, it.Scope) {
		return false
	}
	t.Subject, t.PlanText, t.PlanGroup = subject, it.PlanText, it.Group
	t.PlanScope = nil
	if len(it.Scope) > 0 {
		t.PlanScope = append([]string(nil), it.Scope...)
	}
	return true
}

// UsableItems are the indexes into plan.Items of the items that can become
// plan items, in order: an item with a blank subject is not one
// (docs/PLAN-FORMAT.md, `empty-item`). A nil plan has none.
func UsableItems(plan *planparse.Plan) []int {
	var idx []int
	if plan == nil {
		return idx
	}
	for i := range plan.Items {
		if strings.TrimSpace(plan.Items[i].Subject) != "" {
			idx = append(idx, i)
		}
	}
	return idx
}

// Approve turns a parsed plan into plan items (docs/PLAN-FORMAT.md
// "Approval and re-approval"). src is the plan's markdown (its sha256 is the plan id);
// path is the plan file relative to the workspace root, slash-separated.
// Approving the same content again is a no-op (Changed false, text
// `Plan "<title>" is already approved: <n> plan items`). Unchanged
// items keep their id and state; an item whose key is a tombstoned plan
// item's is restored (same id, its evidence or reason and the status they
// prove, see PreviewApproval); other items get new ids from nextId; old plan
// items no longer in the plan are tombstoned and edges to them dropped.
// Items with a blank subject are skipped. Text:
// `Approved plan "<title>": <n> plan items (<k> kept, <m> new, <r> removed)`,
// with `, <s> restored` appended inside the parentheses when s > 0.
// Refused (Error envelope) when opts.ReadOnly.
func Approve(in *State, plan *planparse.Plan, src []byte, path string, opts Options) Result {
	view := sortedView(in)
	orig := cmp.Or(in, view)
	id := PlanID(src)
	title := "plan"
	if plan != nil && plan.Title != "" {
		title = plan.Title
	}
	rawParams, _ := json.Marshal(map[string]string{"planId": id, "path": path})
	const action = "approve"
	if opts.ReadOnly {
		return fail(orig, view, action, rawParams, fmt.Errorf("read-only: this server only reads (planls mcp --read-only): list and get work, approve does not; ask the user to make the change, or to serve planls without --read-only"))
	}
	if view.Plan != nil && view.Plan.ID == id {
		_, total := PlanCounts(view)
		text := fmt.Sprintf("Plan \"%s\" is already approved: %s", sanitize(view.Plan.Title), CountNoun(total, "plan item"))
		if path == "" || path == view.Plan.Path {
			return success(orig, view, action, rawParams, text, false)
		}
		// The same content approved from another file: the items stay as they
		// are, but editors and `planls check` must now read the new file.
		moved := *view
		ref := *view.Plan
		ref.Path = path
		moved.Plan = &ref
		return success(&moved, &moved, action, rawParams, text+"; its file is now "+path, true)
	}
	now := opts.now()
	items := UsableItems(plan)

	at := pairApproval(view, plan, items)

	w := cloneState(view)
	keptIdx := make([]bool, len(w.Tasks)) // by index into w.Tasks: kept or restored plan items
	nextID := w.nextFreeID()
	fresh := make([]Task, 0, len(items))
	kept, restored := 0, 0
	for j, i := range items {
		it := &plan.Items[i]
		if ti := at[j]; ti >= 0 {
			keptIdx[ti] = true
			t := &w.Tasks[ti]
			if t.Status == Deleted {
				t.Status, t.DeletedFrom, t.PlanOrder = restoredStatus(t), "", j+1
				t.bump(now)
				restored++
				continue
			}
			t.PlanOrder = j + 1 // order only: not a change of the task's content
			if refreshText(t, it) {
				t.bump(now)
			}
			kept++
			continue
		}
		t := Task{
			ID:        nextID,
			Subject:   strings.TrimSpace(it.Subject),
			Status:    Pending,
			Source:    "plan",
			PlanGroup: it.Group,
			PlanText:  it.PlanText,
			PlanOrder: j + 1,
			Version:   1,
			CreatedAt: now,
			UpdatedAt: now,
		}
		if len(it.Scope) > 0 {
			t.PlanScope = append([]string(nil), it.Scope...)
		}
		nextID++
		fresh = append(fresh, t)
	}

	// Tombstone the old plan items no longer in the plan, then drop edges to them.
	removedIDs := map[int]bool{}
	for i := range w.Tasks {
		t := &w.Tasks[i]
		if t.isPlan() && t.Status != Deleted && !keptIdx[i] {
			t.Status, t.DeletedFrom = Deleted, ""
			t.bump(now)
			removedIDs[t.ID] = true
		}
	}
	if len(removedIDs) > 0 {
		for i := range w.Tasks {
			t := &w.Tasks[i]
			var deps []int
			dropped := false
			for _, d := range t.BlockedBy {
				if removedIDs[d] {
					dropped = true
					continue
				}
				deps = append(deps, d)
			}
			if dropped {
				t.BlockedBy = deps
				t.bump(now)
			}
		}
	}
	if len(fresh) > 0 {
		all := make([]Task, 0, len(w.Tasks)+len(fresh))
		w.Tasks = append(append(all, w.Tasks...), fresh...)
	}
	w.NextID = nextID
	w.Plan = &PlanRef{ID: id, Title: title, Path: path, ApprovedAt: now, TextID: textID(src), Outside: outsideHashes(src, plan)}
	counts := fmt.Sprintf("%d kept, %d new, %d removed", kept, len(fresh), len(removedIDs))
	if restored > 0 {
		counts += fmt.Sprintf(", %d restored", restored)
	}
	text := fmt.Sprintf("Approved plan \"%s\": %s (%s)", sanitize(title), CountNoun(len(items), "plan item"), counts)
	return success(w, w, action, rawParams, text, true)
}

// CountNoun writes n and the noun, plural unless n is 1 ("1 plan item",
// "7 plan items", "2 entries": a final y becomes ies). Only planls's own
// texts use it: the seed's strings keep their fixed wording ("Cleared 1 tasks").
func CountNoun(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if stem, ok := strings.CutSuffix(noun, "y"); ok {
		return fmt.Sprintf("%d %sies", n, stem)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
