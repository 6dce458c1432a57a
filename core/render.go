package core

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// sanitize makes stored text safe to print on one terminal line: control
// characters (C0, DEL, C1), line and paragraph separators and bidi controls
// become spaces (the seed's plan items: the stored text is
// unchanged; rpiv-mono issues #151/#152). Plain text is returned as is.
func sanitize(s string) string {
	if !strings.ContainsFunc(s, unsafeRune) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if unsafeRune(r) {
			return ' '
		}
		return r
	}, s)
}

func unsafeRune(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r == 0x2028, r == 0x2029:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// idList renders ids as "#1<sep>#2".
func idList(ids []int, sep string) string {
	var b strings.Builder
	for i, id := range ids {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteByte('#')
		b.WriteString(strconv.Itoa(id))
	}
	return b.String()
}

// joinInts renders ids as bare numbers ("1,2"), for JSON snippets in texts.
func joinInts(ids []int, sep string) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.Itoa(id)
	}
	return strings.Join(parts, sep)
}

// planHeader is `Plan: <title> -- <open>/<total> plan items open`, or ""
// when no plan is set or it has no live plan item (the seed's content strings).
func planHeader(st *State) string {
	if st.Plan == nil {
		return ""
	}
	open, total := PlanCounts(st)
	if total == 0 {
		return ""
	}
	return fmt.Sprintf("Plan: %s -- %d/%d plan items open", sanitize(st.Plan.Title), open, total)
}

// PlanLabel is a plan title as people read it after a "Plan: " label of
// their own: without the "Plan:" it may start with (as Claude Code's plans
// do), trimmed; a title that is only "Plan:" stays as it is.
func PlanLabel(title string) string {
	if rest, ok := strings.CutPrefix(title, "Plan:"); ok && strings.TrimSpace(rest) != "" {
		return strings.TrimSpace(rest)
	}
	return title
}

// PlanCounts counts st's live plan items (tombstones left out): total, and
// open, those pending or in_progress.
func PlanCounts(st *State) (open, total int) {
	for i := range st.Tasks {
		t := &st.Tasks[i]
		if t.Source != "plan" || t.Status == Deleted {
			continue
		}
		total++
		if t.Status.Open() {
			open++
		}
	}
	return open, total
}

// RowFields are the fields a list row can show below its line, in the
// order it shows them (the `fields` parameter of list).
var RowFields = []string{"planText", "description", "note", "evidence", "reason"}

// rowShape is which fields list rows show and how long each may be.
type rowShape struct {
	seed   bool            // the seed's rows: plan text of open items, evidence, reason
	fields map[string]bool // otherwise, the fields named
	clip   int             // bytes per field; 0 = whole
}

// shapeFor is a list call's row shape: named fields when it gave fields,
// none under Options.CompactRows, else the seed's.
func shapeFor(p ListOp, opts Options) rowShape {
	sh := rowShape{clip: opts.FieldBytes}
	if p.Fields == nil && !opts.CompactRows {
		sh.seed = true
		return sh
	}
	sh.fields = map[string]bool{}
	for _, f := range p.Fields {
		sh.fields[f] = true
	}
	return sh
}

// names lists the fields a non-seed shape shows, in RowFields order.
func (sh rowShape) names() []string {
	var out []string
	for _, f := range RowFields {
		if sh.fields[f] {
			out = append(out, f)
		}
	}
	return out
}

func (sh rowShape) shows(field string, t *Task) bool {
	if sh.seed {
		return field == "evidence" || field == "reason" || (field == "planText" && t.Status.Open())
	}
	return sh.fields[field]
}

// listRow renders one task of st for list (the seed's list row), followed
// by the MCP seed's priority and due date when set, then the fields sh
// shows. The ⛓ names only the blockers still open (pending or in
// progress): a completed one no longer holds the task, and showing it
// says the task still waits.
func listRow(b *strings.Builder, st *State, t *Task, sh rowShape) {
	fmt.Fprintf(b, "[%s] #%d %s", statusLabel(t), t.ID, sanitize(t.Subject))
	if t.Status == InProgress && t.ActiveForm != nil && *t.ActiveForm != "" {
		fmt.Fprintf(b, " (%s)", sanitize(*t.ActiveForm))
	}
	var waits []int
	for _, d := range t.BlockedBy {
		if u := st.task(d); u == nil || u.Status.Open() {
			waits = append(waits, d)
		}
	}
	if len(waits) > 0 {
		b.WriteString(" ⛓ ")
		b.WriteString(idList(waits, ","))
	}
	if t.Source == "plan" {
		if t.PlanGroup != "" {
			fmt.Fprintf(b, " [plan: %s]", sanitize(t.PlanGroup))
		} else {
			b.WriteString(" [plan]")
		}
	}
	if t.Priority != "" {
		fmt.Fprintf(b, " [priority: %s]", t.Priority)
	}
	if t.DueAt != "" {
		fmt.Fprintf(b, " [due: %s]", t.DueAt)
	}
	if t.PlanText != "" && sh.shows("planText", t) {
		indented(b, "    ", Clip(t.PlanText, sh.clip))
	}
	field := func(name, label, v string) {
		if v != "" && sh.shows(name, t) {
			fmt.Fprintf(b, "\n    %s: %s", label, sanitize(Clip(v, sh.clip)))
		}
	}
	if t.Description != nil {
		field("description", "description", *t.Description)
	}
	field("note", "note", t.Note)
	field("evidence", "evidence", t.Evidence)
	field("reason", "deferred", t.Reason)
}

