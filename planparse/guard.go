package planparse

import "bytes"

// goldmark's block parser re-measures the remaining indentation once per open
// container on every line, and walks every open container on blank lines, so
// deep nesting costs it time quadratic in the depth (measured on v1.8.7: 8,000
// "- " markers on one line followed by short lines take ~0.3 s, 800 lines of
// growing indentation ~2 s). Plans never nest that deep, so before parsing,
// capContainers bounds what goldmark can see: on each line, the container
// prefix (indentation, list markers, '>' markers) is cut after maxPrefixMarkers
// markers or maxPrefixColumns columns by overwriting one byte with 'x', when
// another container marker would follow. The rest of the line then reads as
// plain text inside the deepest container that is left, so it stays inside the
// enclosing top-level item (and in its planText, which is taken from the
// original bytes). Deep white space before plain text is left alone: it opens
// no container, and its cost per open container is bounded by the cap.
const (
	maxPrefixMarkers = 10
	maxPrefixColumns = 40
)

// capContainers applies the bound to every line of buf in place. buf uses "\n"
// line endings only (see prepare).
func capContainers(buf []byte) {
	for s := 0; s < len(buf); {
		e := bytes.IndexByte(buf[s:], '\n')
		if e < 0 {
			e = len(buf)
		} else {
			e += s
		}
		capLine(buf[s:e])
		s = e + 1
	}
}

func capLine(line []byte) {
	if len(line) < maxPrefixColumns/4 || isThematicBreak(line) {
		return // too short to nest past the bound; or not a container line
	}
	col, markers := 0, 0
	for i := 0; i < len(line); {
		tok := i
		switch c := line[i]; {
		case c == ' ':
			col++
			i++
		case c == '\t':
			col += 4 - col%4
			i++
		case c == '>':
			markers++
			col++
			i++
		case (c == '-' || c == '*' || c == '+') && (i+1 == len(line) || line[i+1] == ' ' || line[i+1] == '\t'):
			markers++
			col++
			i++
		case c >= '0' && c <= '9':
			j := i
			for j < len(line) && j-i < 9 && line[j] >= '0' && line[j] <= '9' {
				j++
			}
			if j == len(line) || (line[j] != '.' && line[j] != ')') || (j+1 < len(line) && line[j+1] != ' ' && line[j+1] != '\t') {
				return
			}
			markers++
			col += j + 1 - i
			i = j + 1
		default:
			return
		}
		if markers > maxPrefixMarkers || col > maxPrefixColumns {
			if line[tok] == ' ' || line[tok] == '\t' {
				j := tok + indent(line[tok:])
				if j == len(line) || (line[j] != '>' && !isMarkerLine(line[j:])) {
					return // white space before text (or a blank tail) opens nothing
				}
			}
			line[tok] = 'x'
			return
		}
	}
}

// isThematicBreak reports whether line is a CommonMark thematic break: up to 3
// spaces of indentation, then 3 or more of one of '-', '*', '_', with only
// spaces and tabs between them.
func isThematicBreak(line []byte) bool {
	i := 0
	for i < len(line) && i < 3 && line[i] == ' ' {
		i++
	}
	if i == len(line) {
		return false
	}
	m := line[i]
	if m != '-' && m != '*' && m != '_' {
		return false
	}
	n := 0
	for ; i < len(line); i++ {
		switch line[i] {
		case m:
			n++
		case ' ', '\t':
		default:
			return false
		}
	}
	return n >= 3
}
