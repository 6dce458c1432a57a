package core

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
)

// mergeOne merges the three versions of one task id (nil where a side has
// no such task) and says whether the id stays in the merged state. A task
// removed on one side and changed on the other is kept: the change is work.
func (m *merger) mergeOne(b, o, t *Task) (Task, bool) {
	switch {
	case b == nil && o != nil && t != nil && !sameTask(o, t):
		// The same plan item created by the same approval on both sides:
		// merged as if both had started from it pending.
		start := *o
		start.Status, start.Evidence, start.Reason, start.Note, start.DeletedFrom = Pending, "", "", "", ""
		return m.mergeTask(&start, o, t), true
	case b == nil && o != nil:
		return *o, true // created on ours (theirs's twin was renumbered or is the same task)
	case b == nil && t != nil:
		return *t, true
	case b == nil:
		return Task{}, false
	case o != nil && t != nil:
		return m.mergeTask(b, o, t), true
	case o != nil && !sameTask(o, b):
		m.note(o.ID, "#%d %q was removed on theirs but changed on ours: kept ours", o.ID, NoControls(o.Subject))
		return *o, true
	case t != nil && !sameTask(t, b):
		m.note(t.ID, "#%d %q was removed on ours but changed on theirs: kept theirs", t.ID, NoControls(t.Subject))
		return *t, true
	}
	return Task{}, false
}

// mergeTask merges a task all three states hold, field by field.
func (m *merger) mergeTask(b, o, t *Task) Task {
	switch {
	case sameTask(o, t), sameTask(t, b):
		return *o
	case sameTask(o, b):
		return *t
	}
	// later is the side whose own change wins a field both changed
	// differently: the one changed last, ours on a tie.
	later, side := o, "ours"
	if t.UpdatedAt.After(o.UpdatedAt) {
		later, side = t, "theirs"
	}
	r := *o
	field := func(name string, conflict bool) {
		if conflict {
			m.note(o.ID, "#%d %s: both branches changed it; kept %s's (changed last)", o.ID, name, side)
		}
	}
	var c bool
	r.Subject, c = pick3(b.Subject, o.Subject, t.Subject, later.Subject)
	field("subject", c)
	r.Description, c = pick3Ptr(b.Description, o.Description, t.Description, later.Description)
	field("description", c)
	r.ActiveForm, c = pick3Ptr(b.ActiveForm, o.ActiveForm, t.ActiveForm, later.ActiveForm)
	field("activeForm", c)
	r.Owner, c = pick3Ptr(b.Owner, o.Owner, t.Owner, later.Owner)
	field("owner", c)
	r.Source, c = pick3(b.Source, o.Source, t.Source, later.Source)
	field("source", c)
	r.PlanGroup, c = pick3(b.PlanGroup, o.PlanGroup, t.PlanGroup, later.PlanGroup)
	field("planGroup", c)
	r.PlanText, c = pick3(b.PlanText, o.PlanText, t.PlanText, later.PlanText)
	field("planText", c)
	r.PlanOrder, _ = pick3(b.PlanOrder, o.PlanOrder, t.PlanOrder, later.PlanOrder)
	r.Priority, c = pick3(b.Priority, o.Priority, t.Priority, later.Priority)
	field("priority", c)
	r.DueAt, c = pick3(b.DueAt, o.DueAt, t.DueAt, later.DueAt)
	field("dueAt", c)
	if slices.Equal(o.PlanScope, b.PlanScope) {
		r.PlanScope = t.PlanScope
	} else if !slices.Equal(t.PlanScope, b.PlanScope) && !slices.Equal(o.PlanScope, t.PlanScope) {
		r.PlanScope = later.PlanScope
		field("planScope", true)
	}
	if n, c := pick3(b.Note, o.Note, t.Note, ""); c {
		r.Note = joinProof(o.Note, t.Note)
		m.note(o.ID, "#%d note: both branches changed it; both kept", o.ID)
	} else {
		r.Note = n
	}
	r.BlockedBy = mergeIDSet(b.BlockedBy, o.BlockedBy, t.BlockedBy)
	var keys []string
	r.Metadata, keys = mergeMetadataKeys(b.Metadata, o.Metadata, t.Metadata, later.Metadata)
	for _, k := range keys {
		field(fmt.Sprintf("metadata %q", k), true)
	}
	m.mergeClosure(&r, b, o, t)

	switch {
	case sameContent(&r, o):
		return *o
	case sameContent(&r, t):
		return *t
	}
	r.Version = max(o.Version, t.Version) + 1
	if t.UpdatedAt.After(r.UpdatedAt) {
		r.UpdatedAt = t.UpdatedAt
	}
	return r
}

