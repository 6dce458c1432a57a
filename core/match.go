package core

import (
	"hash/maphash"
	"sort"
	"strings"

	"github.com/planls/planls/planparse"
)

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

// MatchPlan links the items of the current plan file to the approved plan
// items in in, so editors can place diagnostics on them and report drift;
// missing is the ids of approved, non-deleted plan items that no parsed
// item matched. Matching is in two passes:
//  1. exact key (scope, subject, planText): the k-th parsed item with a key
//     takes the k-th approved item with that key (in plan order), so
//     duplicate bullets each keep their own task;
//  2. the i-th still-unmatched parsed item takes the i-th still-unmatched
//     approved item (plan order) as Changed; the rest are New.
//
// Items with a blank subject are not plan items and get no entry.
//
// Keys are compared as itemKey compares them (depth, scope joined with NUL,
// subject, planText) but never built: the items an edit left in place pair up
// by position (alignedEnds), and the rest through a 64-bit hash and a chain
// of approved items per hash, in plan order (keyChains). Results are those of
// the map-of-keys version this replaced (match_ref_test.go), at a fraction of
// its cost on a 10k-item plan (BenchmarkMatchPlan10k*).
func MatchPlan(in *State, plan *planparse.Plan) (matches []ItemMatch, missing []int) {
	approved := keyTasks(approvedInOrder(in))
	// Usable items (a blank subject is not a plan item, rule 4) with their
	// trimmed subjects, in one pass.
	items := make([]int, 0, len(plan.Items))
	keys := make([]keyRef, 0, len(plan.Items))
	for i := range plan.Items {
		it := &plan.Items[i]
		if s := trimSpace(it.Subject); s != "" {
			items = append(items, i)
			keys = append(keys, keyRef{keyScope(it.Scope), keyText(s), keyText(it.PlanText)})
		}
	}
	used := make([]bool, len(approved))
	matches = make([]ItemMatch, len(items))
	for m, i := range items {
		matches[m] = ItemMatch{Item: i, Kind: New}
	}
	same := func(m, q int) {
		matches[m].TaskID, matches[m].Kind = approved[q].ID, Same
		used[q] = true
	}
	// An edit leaves most items where they were: the common prefix and,
	// when the edit provably shifts no occurrence count, the common suffix
	// pair up by position, with no hashing (see alignedEnds).
	pre, suf := alignedEnds(approved, keys)
	for m := range pre {
		same(m, m)
	}
	for j := range suf {
		same(len(keys)-1-j, len(approved)-1-j)
	}
	ch := newKeyChains(approved[pre : len(approved)-suf])
	var unmatched []int // indexes into matches
	for m := pre; m < len(keys)-suf; m++ {
		if q := ch.take(keys[m]); q >= 0 {
			same(m, pre+q)
			continue
		}
		unmatched = append(unmatched, m)
	}
	var free []int
	for i := range approved {
		if !used[i] {
			free = append(free, i)
		}
	}
	for n, m := range unmatched {
		if n >= len(free) {
			break
		}
		matches[m].TaskID, matches[m].Kind = approved[free[n]].ID, Changed
		used[free[n]] = true
	}
	for i, t := range approved {
		if !used[i] {
			missing = append(missing, t.ID)
		}
	}
	return matches, missing
}

// approvedInOrder returns the live plan items of st in plan order: the
// order displayOrder gives them (a stable sort by planBefore of the tasks
// sorted by id, which is the same as a stable sort by planBefore of the tasks
// as stored, since planBefore breaks PlanOrder ties by id).
func approvedInOrder(st *State) []*Task {
	if st == nil {
		return nil
	}
	var out []*Task
	for i := range st.Tasks {
		if t := &st.Tasks[i]; t.isPlan() && t.Status != Deleted {
			if out == nil {
				out = make([]*Task, 0, len(st.Tasks)-i)
			}
			out = append(out, t)
		}
	}
	for i := 1; i < len(out); i++ {
		if planBefore(out[i], out[i-1]) {
			sort.SliceStable(out, func(i, j int) bool { return planBefore(out[i], out[j]) })
			break
		}
	}
	return out
}

// trimSpace is strings.TrimSpace, skipping the call for the common subject
// that starts and ends with a visible ASCII byte.
func trimSpace(s string) string {
	if n := len(s); n > 0 && s[0] > ' ' && s[0] < 0x7F && s[n-1] > ' ' && s[n-1] < 0x7F {
		return s
	}
	return strings.TrimSpace(s)
}

var keySeed = maphash.MakeSeed()

// keyChains indexes approved items by key hash: head[h] is the first
// approved index with hash h not yet taken, next[i] the one after i with the
// same hash (-1 ends a chain). Chains stay in plan order.
type keyChains struct {
	approved []*Task
	head     map[uint64]int32
	next     []int32
}

func newKeyChains(approved []*Task) *keyChains {
	c := &keyChains{approved: approved, head: make(map[uint64]int32, len(approved)), next: make([]int32, len(approved))}
	// Built from the end, each new head goes before the chain: plan order.
	for i := len(approved) - 1; i >= 0; i-- {
		t := approved[i]
		k := c.hash(t.PlanScope, t.Subject, t.PlanText)
		c.next[i] = -1
		if j, ok := c.head[k]; ok {
			c.next[i] = j
		}
		c.head[k] = int32(i)
	}
	return c
}

