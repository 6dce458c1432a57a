package planparse

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
	tracked := map[int]bool{}
	for i := range r.plan.Items {
		if it := &r.plan.Items[i]; !it.Section {
			tracked[it.Line.Start] = true
		}
	}
	// Words are read only for a list with a partner of a like length, and
	// a plan without both kinds reads none: reading every list's words up
	// front was 5,150 of BenchmarkApprove1600Lines's 22,061 allocs/op.
	var plain, boxed []*listWords
	for _, s := range r.secs {
		for _, ev := range s.events {
			if ev.kind != evList {
				continue
			}
			n, boxes := 0, 0
			for i := range ev.entries {
				if e := &ev.entries[i]; !e.empty && tracked[ev.at(e.item.Line).Start] {
					n++
					if e.box {
						boxes++
					}
				}
			}
			var to *[]*listWords
			switch {
			case n < 3:
				continue
			case boxes == n && !s.kind.checks():
				to = &boxed
			case boxes == 0:
				to = &plain
			default:
				continue
			}
			l := &listWords{ev: ev, s: s, subjects: make([]string, 0, n)}
			for i := range ev.entries {
				if e := &ev.entries[i]; !e.empty && tracked[ev.at(e.item.Line).Start] {
					l.subjects = append(l.subjects, e.item.Subject)
				}
			}
			*to = append(*to, l)
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