// closure is the part of a task that says whether and how it was closed;
// it merges as one value so a status never travels without its proof.
type closure struct {
	Status      Status
	Evidence    string
	Reason      string
	DeletedFrom Status
}

func closureOf(t *Task) closure { return closure{t.Status, t.Evidence, t.Reason, t.DeletedFrom} }

// statusRank orders statuses for two branches that moved one task to
// different ones: a tombstone is never reopened, a completion beats a
// deferral, and any closing beats work still open.
func statusRank(s Status) int {
	switch s {
	case Deleted:
		return 4
	case Completed:
		return 3
	case Deferred:
		return 2
	case InProgress:
		return 1
	}
	return 0
}

// mergeClosure sets r's status, evidence, reason and deletedFrom: the
// changed side's when one side changed them; else the higher-ranked status
// with both sides' evidence and both reasons kept (docs/TEAMS.md "Closed on
// both branches").
func (m *merger) mergeClosure(r *Task, b, o, t *Task) {
	bc, oc, tc := closureOf(b), closureOf(o), closureOf(t)
	var c closure
	switch {
	case oc == bc:
		c = tc
	case tc == bc, oc == tc:
		c = oc
	default:
		win, lose, winSide, loseSide := oc, tc, "ours", "theirs"
		if statusRank(tc.Status) > statusRank(oc.Status) {
			win, lose, winSide, loseSide = tc, oc, "theirs", "ours"
		}
		c = closure{Status: win.Status, Evidence: joinProof(oc.Evidence, tc.Evidence), Reason: joinProof(oc.Reason, tc.Reason)}
		if c.Status == Deleted {
			c.DeletedFrom = tombstoneFrom(win, lose)
		}
		subj := NoControls(r.Subject)
		switch {
		case win.Status == lose.Status && win.Status == Completed:
			m.note(r.ID, "#%d %q was completed on both branches with different evidence; both kept: %s", r.ID, subj, c.Evidence)
		case win.Status == lose.Status && win.Status == Deferred:
			m.note(r.ID, "#%d %q was deferred on both branches with different reasons; both kept: %s", r.ID, subj, c.Reason)
		case win.Status == lose.Status:
			m.note(r.ID, "#%d %q changed on both branches; kept %s", r.ID, subj, win.Status)
		case win.Status == Deleted && win.DeletedFrom == "" && r.Source == "plan" && (lose.Status == Completed || lose.Status == Deferred):
			m.note(r.ID, "#%d %q was %s on %s, but the plan approved on %s removed it: it stays removed (not reopened), its %s kept in the tombstone and the journal",
				r.ID, subj, lose.Status, loseSide, winSide, proofWord(lose.Status))
		case win.Status == Deleted:
			m.note(r.ID, "#%d %q was deleted on %s and set %s on %s: it stays deleted (restore brings back %s)", r.ID, subj, winSide, lose.Status, loseSide, orNone(c.DeletedFrom))
		default:
			m.note(r.ID, "#%d %q was %s on %s and %s on %s: kept %s, with every evidence and reason", r.ID, subj, win.Status, winSide, lose.Status, loseSide, win.Status)
		}
	}
	r.Status, r.Evidence, r.Reason, r.DeletedFrom = c.Status, c.Evidence, c.Reason, c.DeletedFrom
}

// tombstoneFrom is the deletedFrom of a merged tombstone: "" when the
// tombstone came from a re-approval (such items return only by approving
// them again), else the higher-ranked status either side had, so a restore
// brings back the completed version rather than an older one.
func tombstoneFrom(win, lose closure) Status {
	if win.DeletedFrom == "" || (lose.Status == Deleted && lose.DeletedFrom == "") {
		return ""
	}
	from := win.DeletedFrom
	other := lose.Status
	if other == Deleted {
		other = lose.DeletedFrom
	}
	if statusRank(other) > statusRank(from) {
		from = other
	}
	return from
}

func proofWord(s Status) string {
	if s == Completed {
		return "evidence"
	}
	return "reason"
}

func orNone(s Status) string {
	if s == "" {
		return "nothing"
	}
	return string(s)
}

