package core

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/planls/planls/planparse"
)

func planID(src []byte) string { return rawPlanID(bytes.TrimPrefix(src, utf8BOM)) }

func rawPlanID(src []byte) string {
	sum := sha256.Sum256(src)
	return "sha256:" + hex.EncodeToString(sum[:])
}

var utf8BOM = []byte("\xEF\xBB\xBF")

// itemKey is a plan item's identity for reconciliation: full scope, subject
// and planText, compared exactly (planls-rules.md "Approval and
// reconciliation"). A struct of the item's own strings hashes without
// building a new string, except to join a scope deeper than one heading.
type itemKey struct {
	depth                    int // len(scope): tells no scope from one empty heading
	scope, subject, planText string
}

func keyOf(scope []string, subject, planText string) itemKey {
	k := itemKey{depth: len(scope), subject: keyText(subject), planText: keyText(planText)}
	switch len(scope) {
	case 0:
	case 1:
		k.scope = keyText(scope[0])
	default:
		k.scope = keyText(strings.Join(scope, "\x00"))
	}
	return k
}

func taskKey(t *Task) itemKey { return keyOf(t.PlanScope, t.Subject, t.PlanText) }

// usableItems are the plan's items that can become plan items: an item with a
// blank subject is not one (planls-rules.md rule 4, `empty-item`).
func usableItems(plan *planparse.Plan) []int {
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

// approve is Approve: see api.go. The result text is
// `Approved plan "<title>": <n> plan items (<kept> kept, <new> new, <removed> removed)`,
// and `Plan "<title>" is already approved: <n> plan items` for the same
// content again (a no-op).
func approve(in *State, plan *planparse.Plan, src []byte, path string, opts Options) Result {
	view := sortedView(in)
	orig := in
	if orig == nil {
		orig = view
	}
	id := planID(src)
	title := "plan"
	if plan != nil && plan.Title != "" {
		title = plan.Title
	}
	rawParams, _ := json.Marshal(map[string]string{"planId": id, "path": path})
	const action = "approve"
	if opts.ReadOnly {
		return fail(orig, view, action, rawParams, fmt.Errorf("read-only: this server has only the memory:read scope; approve needs memory:write"))
	}
	if view.Plan != nil && view.Plan.ID == id {
		_, total := planCounts(view)
		text := fmt.Sprintf("Plan \"%s\" is already approved: %s", sanitize(view.Plan.Title), countNoun(total, "plan item"))
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
	items := usableItems(plan)

	// Pair by key and order (issue 10): the k-th new item with a key keeps
	// the k-th approved item with that key, in plan order, so identical
	// bullets each keep their own id and status. Keys compare as a reader
	// sees the text (keyText: NFC, no variation selectors or BOM).
	var olds []int
	for i := range view.Tasks {
		if t := &view.Tasks[i]; t.isPlan() && t.Status != Deleted {
			olds = append(olds, i)
		}
	}
	for i := 1; i < len(olds); i++ {
		if planBefore(&view.Tasks[olds[i]], &view.Tasks[olds[i-1]]) {
			sort.SliceStable(olds, func(a, b int) bool { return planBefore(&view.Tasks[olds[a]], &view.Tasks[olds[b]]) })
			break
		}
	}
	// head[k] is the first old item (index into olds) with key k not yet
	// kept, next[j] the one after olds[j] with the same key (-1: none).
	head := make(map[itemKey]int32, len(olds))
	next := make([]int32, len(olds))
	for j := len(olds) - 1; j >= 0; j-- {
		k := taskKey(&view.Tasks[olds[j]])
		next[j] = -1
		if h, ok := head[k]; ok {
			next[j] = h
		}
		head[k] = int32(j)
	}

	w := cloneState(view)
	keptIdx := make([]bool, len(w.Tasks)) // by index into w.Tasks: kept plan items
	nextID := w.nextFreeID()
	fresh := make([]Task, 0, len(items))
	kept := 0
	for j, i := range items {
		it := &plan.Items[i]
		k := keyOf(it.Scope, strings.TrimSpace(it.Subject), it.PlanText)
		if h, ok := head[k]; ok {
			ti := olds[h]
			if next[h] >= 0 {
				head[k] = next[h]
			} else {
				delete(head, k)
			}
			keptIdx[ti] = true
			w.Tasks[ti].PlanOrder = j + 1 // order only: not a change of the task's content
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
			nt := *t
			nt.Status = Deleted
			nt.DeletedFrom = ""
			nt.Version++
			nt.UpdatedAt = now
			*t = nt
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
				nt := *t
				nt.BlockedBy = deps
				nt.Version++
				nt.UpdatedAt = now
				*t = nt
			}
		}
	}
	if len(fresh) > 0 {
		all := make([]Task, 0, len(w.Tasks)+len(fresh))
		w.Tasks = append(append(all, w.Tasks...), fresh...)
	}
	w.NextID = nextID
	w.Plan = &PlanRef{ID: id, Title: title, Path: path, ApprovedAt: now, TextID: textID(src)}
	text := fmt.Sprintf("Approved plan \"%s\": %s (%d kept, %d new, %d removed)",
		sanitize(title), countNoun(len(items), "plan item"), kept, len(fresh), len(removedIDs))
	res := success(w, w, action, rawParams, text, true)
	return res
}

// countNoun writes n and the noun, plural unless n is 1 ("1 plan item",
// "7 plan items"). Only planls's own texts use it: the seed's strings keep
// their fixed wording ("Cleared 1 tasks").
func countNoun(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