// hash hashes the fields itemKey compares. Without NUL bytes in the scope,
// the NUL-joined scope text and its elements determine each other, so the
// elements are hashed one by one; a scope with a NUL byte (only equal to
// another such scope) is hashed joined.
func (c *keyChains) hash(scope []string, subject, planText string) uint64 {
	h := uint64(len(scope))
	joined := false
	for _, s := range scope {
		if strings.IndexByte(s, 0) >= 0 {
			joined = true
			break
		}
	}
	if joined {
		h = mix(h^1<<63, maphash.String(keySeed, strings.Join(scope, "\x00")))
	} else {
		for _, s := range scope {
			h = mix(h, maphash.String(keySeed, s))
		}
	}
	h = mix(h, maphash.String(keySeed, subject))
	return mix(h, maphash.String(keySeed, planText))
}

// mix folds x into h (order matters).
func mix(h, x uint64) uint64 {
	h ^= x + 0x9E3779B97F4A7C15 + h<<6 + h>>2
	return h
}

// take removes and returns the first approved index (plan order) whose key
// equals the given one, or -1.
func (c *keyChains) take(key keyRef) int {
	k := c.hash(key.scope, key.subject, key.planText)
	i, ok := c.head[k]
	if !ok {
		return -1
	}
	prev := int32(-1)
	for ; i >= 0; prev, i = i, c.next[i] {
		if !key.equal(taskRef(c.approved[i])) {
			continue // a hash collision
		}
		switch {
		case prev >= 0:
			c.next[prev] = c.next[i]
		case c.next[i] >= 0:
			c.head[k] = c.next[i]
		default:
			delete(c.head, k)
		}
		return int(i)
	}
	return -1
}

// sameScope is keyOf's scope equality without joining: same depth and the
// same text once joined with NUL.
func sameScope(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	differ := false
	for i := range a {
		if a[i] != b[i] {
			differ = true
			break
		}
	}
	if !differ {
		return true
	}
	// Different elements can only join alike around a NUL byte.
	if len(a) == 1 || !hasNUL(a) || !hasNUL(b) {
		return false
	}
	ai, bi, ao, bo := 0, 0, 0, 0 // element and offset in a and b
	for {
		ca, okA := joinedByte(a, &ai, &ao)
		cb, okB := joinedByte(b, &bi, &bo)
		if okA != okB || ca != cb {
			return false
		}
		if !okA {
			return true
		}
	}
}

func hasNUL(s []string) bool {
	for _, e := range s {
		if strings.IndexByte(e, 0) >= 0 {
			return true
		}
	}
	return false
}

// joinedByte returns the next byte of strings.Join(s, "\x00") from position
// (*i, *o): byte *o of element *i, where *o == len(s[*i]) is the separator.
func joinedByte(s []string, i, o *int) (byte, bool) {
	for *i < len(s) {
		if *o < len(s[*i]) {
			c := s[*i][*o]
			*o++
			return c, true
		}
		if *i+1 < len(s) {
			*i++
			*o = 0
			return 0, true
		}
		*i++
	}
	return 0, false
}

// keyRef is the itemKey of a parsed item or a task, without building it.
type keyRef struct {
	scope             []string
	subject, planText string
}

func taskRef(t *Task) keyRef { return keyRef{t.PlanScope, t.Subject, t.PlanText} }

// equal is itemKey equality.
func (a keyRef) equal(b keyRef) bool {
	return a.subject == b.subject && a.planText == b.planText && sameScope(a.scope, b.scope)
}

// maxMiddle bounds the edited middle that alignedEnds examines pairwise, and
// maxDiffKeys the keys whose counts it changes; past either, the middle and
// suffix are matched through keyChains, which is exact for any input.
const (
	maxMiddle   = 256
	maxDiffKeys = 16
)

// alignedEnds returns how many leading and trailing parsed items pair with
// the approved items at the same place, as pass 1 would pair them.
//
// The prefix: up to the first key that differs, the k-th occurrence of a key
// among items is the k-th among approved items, so pass 1 pairs them by
// position and uses up exactly the prefix's approved items. The suffix is
// paired by position only when every key of the suffix occurs as often in
// the parsed middle as in the approved middle (the two ranges between prefix
// and suffix): then its occurrences are numbered alike on both sides. A
// middle key whose count differs and that is not in the suffix takes only
// middle approved items, so the middle is matched on its own.
func alignedEnds(approved []*Task, keys []keyRef) (pre, suf int) {
	n := min(len(approved), len(keys))
	for pre < n && keys[pre].equal(taskRef(approved[pre])) {
		pre++
	}
	for suf < n-pre && keys[len(keys)-1-suf].equal(taskRef(approved[len(approved)-1-suf])) {
		suf++
	}
	if suf == 0 {
		return pre, 0
	}
	mi, ma := keys[pre:len(keys)-suf], approved[pre:len(approved)-suf]
	if len(mi)+len(ma) > maxMiddle {
		return pre, 0
	}
	// Keys whose count differs between the middles: +1 per parsed, -1 per
	// approved occurrence.
	var distinct []keyRef
	var count []int
	add := func(k keyRef, d int) {
		for i := range distinct {
			if distinct[i].equal(k) {
				count[i] += d
				return
			}
		}
		distinct, count = append(distinct, k), append(count, d)
	}
	for _, k := range mi {
		add(k, 1)
	}
	for _, t := range ma {
		add(taskRef(t), -1)
	}
	var diff []keyRef
	for i, c := range count {
		if c != 0 {
			diff = append(diff, distinct[i])
		}
	}
	if len(diff) > maxDiffKeys {
		return pre, 0
	}
	for _, k := range keys[len(keys)-suf:] {
		for _, d := range diff {
			if k.equal(d) {
				return pre, 0
			}
		}
	}
	return pre, suf
}