// joinProof keeps two texts: one when they are equal or one holds the other
// (a re-merge), else both in sorted order joined with "; ".
func joinProof(a, b string) string {
	switch {
	case strings.Contains(a, b):
		return a
	case strings.Contains(b, a):
		return b
	case a > b:
		a, b = b, a
	}
	return a + "; " + b
}

// pick3 is the three-way merge of one value: the changed side's, the common
// value, or (conflict true) tie when both changed it differently.
func pick3[T comparable](b, o, t, tie T) (T, bool) {
	switch {
	case o == b:
		return t, false
	case t == b, o == t:
		return o, false
	}
	return tie, true
}

func pick3Ptr(b, o, t, tie *string) (*string, bool) {
	switch {
	case strPtrEqual(o, b):
		return t, false
	case strPtrEqual(t, b), strPtrEqual(o, t):
		return o, false
	}
	return tie, true
}

// pick3Ints is theirs's list when only theirs changed it, else ours's.
func pick3Ints(b, o, t []int) []int {
	if slices.Equal(o, b) {
		return t
	}
	return o
}

// mergeIDSet merges blockedBy: the ids both sides kept, plus each side's
// additions, minus each side's removals; ours's order first.
func mergeIDSet(b, o, t []int) []int {
	if slices.Equal(o, t) || slices.Equal(t, b) {
		return o
	}
	if slices.Equal(o, b) {
		return t
	}
	in := func(s []int, id int) bool { return slices.Contains(s, id) }
	var out []int
	for _, id := range o {
		if in(b, id) && !in(t, id) {
			continue // removed on theirs
		}
		out = append(out, id)
	}
	for _, id := range t {
		if !in(b, id) && !in(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// mergeMetadataKeys merges metadata key by key; a key both sides set
// differently takes tie's value and is returned in conflicts (sorted).
func mergeMetadataKeys(b, o, t, tie map[string]any) (map[string]any, []string) {
	if reflect.DeepEqual(o, t) || reflect.DeepEqual(t, b) {
		return o, nil
	}
	if reflect.DeepEqual(o, b) {
		return t, nil
	}
	keys := map[string]bool{}
	for _, mp := range []map[string]any{b, o, t} {
		for k := range mp {
			keys[k] = true
		}
	}
	out := map[string]any{}
	var conflicts []string
	for k := range keys {
		bv, bok := b[k]
		ov, ook := o[k]
		tv, tok := t[k]
		same := func(v1 any, ok1 bool, v2 any, ok2 bool) bool { return ok1 == ok2 && reflect.DeepEqual(v1, v2) }
		var v any
		var ok bool
		switch {
		case same(ov, ook, bv, bok):
			v, ok = tv, tok
		case same(tv, tok, bv, bok), same(ov, ook, tv, tok):
			v, ok = ov, ook
		default:
			v, ok = tie[k]
			conflicts = append(conflicts, k)
		}
		if ok {
			out[k] = v
		}
	}
	sort.Strings(conflicts)
	if len(out) == 0 {
		return nil, conflicts
	}
	return out, conflicts
}

// sameContent compares two tasks without their version and timestamps.
func sameContent(a, b *Task) bool {
	return a.ID == b.ID && a.Subject == b.Subject && a.Status == b.Status &&
		strPtrEqual(a.Description, b.Description) && strPtrEqual(a.ActiveForm, b.ActiveForm) && strPtrEqual(a.Owner, b.Owner) &&
		slices.Equal(a.BlockedBy, b.BlockedBy) && a.Source == b.Source && a.PlanGroup == b.PlanGroup &&
		slices.Equal(a.PlanScope, b.PlanScope) && a.PlanText == b.PlanText && a.Evidence == b.Evidence &&
		a.Reason == b.Reason && a.Priority == b.Priority && a.DueAt == b.DueAt && a.Note == b.Note &&
		a.DeletedFrom == b.DeletedFrom && a.PlanOrder == b.PlanOrder &&
		(len(a.Metadata) == 0 && len(b.Metadata) == 0 || reflect.DeepEqual(a.Metadata, b.Metadata))
}

// sameTask compares two tasks entirely.
func sameTask(a, b *Task) bool {
	return sameContent(a, b) && a.Version == b.Version && a.CreatedAt.Equal(b.CreatedAt) && a.UpdatedAt.Equal(b.UpdatedAt)
}
