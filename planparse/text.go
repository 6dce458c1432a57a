package planparse

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

// jsSpace reports whether r is white space for JavaScript's String.prototype.trim
// and \s, which rpiv uses: Unicode White_Space and line terminators plus
// U+FEFF, but not U+0085.
func jsSpace(r rune) bool {
	return r == '\uFEFF' || (r != '\u0085' && unicode.IsSpace(r))
}

// trimSpace trims JavaScript white space from both ends of s.
func trimSpace(s string) string {
	// Most texts it is given are trimmed already: ends that are ASCII and
	// not space (JavaScript's ASCII white space is all at or below ' ')
	// need no decoding.
	if n := len(s); n > 0 && ' ' < s[0] && s[0] < utf8.RuneSelf && ' ' < s[n-1] && s[n-1] < utf8.RuneSelf {
		return s
	}
	return strings.TrimFunc(s, jsSpace)
}

// trimRange narrows [s, e) of src to exclude JavaScript white space at both
// ends. The result stays on rune boundaries; invalid bytes are not space.
func trimRange(src []byte, s, e int) (int, int) {
	for s < e {
		r, n := utf8.DecodeRune(src[s:e])
		if !jsSpace(r) || r == utf8.RuneError {
			break
		}
		s += n
	}
	for e > s {
		r, n := utf8.DecodeLastRune(src[s:e])
		if !jsSpace(r) || r == utf8.RuneError {
			break
		}
		e -= n
	}
	return s, e
}

// checkbox reads a task box at the start of b: "[ ]", "[x]" or "[X]" (GFM),
// or a marker plans use for other states ("[~]", "[-]", "[/]", "[v]", "[>]",
// "[!]", "[?]"), followed by a space, a tab or the end of b; Kiro's "[ ]*"
// (an optional task) counts as the box, and so does "[]" before text. It returns the state and the number
// of bytes the box takes (0 when there is none).
func checkbox(b []byte) (Checkbox, int) {
	if len(b) > 3 && b[0] == '[' && b[1] == ']' && (b[2] == ' ' || b[2] == '\t') && !isBlank(b[3:]) {
		return Unchecked, 2 // "[] text": a box typed without its space
	}
	if len(b) < 3 || b[0] != '[' || b[2] != ']' {
		return NoCheckbox, 0
	}
	w := 3
	if len(b) > 3 && b[3] == '*' {
		w = 4
	}
	if len(b) > w && b[w] != ' ' && b[w] != '\t' {
		return NoCheckbox, 0
	}
	switch b[1] {
	case ' ':
		return Unchecked, w
	case 'x', 'X':
		return Checked, w
	case '~', '-', '/', 'v', 'V', '>', '!', '?':
		return OtherMark, w
	}
	return NoCheckbox, 0
}

// indent counts the leading spaces and tabs of b; a tab counts as one, as in
// rpiv's dedent.
func indent(b []byte) int { return len(b) - len(bytes.TrimLeft(b, " \t")) }

// planText joins lines [from, to] of ln as rule 4 says: leading and trailing
// blank lines removed, every line dedented by the smallest indent of the
// non-blank ones, the rest of each line kept byte for byte, joined with "\n".
func planText(ln *lines, from, to int) string {
	for from <= to && ln.blank(from) {
		from++
	}
	for to >= from && ln.blank(to) {
		to--
	}
	if from > to {
		return ""
	}
	minIndent, size := -1, 0
	for i := from; i <= to; i++ {
		size += ln.end[i] - ln.start[i] + 1
		if ln.blank(i) {
			continue
		}
		if n := indent(ln.text(i)); minIndent < 0 || n < minIndent {
			minIndent = n
		}
	}
	var b strings.Builder
	b.Grow(size)
	for i := from; i <= to; i++ {
		if i > from {
			b.WriteByte('\n')
		}
		if t := ln.text(i); len(t) > minIndent {
			b.Write(t[minIndent:])
		}
	}
	return b.String()
}