// Clip cuts s to at most n bytes (on a rune boundary) ending in "…", or
// returns it whole when it fits or n <= 0.
func Clip(s string, n int) string {
	if n <= 0 || len(s) <= n {
		return s
	}
	const ell = "…"
	cut := max(n-len(ell), 0)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + ell
}

// indented writes each line of text on its own line after prefix.
func indented(b *strings.Builder, prefix, text string) {
	for _, line := range strings.Split(text, "\n") {
		b.WriteByte('\n')
		b.WriteString(prefix)
		b.WriteString(sanitize(line))
	}
}

// renderGet renders one task for get (the seed's content strings); the MCP
// seed's priority, due date and note come after owner.
func renderGet(st *State, t *Task) string {
	var b strings.Builder
	fmt.Fprintf(&b, "#%d [%s] %s", t.ID, statusLabel(t), sanitize(t.Subject))
	line := func(label string, v *string) {
		if v != nil && *v != "" {
			fmt.Fprintf(&b, "\n  %s: %s", label, sanitize(*v))
		}
	}
	line("description", t.Description)
	line("activeForm", t.ActiveForm)
	if len(t.BlockedBy) > 0 {
		fmt.Fprintf(&b, "\n  blockedBy: %s", idList(t.BlockedBy, ", "))
	}
	var blocks []int
	for i := range st.Tasks {
		if slices.Contains(st.Tasks[i].BlockedBy, t.ID) {
			blocks = append(blocks, st.Tasks[i].ID)
		}
	}
	if len(blocks) > 0 {
		fmt.Fprintf(&b, "\n  blocks: %s", idList(blocks, ", "))
	}
	line("owner", t.Owner)
	if t.Priority != "" {
		fmt.Fprintf(&b, "\n  priority: %s", t.Priority)
	}
	if t.DueAt != "" {
		fmt.Fprintf(&b, "\n  due: %s", t.DueAt)
	}
	line("note", &t.Note)
	if t.Source == "plan" {
		if t.PlanGroup != "" {
			fmt.Fprintf(&b, "\n  plan item: %s", sanitize(t.PlanGroup))
		} else {
			b.WriteString("\n  plan item")
		}
	}
	if t.PlanText != "" {
		indented(&b, "    ", t.PlanText)
	}
	line("evidence", &t.Evidence)
	line("deferred", &t.Reason)
	return b.String()
}

// displayOrder is the order list and the reminder show tasks in: live plan
// items in plan order first (as rpiv, which numbers plan items before agent
// todos on every approval), then every other task by id. planls keeps ids
// across re-approvals, so id order alone would put a new item after older
// todos.
func displayOrder(st *State) []*Task {
	out := make([]*Task, 0, len(st.Tasks))
	for i := range st.Tasks {
		if t := &st.Tasks[i]; t.isPlan() && t.Status != Deleted {
			out = append(out, t)
		}
	}
	if !sort.SliceIsSorted(out, func(i, j int) bool { return planBefore(out[i], out[j]) }) {
		sort.SliceStable(out, func(i, j int) bool { return planBefore(out[i], out[j]) })
	}
	for i := range st.Tasks {
		if t := &st.Tasks[i]; !t.isPlan() || t.Status == Deleted {
			out = append(out, t)
		}
	}
	return out
}

// planBefore orders plan items by PlanOrder; items without one (older
// states) come after, by id.
func planBefore(a, b *Task) bool {
	switch {
	case a.PlanOrder == b.PlanOrder:
		return a.ID < b.ID
	case a.PlanOrder == 0:
		return false
	case b.PlanOrder == 0:
		return true
	}
	return a.PlanOrder < b.PlanOrder
}

// removedLabel is what a tombstoned plan item's status reads as. Plan items
// cannot be deleted (seed "Plan items"); the only way one is tombstoned is
// a re-approval of a plan that no longer holds it, so "[deleted]" would
// misstate what happened.
const removedLabel = "removed by re-approval"

// statusLabel is t's status as rows and `get` print it: the status, or
// removedLabel for a plan item's tombstone.
func statusLabel(t *Task) string {
	if t.Status == Deleted && t.Source == "plan" {
		return removedLabel
	}
	return string(t.Status)
}
