package planparse

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// essayAt returns the index, in the events of a plan without headings, of
// the paragraph where written prose takes over from the list the plan
// opens with: the first paragraph after that list of two sentences or more
// that leads in nothing (it does not end in a colon). A TODO file that
// opens with its list and goes on to an essay ("I have rethought the
// diary. After some thought I concluded that it needs:" and then the
// points of the argument) tracks the list; the lists inside the essay are
// its points. It returns -1 when the plan has headings, opens with
// anything but a list, or has no such paragraph.
func (r *reader) essayAt() int {
	if len(r.secs) != 1 {
		return -1
	}
	evs := r.secs[0].events
	opened := false
	for i, ev := range evs {
		switch ev.kind {
		case evComment:
		case evList:
			opened = true
		case evParagraph:
			if !opened {
				return -1
			}
			if ev.lines > 0 && !endsInColon(ev.last) && sentenceCount(r.paragraphText(ev)) >= 2 {
				return i
			}
		default:
			if !opened {
				return -1
			}
		}
	}
	return -1
}

// inEssay reports whether list ev, the i-th event of a plan without
// headings, is a point of the essay the plan goes on to (essayAt): it
// comes after the essay's first paragraph, has no checkboxes, and no
// paragraph ending in a colon leads it in.
func (r *reader) inEssay(s *sec, i int) bool {
	if r.essay < 0 || s.idx != 0 || i <= r.essay || hasBoxes(s.events[i]) {
		return false
	}
	p := s.events[i-1]
	return p.kind != evParagraph || !endsInColon(p.last)
}

// paragraphText is the text of a paragraph's lines, joined by spaces.
func (r *reader) paragraphText(ev *event) string {
	if ev.l0 == ev.l1 {
		return r.lineText(ev.l0)
	}
	var b strings.Builder
	for l := ev.l0; l <= ev.l1; l++ {
		b.Write(r.ln.text(l))
		b.WriteByte(' ')
	}
	return b.String()
}

// endsInColon reports whether a line ends in a colon, ASCII or
// full-width, once emphasis and spaces are trimmed.
func endsInColon(line string) bool {
	t := trimSpace(removeEmphasis(line))
	return strings.HasSuffix(t, ":") || strings.HasSuffix(t, "：")
}

// sentenceCount counts the sentences of a text: a full stop, question or
// exclamation mark ends one when a space or the end follows it (any
// character after an ideographic one), and text after the last end is one
// more. "Fix it. Then ship." is two; "see e.g. the docs" is one, as "e.g."
// is followed by a lower-case word.
func sentenceCount(s string) int {
	n, open := 0, false
	for i, c := range s {
		switch c {
		case '。', '！', '？':
			if open {
				n++
			}
			open = false
		case '.', '!', '?':
			rest := s[i+1:]
			next, _ := utf8.DecodeRuneInString(strings.TrimLeft(rest, " "))
			if open && (rest == "" || rest[0] == ' ' && (next == utf8.RuneError || !unicode.IsLower(next))) {
				n++
				open = false
			}
		default:
			if !unicode.IsSpace(c) {
				open = true
			}
		}
	}
	if open {
		n++
	}
	return n
}
