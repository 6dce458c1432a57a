package planparse

import (
	"strconv"
	"strings"
	"unicode"
)

// Restatement: the same work stated twice counts once, where it is first
// stated as work (docs/PLAN-FORMAT.md "Sections"). A board over the
// checkboxes above it is one such restatement (decide.go, board); a table
// whose rows point at the plan's phases or steps by number is another.

// headingIDs maps the task or group id of each heading that names one
// ("phase 2", "step 1.3", as taskID gives it) to the index of the first
// section with that id.
func (r *reader) headingIDs() map[string]int {
	if r.ids == nil {
		r.ids = r.firstSectionBy(taskID)
	}
	return r.ids
}

// firstSectionBy maps id(heading text) of each heading, where it is not
// "", to the index of the first section with that id.
func (r *reader) firstSectionBy(id func(string) string) map[string]int {
	out := map[string]int{}
	for _, s := range r.secs {
		if s.head < 0 {
			continue
		}
		if k := id(r.plan.Headings[s.head].Text); k != "" {
			if _, ok := out[k]; !ok {
				out[k] = s.idx
			}
		}
	}
	return out
}

// restatesGroups reports whether a task table in section s restates the
// plan's phases or steps: a column headed by a task or group word
// ("Phase", "Phases", "Sprint", "Step") whose cell in every data row is
// the number (or numbers: "2, 3", "2-3") of such a heading that holds work,
// no two rows naming the same one (a milestone table over "## Phase
// 0" … "## Phase 4", "| M2: Site Skeleton | 1 | COMPLETE |"), or below
// it when those hold lists of their own (a "| Phase | Goal | Status |"
// roadmap over "## Phase 1" … with their bullets). The phases hold the
// work; the table says it again. A table whose rows are the tasks of the
// phases ("| Write the parser | 2 | done |": two rows in phase 2) is not a
// restatement, nor one over headings that only detail its rows.
func (r *reader) restatesGroups(s *sec, ev *event) bool {
	if len(ev.rows) < 2 {
		return false
	}
	header := r.tableHeader(ev)
	ids := r.headingIDs()
	status := r.statusColumn(header) >= 0
	for c, h := range header {
		word := groupColumn(string(r.src[h.Start:h.End]))
		if word == "" {
			continue
		}
		if r.rowsName(s, ev, c, word, ids, status) {
			return true
		}
	}
	return false
}

// groupColumn returns the task or group word a table header cell is, in
// either number ("Phase", "Phases"), or "".
func groupColumn(cell string) string {
	h, _ := normLabel(cell)
	for _, w := range taskWords() {
		if h == w || h == w+"s" || h == w+"es" {
			return w
		}
	}
	return ""
}

// holdsWork says what section t, which a table in section s names by
// number, holds: lists of work of its own, or one item named by its
// heading (a task heading, a card of fields). Above s, t was read already
// (skipped, details, or one item); below s (not yet decided), its facts
// say: a label that skips holds neither, a task heading or a card is one
// item. Otherwise it holds lists when it or a section under it that no
// label skips has list entries or task-table rows; an empty phase holds
// nothing, and the table's row is its work.
func (r *reader) holdsWork(s, t *sec) (lists, item bool) {
	if t.idx < s.idx {
		switch t.act {
		case aSkip, aDetail:
			return false, false
		case aItem:
			return false, true
		}
	} else {
		if t.kind.skips() || r.excluded(t) {
			return false, false
		}
		if r.card(t) || r.grouping(t) && r.fields(t) || r.isTask(t) && len(t.kids) == 0 {
			return false, true
		}
	}
	for _, u := range r.secs[t.idx:] {
		if u != t && !r.within(u, t) {
			break
		}
		if u.plain+u.boxes+u.rows > 0 && !u.kind.skips() && !r.excluded(u) {
			return true, false // not "### Background" or "### Later" bullets
		}
	}
	return false, false // an empty "## Phase 2": the table's row is its work
}

// rowsName reports whether column c of every row of a table names, by
// number, a distinct heading with the given word that holds lists of work
// of its own (holdsWork), or, in a table without a status column, that is
// one item named by its heading. A status table over such headings is
// where they are ticked off (dedupe drops the heading items).
func (r *reader) rowsName(s *sec, ev *event, c int, word string, ids map[string]int, status bool) bool {
	seen := map[int]bool{}
	for i := range ev.rows {
		l := r.ln.lineOf(ev.at(ev.rows[i].item.Line).Start)
		cells := tableCells(r.ln.text(l), r.ln.start[l])
		if c >= len(cells) {
			return false
		}
		nums := cellNumbers(trimSpace(string(r.src[cells[c].Start:cells[c].End])))
		if len(nums) == 0 {
			return false
		}
		for _, n := range nums {
			k, ok := ids["\x00"+word+" "+n]
			if !ok || k == s.idx || seen[k] || r.within(s, r.secs[k]) {
				return false
			}
			if lists, item := r.holdsWork(s, r.secs[k]); !lists && (!item || status) {
				return false
			}
			seen[k] = true
		}
	}
	return true
}

