package planparse

import "slices"

// dropRestatedLists drops the items of a plain list that states again the
// work a checkbox list of the plan states (a numbered "Step-by-step plan"
// and a "Todo list" of the same tasks): the same work counts once, where it
// is ticked off (rule 7). A plain list restates a checkbox list when three
// of its entries or more, and half of them at least, each share two
// content words, and half the words of the shorter one, with a box of that
// list, and the two lists are of a like length (neither more
// than twice the other). A list of checks ("- [ ] the uploader retries")
// is what the work must pass, never a restatement of it, and boxes in a
// section that is not tracked tick nothing off.
func (r *reader) dropRestatedLists() {
	// The tracked entries' lines, searched: a map of them was 8% of
	// BenchmarkAnalyzeEdit/1000's CPU, a keystroke at 1,000 items.
	starts := make([]int, 0, len(r.plan.Items))
	for i := range r.plan.Items {
		if it := &r.plan.Items[i]; !it.Section {
			starts = append(starts, it.Line.Start)
		}
	}
	slices.Sort(starts)
	tracked := func(ev *event, e *entry) bool {
		_, ok := slices.BinarySearch(starts, ev.at(e.item.Line).Start)
		return !e.empty && ok
	}
	// kind is a list's tracked entries and whether they are all boxes,
	// outside a checks section (boxed); ok: three or more, all boxes or
	// none.
	kind := func(s *sec, ev *event) (n int, boxed, ok bool) {
		boxes := 0
		for i := range ev.entries {
			if e := &ev.entries[i]; tracked(ev, e) {
				n++
				if e.box {
					boxes++
				}
			}
		}
		boxed = boxes == n && !s.kind.checks()
		return n, boxed, ev.kind == evList && n >= 3 && (boxed || boxes == 0)
	}
	// A plan without a checkbox list stops here, on most keystrokes:
	// reading every list's words up front was 5,150 of
	// BenchmarkApprove1600Lines's 22,061 allocs/op, and its lists 84 of
	// BenchmarkAnalyzeEdit/1000's 1,155.
	if !slices.ContainsFunc(r.secs, func(s *sec) bool {
		return slices.ContainsFunc(s.events, func(ev *event) bool { _, boxed, ok := kind(s, ev); return boxed && ok })
	}) {
		return
	}
	var plain, boxed []*listWords
	for _, s := range r.secs {
		for _, ev := range s.events {
			n, isBoxed, ok := kind(s, ev)
			if !ok {
				continue
			}
			l := &listWords{ev: ev, s: s, subjects: make([]string, 0, n)}
			for i := range ev.entries {
				if e := &ev.entries[i]; tracked(ev, e) {
					l.subjects = append(l.subjects, e.item.Subject)
				}
			}
			if isBoxed {
				boxed = append(boxed, l)
			} else {
				plain = append(plain, l)
			}
		}
	}
	if len(plain) == 0 || len(boxed) == 0 {
		return
	}
	drop := map[int]bool{}
	for _, p := range plain {
		for _, b := range boxed {
			if !p.restates(b) {
				continue
			}
			for i := range p.ev.entries {
				drop[p.ev.at(p.ev.entries[i].item.Line).Start] = true
			}
			if p.s.head >= 0 && len(p.s.events) > 0 && onlyList(p.s, p.ev) {
				// The section said nothing but the list: the dry run says
				// why it gives no items.
				h := &r.plan.Headings[p.s.head]
				h.Skipped, h.Why = true, whyRestated
			}
			break
		}
	}
	if len(drop) == 0 {
		return
	}
	out := r.plan.Items[:0]
	for _, it := range r.plan.Items {
		if it.Section || !drop[it.Line.Start] {
			out = append(out, it)
		}
	}
	r.plan.Items = out
}

// listWords is a tracked list, the subjects of its tracked entries and,
// once read (wordsOf), their content words (contentWords).
type listWords struct {
	ev       *event
	s        *sec
	subjects []string
	words    [][]string
}

// wordsOf returns the content words of each of l's subjects, read on the
// first call.
func (l *listWords) wordsOf() [][]string {
	if l.words == nil {
		// One backing array holds the words of every entry.
		l.words = make([][]string, len(l.subjects))
		var all []string
		for i, t := range plainTitles(l.subjects) {
			n := len(all)
			all = appendWords(all, t)
			l.words[i] = all[n:len(all):len(all)]
		}
	}
	return l.words
}

// restates reports whether list p states the work of checkbox list b again
// (dropRestatedLists's rule).
func (p *listWords) restates(b *listWords) bool {
	n, m := len(p.subjects), len(b.subjects)
	if n > 2*m || m > 2*n {
		return false
	}
	same := 0
	for _, w := range p.wordsOf() {
		for _, v := range b.wordsOf() {
			if sameWork(w, v) {
				same++
				break
			}
		}
	}
	return same >= 3 && 2*same >= n
}

// sameWork reports whether two entries' content words (contentWords) name
// the same work: two shared words at least, and half the words of the
// shorter entry.
func sameWork(a, b []string) bool {
	n := shared(a, b)
	return n >= 2 && 2*n >= min(len(a), len(b))
}

// onlyList reports whether ev is the only list or table in s's own body.
func onlyList(s *sec, ev *event) bool {
	for _, e := range s.events {
		if e != ev && (e.kind == evList || e.kind == evTable) {
			return false
		}
	}
	return true
}
