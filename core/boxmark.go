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

// untickedLines is untickedText of a string: s itself, with no copy, when
// no line of s has a ticked box (the common case; item keys are made from
// every planText at each keystroke).
func untickedLines(s string) string {
	if strings.IndexByte(s, '[') < 0 {
		return s
	}
	for start := 0; start < len(s); {
		end := strings.IndexByte(s[start:], '\n')
		if end < 0 {
			end = len(s)
		} else {
			end += start
		}
		if i := boxAt(s[start:end]); i >= 0 && s[start+i] != ' ' {
			return string(untickedText([]byte(s)))
		}
		start = end + 1
	}
	return s
}

// untickedText is src with every line's box read as open (unticked); src
// itself when no line has a ticked box.
func untickedText(src []byte) []byte {
	var out []byte
	for start := 0; start < len(src); {
		end := bytes.IndexByte(src[start:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += start
		}
		if i := boxAt(src[start:end]); i >= 0 && src[start+i] != ' ' {
			if out == nil {
				out = bytes.Clone(src)
			}
			out[start+i] = ' '
		}
		start = end + 1
	}
	if out == nil {
		return src
	}
	return out
}
