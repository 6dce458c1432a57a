package core

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// List paging (MCP seed): default and largest page size.
const (
	DefaultLimit = 20
	MaxLimit     = 200
)

// listFilter is a list call's filters, resolved.
type listFilter struct {
	statuses       map[Status]bool // nil = any status
	includeDeleted bool
	dueBefore      *time.Time
	search         string // foldText'ed; "" = none
	group          string // plan group, groupKey'ed; "" = none
}

// listPage is one list answer: the text, the total matched and the cursor
// of the next page ("" on the last page).
type listPage struct {
	text       string
	total      int
	nextCursor string
	ids        []int    // the rows shown, in order
	fields     []string // the row fields of a non-seed shape
}

// resolveFilter reads status / item_status, includeDeleted, due_before and
// search / query. item_status takes "open" (pending + in_progress), "all",
// or a status ("in-progress" too); asking for "deleted" by item_status shows
// tombstones, while status "deleted" keeps the seed's reading (it needs
// includeDeleted, vector O09).
func resolveFilter(p ListOp, opts Options) (listFilter, error) {
	f := listFilter{includeDeleted: p.IncludeDeleted}
	if p.ItemStatus != nil {
		is := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(*p.ItemStatus)), "-", "_")
		switch {
		case is == "open":
			f.statuses = map[Status]bool{Pending: true, InProgress: true}
		case is == "all":
		case validStatus(Status(is)):
			f.statuses = map[Status]bool{Status(is): true}
			if Status(is) == Deleted {
				f.includeDeleted = true
			}
		default:
			return f, fmt.Errorf("item_status must be open, all, pending, in_progress, completed, deferred or deleted (got %q)", *p.ItemStatus)
		}
		if p.Status != nil && (len(f.statuses) != 1 || !f.statuses[*p.Status]) {
			return f, fmt.Errorf("status %q and item_status %q disagree: pass one of them", *p.Status, *p.ItemStatus)
		}
	} else if p.Status != nil {
		f.statuses = map[Status]bool{*p.Status: true}
	}
	if p.DueBefore != nil {
		t, err := parseDue("due_before", *p.DueBefore, p.OwnerTimezone, opts)
		if err != nil {
			return f, err
		}
		f.dueBefore = &t
	} else if p.OwnerTimezone != nil {
		if _, err := zoneFor(p.OwnerTimezone, opts); err != nil {
			return f, err
		}
	}
	if p.Search != nil {
		f.search = foldText(*p.Search)
	}
	if p.Group != nil {
		if f.group = groupKey(*p.Group); f.group == "" {
			return f, fmt.Errorf("group must name a plan group (a heading of the plan)")
		}
	}
	return f, nil
}

// inGroup reports whether plan item t sits under the heading g (groupKey):
// its own group or any heading above it.
func inGroup(t *Task, g string) bool {
	if !t.isPlan() {
		return false
	}
	return groupKey(t.PlanGroup) == g || slices.ContainsFunc(t.PlanScope, func(h string) bool { return groupKey(h) == g })
}

// groupKey is a heading as the group filter compares it: whitespace runs as
// one space, ends trimmed, and foldText (Unicode form, variation selectors
// and case ignored, as the search does).
func groupKey(s string) string {
	return foldText(strings.Join(strings.Fields(s), " "))
}

func (f *listFilter) match(t *Task) bool {
	if t.Status == Deleted && !f.includeDeleted {
		return false
	}
	if f.statuses != nil && !f.statuses[t.Status] {
		return false
	}
	if f.dueBefore != nil {
		if t.DueAt == "" {
			return false
		}
		due, err := time.Parse(time.RFC3339Nano, t.DueAt)
		if err != nil || !due.Before(*f.dueBefore) {
			return false
		}
	}
	if f.group != "" && !inGroup(t, f.group) {
		return false
	}
	if f.search != "" {
		hay := foldText(t.Subject) + "\x00" + foldText(t.PlanText)
		if t.Description != nil {
			hay += "\x00" + foldText(*t.Description)
		}
		if !strings.Contains(hay, f.search) {
			return false
		}
	}
	return true
}

// key is the filters' fingerprint carried in a cursor, so a cursor is only
// accepted with the filters it was made for. The page size is not part of
// it: a client may change limit between pages.
func (f *listFilter) key() string {
	var b strings.Builder
	for _, s := range statuses {
		if f.statuses == nil || f.statuses[s] {
			b.WriteString(string(s))
		}
		b.WriteByte(',')
	}
	fmt.Fprintf(&b, "%t|", f.includeDeleted)
	if f.dueBefore != nil {
		b.WriteString(f.dueBefore.Format(time.RFC3339Nano))
	}
	b.WriteString("|" + f.search)
	if f.group != "" {
		b.WriteString("|group:" + f.group)
	}
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:8])
}

// makeCursor is base64url("<offset>:<filter key>"): opaque to clients.
func makeCursor(offset int, key string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(strconv.Itoa(offset) + ":" + key))
}

func readCursor(c, key string) (int, error) {
	raw, err := base64.RawURLEncoding.DecodeString(c)
	off, k, ok := strings.Cut(string(raw), ":")
	n, convErr := strconv.Atoi(off)
	if err != nil || !ok || convErr != nil || n < 0 {
		return 0, fmt.Errorf("cursor %q is not a cursor this server made; list again without cursor", c)
	}
	if k != key {
		return 0, fmt.Errorf("cursor was made for other filters; list again without cursor, or with the filters of the first page")
	}
	return n, nil
}

// list renders the seed's list (the seed's content strings): the plan header when
// there is one, then the rows of this page, or `No tasks`. When more rows
// follow, a last line says how to get them.
func list(st *State, p ListOp, opts Options) (listPage, error) {
	f, err := resolveFilter(p, opts)
	if err != nil {
		return listPage{}, err
	}
	limit := DefaultLimit
	if p.Limit != nil {
		if *p.Limit < 1 || *p.Limit > MaxLimit {
			return listPage{}, fmt.Errorf("limit must be between 1 and %d (got %d)", MaxLimit, *p.Limit)
		}
		limit = *p.Limit
	}
	key := f.key()
	offset := 0
	if p.Cursor != nil && *p.Cursor != "" {
		if offset, err = readCursor(*p.Cursor, key); err != nil {
			return listPage{}, err
		}
	}
	sh := shapeFor(p, opts)
	var b strings.Builder
	b.WriteString(planHeader(st))
	total, shown := 0, 0
	var ids []int
	for _, t := range displayOrder(st) {
		if !f.match(t) {
			continue
		}
		total++
		if total <= offset || shown >= limit {
			continue
		}
		shown++
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		listRow(&b, st, t, sh)
		ids = append(ids, t.ID)
	}
	page := listPage{total: total, ids: ids}
	if !sh.seed {
		page.fields = sh.names()
	}
	if shown == 0 {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("No tasks")
	}
	if offset+shown < total {
		page.nextCursor = makeCursor(offset+shown, key)
		fmt.Fprintf(&b, "\n(%d-%d of %d shown; pass cursor %q for more)", offset+1, offset+shown, total, page.nextCursor)
	}
	page.text = b.String()
	return page, nil
}

// get renders one task (the seed's content strings).
func get(st *State, p *opCall) (string, error) {
	if !p.hasID {
		return "", fmt.Errorf("id required for get")
	}
	t := st.task(p.id)
	if t == nil {
		return "", fmt.Errorf("#%d not found", p.id)
	}
	return renderGet(st, t), nil
}
