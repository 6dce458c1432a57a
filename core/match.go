package core

import (
	"hash/maphash"
	"strings"

	"github.com/planls/planls/planparse"
)

// matchPlan is MatchPlan: see api.go. Matching is in two passes:
//  1. exact key (scope, subject, planText): the k-th parsed item with a key
//     takes the k-th approved item with that key (in plan order), so
//     duplicate bullets each keep their own task;
//  2. the i-th still-unmatched parsed item takes the i-th still-unmatched
//     approved item (plan order) as Changed; the rest are New.
//
// Items with a blank subject are not plan items and get no entry.
//
// Keys are compared as itemKey compares them (depth, scope joined with NUL,
// subject, planText), but through a 64-bit hash and a chain of approved
// items per hash, in plan order, so no key is built or copied: on a 10k-item
// plan this is the difference between ~20 ms and a few.
func matchPlan(in *State, plan *planparse.Plan) ([]ItemMatch, []int) {
	st := sortedView(in)
	var approved []*Task // live plan items in plan order
	for _, t := range displayOrder(st) {
		if !t.isPlan() || t.Status == Deleted {
			break
		}
		approved = append(approved, t)
	}
	ch := newKeyChains(approved)
	used := make([]bool, len(approved))
	items := usableItems(plan)
	matches := make([]ItemMatch, len(items))
	var unmatched []int // indexes into matches
	for m, i := range items {
		it := &plan.Items[i]
		matches[m] = ItemMatch{Item: i, Kind: New}
		if q := ch.take(it.Scope, strings.TrimSpace(it.Subject), it.PlanText); q >= 0 {
			matches[m].TaskID, matches[m].Kind = approved[q].ID, Same
			used[q] = true
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
	var missing []int
	for i, t := range approved {
		if !used[i] {
			missing = append(missing, t.ID)
		}
	}
	return matches, missing
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
func (c *keyChains) take(scope []string, subject, planText string) int {
	k := c.hash(scope, subject, planText)
	i, ok := c.head[k]
	if !ok {
		return -1
	}
	prev := int32(-1)
	for ; i >= 0; prev, i = i, c.next[i] {
		t := c.approved[i]
		if t.Subject != subject || t.PlanText != planText || !sameScope(t.PlanScope, scope) {
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
	if len(a) <= 1 {
		return len(a) == 0 || a[0] == b[0]
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
