package store

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/planls/planls/core"
	"github.com/planls/planls/planparse"
)

// ApproveOptions are the store-level choices of an approval.
type ApproveOptions struct {
	// Force approves a plan with no items even though the approved plan has
	// plan items (every one of them is then tombstoned).
	Force bool
	// Replace approves a plan file other than the approved one even when
	// that drops some of the approved plan's live items (the refusal
	// ReplacingPlan gives otherwise), without Force's other effect: the
	// user chose the new plan itself, as when accepting an agent's plan in
	// its plan mode. A plan with no items is still refused.
	Replace bool
	// Source, when not nil, is the plan's text, approved for planPath
	// before the caller writes it there: a language server watching the
	// file then never sees the new text beside the old state, since the
	// file appears right after the commit, not a commit's length before it.
	Source []byte
}

// Approve parses the plan file at planPath (absolute, or relative to Root)
// and approves it through core.Approve, under the lock. Refused in-band (an
// `Error: ...` envelope with details.error set, nothing written): a plan
// file outside Root (symlinks resolved), a plan file that is not UTF-8 text
// (NUL bytes, invalid UTF-8, a UTF-16/32 byte order mark), and, unless
// aopts.Force, a plan with no items while the approved plan has plan items,
// and, unless aopts.Force or aopts.Replace, a plan file other than the
// approved one that would drop some of its live plan items (ReplacingPlan
// says which).
// After a change, the text gets one `note: ...` line per completed,
// deferred or in-progress plan item the approval tombstoned, one listing
// the open plan items a forced empty plan removed, and one per task that
// lost a blocker (see approvalNotes). The error is out-of-band only: the
// plan file cannot be read, lock timeout or ctx ended, I/O, *StateError.
func (s *Store) Approve(ctx context.Context, planPath string, opts core.Options, aopts ApproveOptions) (core.Result, error) {
	abs := planPath
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(s.Root, abs)
	}
	rel, ok := relInRoot(s.Root, abs)
	if !ok {
		// Stored as ../x, such a plan would be a different file from any
		// other checkout or working directory.
		params, _ := json.Marshal(map[string]string{"path": filepath.ToSlash(abs)})
		return s.refuse(params, fmt.Sprintf("plan file %s is outside the workspace root %s: move it under the root, or run planls in the project that holds it", filepath.ToSlash(abs), filepath.ToSlash(s.Root)))
	}
	src := aopts.Source
	if src == nil {
		var err error
		if src, err = os.ReadFile(abs); err != nil {
			return core.Result{}, fmt.Errorf("read plan: %w", err)
		}
	}
	params, _ := json.Marshal(map[string]string{"path": rel, "planId": core.PlanID(src)})
	if msg := NotText(src); msg != "" {
		// Parsed anyway, such a file yields no items (wiping the plan) or a
		// title of raw bytes.
		return s.refuse(params, NotTextRefusal(rel, msg))
	}
	plan := planparse.Parse(src)
	items := len(core.UsableItems(plan))
	return s.update(ctx, "approve", params, func(st *core.State) core.Result {
		if _, live := core.PlanCounts(st); items == 0 && !aopts.Force && live > 0 && !opts.ReadOnly {
			return core.Rejection(st, "approve", params, fmt.Sprintf("plan file %s has no plan items; approving it would remove all %s of the approved plan: fix the file, or force the approval (planls approve --force)", rel, core.CountNoun(live, "plan item")))
		}
		if items == 0 && !aopts.Force && !opts.ReadOnly && !core.PlanMatches(src, planIDOf(st)) {
			// Approved, such a plan leaves `check` and the stop hook with
			// nothing to hold the work to.
			return core.Rejection(st, "approve", params, nothingToApprove(rel))
		}
		why, replaced := "removed, reworded or moved to another heading", false
		if aopts.Replace && aopts.Source != nil {
			// New text accepted in place of the plan (an agent's plan mode).
			why, replaced = "the accepted plan replaced the approved one", true
		}
		if old := st.PlanPath(); old != "" && old != rel {
			// Another plan file would replace the approved one, and with it
			// every item the two do not share: a second plan file approved
			// by mistake would tombstone the approved plan's items.
			if gone := core.Dropped(st, plan); len(gone) > 0 && !aopts.Force && !aopts.Replace && !opts.ReadOnly {
				return core.Rejection(st, "approve", params, ReplacingPlan(st, rel, gone))
			}
			why, replaced = fmt.Sprintf("%s was replaced by %s", old, rel), true
		}
		res := core.Approve(st, plan, src, rel, opts)
		if res.Changed && res.State != nil {
			notes := approvalNotes(st, res.State, why, replaced)
			notes = append(notes, skippedNotes(src, plan)...)
			if len(notes) > 0 {
				res.Envelope.Content = []core.Content{{Type: "text", Text: res.Envelope.Text() + "\n" + strings.Join(notes, "\n")}}
			}
		}
		return res
	})
}