// cellNumbers returns the numbers a table cell holds when it holds only
// numbers, or a number and the title after it: "1" → [1], "2, 3" and "2-3"
// → [2 3], "1: Core Script" → [1], "Phase 2" → [2]; otherwise none.
func cellNumbers(v string) []string {
	v = strings.ToLower(removeEmphasis(v))
	for _, w := range taskWords() {
		if rest, ok := strings.CutPrefix(v, w); ok && rest != "" && (rest[0] == ' ' || rest[0] >= '0' && rest[0] <= '9') {
			v = trimSpace(rest)
			break
		}
	}
	n := digits(v, 0)
	if n == 0 {
		return nil
	}
	rest := trimSpace(v[n:])
	switch {
	case rest == "":
		return []string{v[:n]}
	case rest[0] == ':' || rest[0] == '.' && len(rest) > 1 && rest[1] == ' ':
		return []string{v[:n]} // "1: Core Script", "1. Setup"
	case rest[0] == ',' || rest[0] == '-' || strings.HasPrefix(rest, "–"):
		m := trimSpace(strings.TrimLeft(rest, ",-–"))
		k := digits(m, 0)
		if k == 0 || trimSpace(m[k:]) != "" {
			return nil
		}
		a, _ := strconv.Atoi(v[:n])
		b, _ := strconv.Atoi(m[:k])
		if rest[0] == ',' || b < a || b-a > 20 {
			return []string{v[:n], m[:k]}
		}
		out := make([]string, 0, b-a+1)
		for i := a; i <= b; i++ {
			out = append(out, strconv.Itoa(i))
		}
		return out
	}
	return nil
}

// restatesTable reports whether a section's work is only task tables that
// restate the plan's phases or steps (restatesGroups): its own
// body has no list entries, its sub-sections (if any) are phases or steps
// themselves, and each of its task tables points at those headings row by
// row.
func (r *reader) restatesTable(s *sec) bool {
	if s.head < 0 || s.rows == 0 || s.plain+s.boxes > 0 {
		return false
	}
	for _, k := range s.kids {
		if !r.named(r.secs[k]) {
			return false // "### Notes" under it would be skipped with it
		}
	}
	for _, ev := range s.events {
		if ev.kind == evTable && len(ev.rows) > 0 && !r.restatesGroups(s, ev) {
			return false
		}
	}
	return true
}

// tableIDs adds to listed the ids of the headings that the task tables of
// the plan's work sections name by number and track with a status column:
// "| Step | What | Status |" over "| 2 | Schedule the job | todo |" names
// "step 2"; "| Task | Phase | Status |" names "phase 1" on each row of
// phase 1. Such a table is the list the work is ticked off in, and the
// heading sections it names are its rows' details.
func (r *reader) tableIDs(listed map[string]bool) {
	for _, s := range r.secs {
		if s.act == aSkip || s.rows == 0 {
			continue
		}
		for _, ev := range s.events {
			if ev.kind != evTable || len(ev.rows) == 0 {
				continue
			}
			header := r.tableHeader(ev)
			st := r.statusColumn(header)
			if st < 0 {
				continue
			}
			var cols []int
			var words []string
			for c, h := range header {
				if w := groupColumn(string(r.src[h.Start:h.End])); w != "" && c != st {
					cols, words = append(cols, c), append(words, w)
				}
			}
			for i := range ev.rows {
				l := r.ln.lineOf(ev.at(ev.rows[i].item.Line).Start)
				cells := tableCells(r.ln.text(l), r.ln.start[l])
				for j, c := range cols {
					if c >= len(cells) {
						continue
					}
					for _, n := range cellNumbers(trimSpace(string(r.src[cells[c].Start:cells[c].End]))) {
						listed["\x00"+words[j]+" "+n] = true
					}
				}
			}
		}
	}
}

// groupTitles maps the text of each group heading ("Phase 2: Sync",
// "Sprint 3") to its section; a text two group headings have maps to -1.
func (r *reader) groupTitles() map[string]int {
	if r.groups != nil {
		return r.groups
	}
	r.groups = map[string]int{}
	for _, s := range r.secs {
		if s.head < 0 || s.form != fGroup {
			continue
		}
		text := trimSpace(r.plan.Headings[s.head].Text)
		if _, ok := r.groups[text]; ok {
			r.groups[text] = -1
		} else {
			r.groups[text] = s.idx
		}
	}
	return r.groups
}

