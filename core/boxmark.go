package core

import (
	"bytes"
	"strings"
)

// A task box's mark ("[ ]" → "[x]", "[~]", ...) records progress, not what
// the plan says: whoever ticks a box has changed no plan item, so the text
// an approval compares (textID, the outside-line hashes) reads every box as
// open. A ticked box of an item that is not completed is its own finding.

// boxMarks are the marks a box may hold, as the plan reader reads them.
const boxMarks = " xX~-/vV>!?"

// unticked is line with the mark of a task box at its start (after
// indentation, block-quote markers and a list marker, or with none) read as
// open: "- [x] Ship it" → "- [ ] Ship it". line is returned as it is when it
// holds no ticked box; otherwise the result is a copy.
func unticked(line []byte) []byte {
	i := boxAt(line)
	if i < 0 || line[i] == ' ' {
		return line
	}
	out := bytes.Clone(line)
	out[i] = ' '
	return out
}

// boxAt is the byte offset in line of a task box's mark, or -1 when line
// does not start (after indentation, '>' quote markers and one list marker:
// "-", "*", "+", "1." or "1)") with a box "[c]" followed by a space, a tab,
// Kiro's optional-task '*' or the end of the line.
func boxAt[T string | []byte](line T) int {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t' || line[i] == '>') {
		i++
	}
	marker := i
	switch j := i; {
	case j < len(line) && (line[j] == '-' || line[j] == '*' || line[j] == '+'):
		i = j + 1
	case j < len(line) && line[j] >= '0' && line[j] <= '9':
		for j < len(line) && j-i < 9 && line[j] >= '0' && line[j] <= '9' {
			j++
		}
		if j < len(line) && (line[j] == '.' || line[j] == ')') {
			i = j + 1
		}
	}
	if i > marker && (i == len(line) || (line[i] != ' ' && line[i] != '\t')) {
		return -1 // a marker is a list marker only with white space after it
	}
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	if i+2 >= len(line) || line[i] != '[' || line[i+2] != ']' || strings.IndexByte(boxMarks, line[i+1]) < 0 {
		return -1
	}
	if k := i + 3; k < len(line) && line[k] != ' ' && line[k] != '\t' && line[k] != '*' && line[k] != '\r' {
		return -1
	}
	return i + 1
}

// nextTick is the byte offset in s of the mark of the first ticked box
// (boxAt, a mark other than ' ') on a line starting at or after from, or -1
// when there is none; from must start a line.
func nextTick[T string | []byte](s T, from int) int {
	for start := from; start < len(s); {
		end := start
		for end < len(s) && s[end] != '\n' {
			end++
		}
		if i := boxAt(s[start:end]); i >= 0 && s[start+i] != ' ' {
			return start + i
		}
		start = end + 1
	}
	return -1
}

// untickedLines is untickedText of a string: s itself, with no copy, when
// no line of s has a ticked box (the common case; item keys are made from
// every planText at each keystroke).
func untickedLines(s string) string {
	if strings.IndexByte(s, '[') < 0 || nextTick(s, 0) < 0 {
		return s
	}
	return string(untickedText([]byte(s)))
}

// untickedText is src with every line's box read as open (unticked); src
// itself when no line has a ticked box.
func untickedText(src []byte) []byte {
	i := nextTick(src, 0)
	if i < 0 {
		return src
	}
	out := bytes.Clone(src)
	for ; i >= 0; i = nextTick(out, lineEnd(out, i)) {
		out[i] = ' '
	}
	return out
}

// lineEnd is the offset just past the line ending of the line holding byte
// i of b (len(b) on the last line).
func lineEnd(b []byte, i int) int {
	if j := bytes.IndexByte(b[i:], '\n'); j >= 0 {
		return i + j + 1
	}
	return len(b)
}
