package core

import (
	"fmt"
	"strings"
)

// Reminder returns the seed's wrap-up reminder text (with rpiv's later
// line that the items already exist as todos) for the open plan items ("Plan check: the
// approved plan ..."), the text the seed's context hook puts in place of its
// marker; "" when no plan item is pending or in_progress. Each item's
// subject is written by subject (nil: the subject verbatim, as the seed's
// reminder has it); the Claude Code stop hook passes the subject as people
// read it (planparse.Display), so an agent that relays it shows no markdown.
func Reminder(in *State, subject func(*Task) string) string {
	if subject == nil {
		subject = func(t *Task) string { return t.Subject }
	}
	if in == nil {
		return ""
	}
	open, total := PlanCounts(in)
	if open == 0 {
		return ""
	}
	title := "plan"
	if in.Plan != nil {
		title = in.Plan.Title
	}
	item := func(t *Task) string {
		if t.PlanGroup == "" {
			return fmt.Sprintf("- #%d %s", t.ID, sanitize(subject(t)))
		}
		return fmt.Sprintf("- #%d [%s] %s", t.ID, sanitize(t.PlanGroup), sanitize(subject(t)))
	}
	var openLines, deferred []string
	for _, t := range displayOrder(in) {
		if !t.isPlan() {
			continue
		}
		switch t.Status {
		case Pending, InProgress:
			openLines = append(openLines, item(t))
		case Deferred:
			deferred = append(deferred, item(t)+" -- "+sanitize(t.Reason))
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Plan check: the approved plan \"%s\" still has %d/%d items open. Do not tell the user the work is done.\n", sanitize(title), open, total)
	b.WriteString("Open plan items:\n")
	b.WriteString(strings.Join(openLines, "\n"))
	b.WriteString("\nThese already exist as todos: update them by id (complete with evidence, or defer with a reason). Do not create new todos for them.")
	b.WriteString("\nKeep working on them now. For any item you can't finish in this run: if it is actually done, complete it with evidence; otherwise set status deferred with a reason. Then tell the user exactly which plan items are still open or deferred, and why.")
	if len(deferred) > 0 {
		b.WriteString("\nDeferred plan items (tell the user):\n")
		b.WriteString(strings.Join(deferred, "\n"))
	}
	return b.String()
}
