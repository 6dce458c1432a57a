package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/planls/planls/core"
	"github.com/planls/planls/planparse"
	"github.com/planls/planls/store"
)

// dryRun prints what approving the plan file at abs would track, without
// approving it: the items grouped by heading path with their
// 1-based lines, what a re-approval keeps ("#N kept"), brings back from a
// tombstone ("#N restored, completed") and what is new, then
// the sections that give no items and why, and the approved plan items the
// approval would tombstone with what they keep. It writes nothing. When
// approve with the same force and replace flags would refuse the file (not
// text, nothing to track, or another plan file dropping approved items), the
// error is exit 1, as approve's refusal is.
func dryRun(out io.Writer, st *store.Store, abs string, force, replace bool) error {
	src, err := os.ReadFile(abs)
	if err != nil {
		return fail(fmt.Errorf("read plan: %w", err))
	}
	name := displayPath(abs, st.Root)
	if msg := store.NotText(src); msg != "" {
		// Parsed anyway, such a file reads as no items under a title of raw
		// bytes: say what approve will say instead.
		return &exitErr{code: exitRejected, err: fmt.Errorf("dry run: approving would be refused: %s", store.NotTextRefusal(name, msg))}
	}
	state, err := st.Read()
	if err != nil {
		return fail(err)
	}
	plan := planparse.Parse(src)
	marks := map[int]string{} // item index → what approving does with it
	for _, c := range core.PreviewApproval(state, plan) {
		switch c.Kind {
		case core.Kept:
			marks[c.Item] = fmt.Sprintf("#%d kept", c.TaskID)
		case core.Restored:
			marks[c.Item] = fmt.Sprintf("#%d restored, %s", c.TaskID, c.Status)
		}
	}
	usable := core.UsableItems(plan)
	n := len(usable)
	fmt.Fprintf(out, "Dry run: approving %s (%q) would track %s; nothing is written.\n", name, core.NoControls(plan.Title), core.CountNoun(n, "plan item"))
	refused := n == 0 && !force
	gone := core.Dropped(state, plan)
	if rel, err := filepath.Rel(st.Root, abs); err == nil && state.Plan != nil && state.Plan.Path != "" && state.Plan.Path != filepath.ToSlash(rel) {
		if len(gone) > 0 {
			refused = refused || !force && !replace
			fmt.Fprintf(out, "Refused without --replace: %s\n", core.NoControls(store.ReplacingPlan(state, filepath.ToSlash(rel), gone)))
		}
	}
	lines := planparse.NewLines(src)
	group := "\x00"
	for _, i := range usable {
		it := &plan.Items[i]
		if g := strings.Join(it.Scope, " › "); g != group {
			group = g
			if g == "" {
				g = "(no heading)"
			}
			fmt.Fprintf(out, "\n%s\n", core.NoControls(plainScope(it.Scope, g)))
		}
		mark := "new"
		if m, ok := marks[i]; ok {
			mark = m
		}
		line, _ := lines.LineCol(it.Line.Start)
		// The mark before the subject: a subject may end in "(new)" itself.
		fmt.Fprintf(out, "  line %d (%s): %s\n", line, mark, core.NoControls(planparse.Display(it.Subject, it.PlanText)))
	}
	if skipped := plan.Unread(); len(skipped) > 0 {
		fmt.Fprintf(out, "\nSkipped:\n")
		for _, h := range skipped {
			line, _ := lines.LineCol(h.Range.Start)
			// The reason follows a colon, so a heading's own closing colon
			// ("## Goal:") would print as "Goal::".
			heading := strings.TrimRight(planparse.Display(h.Text, ""), ":：")
			fmt.Fprintf(out, "  line %d: %s %s: %s\n", line, strings.Repeat("#", h.Level), core.NoControls(heading), h.Reason())
		}
	}
	if len(gone) > 0 {
		// A reworded heading is a new item: say which approved items, with
		// their evidence or reason, leave before the user approves.
		fmt.Fprintf(out, "\nLeaves the approved plan (removed, reworded or moved to another heading):\n")
		for _, t := range gone {
			fmt.Fprintf(out, "  #%d %s (%s)\n", t.ID, fmt.Sprintf("%q", core.NoControls(planparse.Display(t.Subject, t.PlanText))), store.LeftState(t.Status))
		}
	}
	if n == 0 {
		fmt.Fprintf(out, "\nNothing to track: approving it would be refused (approve --force approves it anyway).\n")
	}
	if refused {
		// Exit 1 as approve itself would, so a script can gate on the dry run.
		return silentExit(exitRejected)
	}
	return nil
}

// plainScope renders a heading path for people; def when it is empty.
func plainScope(scope []string, def string) string {
	if len(scope) == 0 {
		return def
	}
	parts := make([]string, len(scope))
	for i, s := range scope {
		parts[i] = planparse.Display(s, "")
	}
	return strings.Join(parts, " › ")
}
