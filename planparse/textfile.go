package planparse

import (
	"bytes"
	"slices"
	"strings"
	"unicode"
)

// textFile reports whether the plan is written as plain text: no ATX
// heading (setext underlines at most), and none of markdown's inline or
// block markup (emphasis, code spans, links, fences, tables). A TODO file
// of that kind writes its tasks as bullets and as bare lines alike.
func (r *reader) textFile() bool {
	for _, s := range r.secs {
		if s.head >= 0 && bytes.HasPrefix(bytes.TrimLeft(r.ln.text(r.headLine(s)), " "), []byte("#")) {
			return false
		}
		for _, ev := range s.events {
			if ev.kind == evFence || ev.kind == evTable {
				return false
			}
		}
	}
	for _, m := range [][]byte{[]byte("**"), []byte("__"), []byte("`"), []byte("]("), []byte("<!--")} {
		if bytes.Contains(r.src, m) {
			return false
		}
	}
	return true
}

// listTail reports whether paragraph ev, in a plan written as plain text
// (textFile), goes on with the list before it as one more task: the
// events between that list and ev are such tasks too, and ev is a short
// line (a line and, at most, a second that wraps or points at a file) that
// is no label: it does not end in a colon and is not written in capitals
// ("POSSIBLE MAJOR DEVELOPMENTS" starts a part of its own). The list is
// one under a heading, with an entry that is not empty.
func (r *reader) listTail(s *sec, i int) bool {
	if !r.plainFile || s.head < 0 {
		return false
	}
	for j := i; j >= 0; j-- {
		ev := s.events[j]
		switch ev.kind {
		case evComment:
			continue
		case evList:
			return j < i && !ev.files && slices.ContainsFunc(ev.entries, func(e entry) bool { return !e.empty })
		case evParagraph:
			if ev.lines == 0 || ev.lines > 2 || ev.first.End-ev.first.Start > 120 || endsInColon(ev.last) ||
				capitals(r.lineText(ev.l0)) {
				return false
			}
		default:
			return false
		}
	}
	return false
}

// capitals reports whether a line has letters and none of them is lower
// case: a label written in capitals.
func capitals(line string) bool {
	letters := 0
	for _, c := range line {
		if unicode.IsLower(c) {
			return false
		}
		if unicode.IsLetter(c) {
			letters++
		}
	}
	return letters >= 3
}

// describedFeature reports whether a section's whole body is one line of
// prose with a plain list right under it, on the next line, and nothing
// else ("# Marathon", then "Complete the puzzle several times in a row",
// then "- N disks M times"): the line says what the heading's work is and
// the list specifies it, as a line over the list right under it does in a
// plain-text TODO, so the heading is one item and both are its details. A
// line ending in a colon leads the list in instead, a blank line between
// them makes them two blocks, and a line that opens with '#' marks is a
// heading written wrong ("####### seven"), not a line that describes work.
func (r *reader) describedFeature(s *sec) bool {
	if s.head < 0 || len(s.kids) > 0 || s.boxes > 0 || s.rows > 0 || s.plain == 0 {
		return false
	}
	var para, list *event
	for _, ev := range s.events {
		switch {
		case ev.kind == evComment:
		case ev.kind == evParagraph && para == nil && list == nil && ev.lines == 1 && ev.prose && !endsInColon(ev.last) && !strings.HasPrefix(trimSpace(ev.last), "#"):
			para = ev
		case ev.kind == evList && para != nil && list == nil && len(ev.entries) > 0:
			list = ev
		default:
			return false
		}
	}
	if list == nil {
		return false
	}
	at := list.at(list.entries[0].item.Line).Start
	return nextLine(r.src, r.ln.end[para.l0], at-indentBefore(r.src, at))
}