// relInRoot is abs relative to root, slash-separated, and whether abs lies
// under root. Paths are compared as written first, then with symlinks
// resolved, so a root reached through a symlink (/tmp → /private/tmp) still
// holds its files.
func relInRoot(root, abs string) (string, bool) {
	under := func(root, p string) (string, bool) {
		r, err := filepath.Rel(root, p)
		if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) || filepath.IsAbs(r) {
			return "", false
		}
		return filepath.ToSlash(r), true
	}
	if absRoot, err := filepath.Abs(root); err == nil {
		root = absRoot
	}
	if r, ok := under(root, abs); ok {
		return r, true
	}
	realRoot, err1 := filepath.EvalSymlinks(root)
	realAbs, err2 := filepath.EvalSymlinks(abs)
	if err1 != nil || err2 != nil {
		return "", false
	}
	return under(realRoot, realAbs)
}

// refuse answers a refused approval over the current state without taking
// the lock.
func (s *Store) refuse(params json.RawMessage, msg string) (core.Result, error) {
	st, err := s.Read()
	if err != nil {
		return core.Result{}, err
	}
	return core.Rejection(st, "approve", params, msg), nil
}

// nothingToApprove is the refusal of a plan in which planls finds no work.
func nothingToApprove(rel string) string {
	return fmt.Sprintf("plan file %s has nothing planls tracks as work. planls looks for checkboxes (- [ ] …), "+
		"bullets and numbered lists under work headings, task headings (### Task 1: …) with details under them, "+
		"prose-only work sections and front-matter todos; it skips context sections (Summary, Background, Notes, "+
		"Non-goals, …). Write the work as a list, mark a section with <!-- planls: track -->, "+
		"or approve it anyway (planls approve --force)", rel)
}

func planIDOf(st *core.State) string {
	if st == nil || st.Plan == nil {
		return ""
	}
	return st.Plan.ID
}

// skippedNotes tell the author which sections gave no items and why:
// one line per section, outermost only.
func skippedNotes(src []byte, plan *planparse.Plan) []string {
	var out []string
	for _, h := range plan.Unread() {
		out = append(out, fmt.Sprintf("skipped: %s %q (line %d): %s", strings.Repeat("#", h.Level), core.NoControls(h.Text), planparse.LineOf(src, h.Range.Start), h.Reason()))
	}
	return out
}

// ReplacingPlan is the refusal of approving the plan file rel in place of
// st's approved plan, which would drop the plan items gone
// (core.Dropped): it names the approved plan and what would be removed,
// and the two ways on.
func ReplacingPlan(st *core.State, rel string, gone []core.Task) string {
	_, live := core.PlanCounts(st)
	return fmt.Sprintf("%s is not the approved plan: %s is (%q, %s). Approving %s instead would remove %d of them (%s). "+
		"Approve %s to keep working on it, or replace it on purpose: planls approve --replace %s",
		rel, st.Plan.Path, core.NoControls(st.Plan.Title), core.CountNoun(live, "plan item"), rel, len(gone), droppedSummary(gone),
		st.Plan.Path, rel)
}

// droppedSummary is "#1–#7: 2 completed, 1 deferred, 4 open".
func droppedSummary(gone []core.Task) string {
	ids := make([]int, len(gone))
	count := map[core.Status]int{}
	for i, t := range gone {
		ids[i] = t.ID
		count[t.Status]++
	}
	var parts []string
	for _, s := range []struct {
		st   core.Status
		name string
	}{{core.Completed, "completed"}, {core.Deferred, "deferred"}, {core.InProgress, "in progress"}, {core.Pending, "pending"}} {
		if n := count[s.st]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, s.name))
		}
	}
	return core.IDRuns(ids) + ": " + strings.Join(parts, ", ")
}

// NotTextRefusal is approve's refusal of the plan file rel (slash-separated,
// relative to the workspace root) that NotText says is not text for the
// reason msg.
func NotTextRefusal(rel, msg string) string {
	return fmt.Sprintf("plan file %s is not text (%s): save it as UTF-8 and approve again", rel, msg)
}