// soleGroup reports whether section k is a group heading ("Phase 2")
// whose id no other heading of the plan has.
func (r *reader) soleGroup(k int) bool {
	id := taskID(r.plan.Headings[r.secs[k].head].Text)
	if id == "" || !isGroupID(id) {
		return false
	}
	for _, s := range r.secs {
		if s.idx != k && s.head >= 0 && s.form != fNone && taskID(r.plan.Headings[s.head].Text) == id {
			return false
		}
	}
	return true
}

// isGroupID reports whether a taskID names a group of work ("phase 2"),
// not one task ("step 2", which each phase may number from 1 again).
func isGroupID(id string) bool {
	id = strings.TrimPrefix(id, "\x00")
	for _, w := range groupWords {
		if rest, ok := strings.CutPrefix(id, w); ok && rest != "" && !isWordByte(rest[0]) && rest[0] < 0x80 {
			return true
		}
	}
	return false
}

// pointer reports whether a plain list entry only points at a phase of the
// plan written elsewhere: its text is that of a group heading that is
// work, outside the entry's own section, and that heading is the only one
// with its id ("Next steps: - Phase 1: Code quality" before "##
// Phase 1: Code quality"). The phase holds the work; the entry says it
// again. A checkbox that restates a phase is where it is ticked off
// (dedupe), an entry inside its own phase is that phase's work, and one
// that says more ("- Phase 2: Offline queue for transfers too") or only
// shares the number ("- Phase 1 of the transfers: …") is work of its own.
func (r *reader) pointer(s *sec, e *entry) bool {
	if e.box || len(r.groupTitles()) == 0 {
		return false
	}
	k, ok := r.groups[trimSpace(e.item.Subject)]
	if !ok || k < 0 {
		return false
	}
	t := r.secs[k]
	// An empty "## Phase 2: Beta" holds no work yet: the bullet is it.
	return t != s && !r.within(s, t) && t.act != aSkip && (t.content || len(t.kids) > 0) && r.soleGroup(k)
}

// tableHeader returns the header cells of a task table (the line two above
// its first data row: the header, then the delimiter row), or nil.
func (r *reader) tableHeader(ev *event) []Range {
	if len(ev.rows) == 0 {
		return nil
	}
	first := r.ln.lineOf(ev.at(ev.rows[0].item.Line).Start)
	if first < 2 {
		return nil
	}
	return tableCells(r.ln.text(first-2), r.ln.start[first-2])
}

// statusColumn returns the index of the first header cell that names a
// status column ("Status", "Estado", "状态"), or -1.
func (r *reader) statusColumn(header []Range) int {
	for c, h := range header {
		if l, _ := normLabel(string(r.src[h.Start:h.End])); columnIs(l, statusColumns) {
			return c
		}
	}
	return -1
}

// restatesByID reports whether a section without sub-sections, boxes or
// tables is only lists (two entries or more in all) whose every entry
// starts with the task id of a heading of the plan ("1. **M-1.6** —
// Cleanup page" over "### M-1.6 — Cleanup page: …"): an order or a
// next-up list that points at work the headings state, counted once where
// it is stated.
func (r *reader) restatesByID(s *sec) bool {
	if s.head < 0 || len(s.kids) > 0 || s.boxes+s.rows > 0 || s.plain < 2 {
		return false
	}
	// Each entry's id first: the headings' ids are read only for a list
	// of ids.
	var cited []string
	for _, ev := range s.events {
		switch ev.kind {
		case evList:
			for i := range ev.entries {
				e := &ev.entries[i]
				if e.empty {
					continue
				}
				id := entryID(e.item.Subject)
				if id == "" {
					return false
				}
				cited = append(cited, id)
			}
		case evTable, evFence:
			return false
		}
	}
	ids := r.upperIDs()
	for _, id := range cited {
		if at, ok := ids[id]; !ok || at == s.idx {
			return false
		}
	}
	return len(cited) >= 2
}

// upperIDs maps the task id each heading starts with ("M-1.6", "ENV-01",
// after any status mark) to the index of the first section with it.
func (r *reader) upperIDs() map[string]int {
	if r.uids == nil {
		r.uids = r.firstSectionBy(entryID)
	}
	return r.uids
}

// entryID is the task id a text starts with, after emphasis and any
// leading marks ("✅ M-1.2 — …", "**P0-1:** …"), or "".
func entryID(text string) string {
	t := strings.TrimLeftFunc(removeEmphasis(text), func(c rune) bool { return !unicode.IsLetter(c) && !unicode.IsDigit(c) })
	if k := idEnd(t); k > 0 {
		return t[:k]
	}
	return ""
}
