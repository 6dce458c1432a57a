package planparse

import (
	"sort"

	"github.com/yuin/goldmark/ast"
)

// Rule 4 ("unindented lines end the item") differs from CommonMark, which
// reads a column-0 line after an item's paragraph as a lazy continuation of it.
// The only column-0 lines CommonMark puts inside a top-level list item are such
// lazy lines, so after a parse lazyBreaks finds them, and the copy is parsed
// again with a blank line inserted before each: the item ends there and the
// line starts a paragraph of the section, exactly as if the author had left a
// blank line. A run of lazy lines is one paragraph, so only its first line
// gets a break, plus each line of the run that looks like a list marker
// ("2. next" cannot interrupt a paragraph in CommonMark, but rpiv reads it as
// an item).

// maxParses bounds the re-parses. Breaks found after one re-parse are rare
// (each re-parse only moves lines out of items), so a third parse is a safety
// net, not a loop.
const maxParses = 3

// lazyBreaks returns the offsets, relative to the parsed copy before any
// insertion (original offset minus base), of lines that need a break.
func lazyBreaks(t *tree, ln *lines) []int {
	var out []int
	kids := children(t.doc)
	for i, n := range kids {
		if n.Kind() != ast.KindList {
			continue
		}
		next := -1
		if i+1 < len(kids) {
			if p := start(kids[i+1]); p >= 0 {
				next = t.orig(p)
			}
		}
		for _, sp := range blockSpans(t, ln, children(n), next) {
			prevLazy := false
			for l := sp.first + 1; l <= sp.last; l++ {
				txt := ln.text(l)
				lazy := len(txt) > 0 && txt[0] != ' ' && txt[0] != '\t'
				if lazy && (!prevLazy || isMarkerLine(txt)) && ln.start[l] >= t.base {
					out = append(out, ln.start[l]-t.base)
				}
				prevLazy = lazy
			}
		}
	}
	return out
}

// mergeBreaks returns the sorted union of a and b.
func mergeBreaks(a, b []int) []int {
	m := append(append([]int(nil), a...), b...)
	sort.Ints(m)
	out := m[:0]
	for i, v := range m {
		if i == 0 || v != m[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// isMarkerLine reports whether line starts with a list marker: '-', '*', '+'
// or 1–9 digits and '.' or ')', followed by a space, a tab or the line's end.
func isMarkerLine(line []byte) bool {
	if len(line) == 0 {
		return false
	}
	i := 0
	switch c := line[0]; {
	case c == '-' || c == '*' || c == '+':
		i = 1
	case c >= '0' && c <= '9':
		for i < len(line) && i < 9 && line[i] >= '0' && line[i] <= '9' {
			i++
		}
		if i == len(line) || (line[i] != '.' && line[i] != ')') {
			return false
		}
		i++
	default:
		return false
	}
	return i == len(line) || line[i] == ' ' || line[i] == '\t'
}

// children lists the block children of n.
func children(n ast.Node) []ast.Node {
	var out []ast.Node
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		out = append(out, c)
	}
	return out
}
