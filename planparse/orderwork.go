package planparse

import "strings"

// orderWork makes an ordering or schedule section the plan's work list
// when it is a numbered list whose steps carry their own details (nested
// lines under most of them) and nothing else in the plan states the work:
// no work-list or task label, no task or phase heading, no checkbox. An
// order that restates work listed elsewhere points to it ("1. Week 1: the
// cache") and is no item; when the plan lists its work nowhere else ("##
// Implementation Order", its steps and what each involves, after chapters
// of spec), the order is that list, and the chapters before it describe
// what it builds.
func (r *reader) orderWork() {
	var order *sec
	for _, s := range r.secs {
		if s.boxes > 0 || r.isAnchor(s) {
			return
		}
		if s.kind == kContext && s.ordered >= 2 && len(s.kids) == 0 && r.topLevel(s) && orderLabel(s.label) && detailedSteps(s) {
			if order != nil {
				return // two orders: neither is the one list of the work
			}
			order = s
		}
	}
	if order != nil {
		order.kind = kWork
	}
}

// detailedSteps reports whether half or more of the entries of a section's
// numbered lists have lines nested under them.
func detailedSteps(s *sec) bool {
	n, detailed := 0, 0
	for _, ev := range s.events {
		if ev.kind != evList || !ev.ordered {
			continue
		}
		for i := range ev.entries {
			if e := &ev.entries[i]; !e.empty {
				n++
				if e.hasKids() || e.item.PlanText != "" {
					detailed++
				}
			}
		}
	}
	return n >= 2 && detailed*2 >= n
}

// orderLabel reports whether a normalised label names an order or a
// schedule: one of its words is such a label ("implementation order",
// "build sequence", "timeline").
func orderLabel(label string) bool {
	for _, w := range orderWords {
		if hasCJK(w) {
			if strings.Contains(label, w) {
				return true
			}
			continue
		}
		for i := 0; ; {
			j := strings.Index(label[i:], w)
			if j < 0 {
				break
			}
			a, b := i+j, i+j+len(w)
			if (a == 0 || label[a-1] == ' ') && (b == len(label) || label[b] == ' ') {
				return true
			}
			i = b
		}
	}
	return false
}

// orderWords are the order and schedule labels among the context labels
// (labelWords), in the languages that table has.
var orderWords = []string{
	"order", "ordering", "sequence", "sequencing", "timeline", "schedule",
	"orden", "ordem", "ordre", "ordine", "cronograma", "calendrier", "reihenfolge", "zeitplan",
	"порядок", "сроки", "thứ tự", "lịch trình",
	"顺序", "順序", "时间线", "時間線", "スケジュール", "순서", "일정",
}
