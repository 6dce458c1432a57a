package planparse

import (
	"bytes"
	"slices"

	"github.com/yuin/goldmark/ast"
)

// Rule 4 ("unindented lines end the item") differs from CommonMark, which
// reads a column-0 line after an item's paragraph as a lazy continuation of it.
// The only column-0 lines CommonMark puts inside a top-level list item are such
// lazy lines, so after a parse lazyBreaks finds them, and the copy is parsed again with a
// blank line inserted before each: the item ends there and the
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
	var at []int // line indices, ascending
	kids := children(t.doc)
	// The last list of a segment (parseSegment) ends where the segment
	// does, not at the end of the input: scanning on to the end made each
	// segment cost the rest of the document (BenchmarkParse items=1000,
	// 42 segments: half of the parse's bytes allocated here).
	end := -1
	if e := t.orig(t.size); e < len(ln.src) {
		end = e
	}
	for i, n := range kids {
		if n.Kind() == ast.KindParagraph {
			// "Steps:" then "2. next": a numbered line that does not start
			// at 1 cannot interrupt a paragraph in CommonMark, but rpiv
			// and plan authors read it as a list. A bullet line
			// that CommonMark keeps in a paragraph ("+ more words" in
			// wrapped prose) stays prose.
			segs := n.Lines()
			for k := 1; k < segs.Len(); k++ {
				l := ln.lineOf(t.orig(segs.At(k).Start))
				if txt := ln.text(l); atColumn0(txt) && txt[0] >= '0' && txt[0] <= '9' && isBreakingMarker(txt) {
					at = append(at, l)
				}
			}
			continue
		}
		if n.Kind() != ast.KindList {
			continue
		}
		next := end
		if i+1 < len(kids) {
			if p := start(kids[i+1]); p >= 0 {
				next = t.orig(p)
			}
		}
		for _, sp := range blockSpans(t, ln, children(n), next) {
			prevLazy := false
			for l := sp.first + 1; l <= sp.last; l++ {
				lazy := atColumn0(ln.text(l))
				if lazy && (!prevLazy || isBreakingMarker(ln.text(l))) {
					at = append(at, l)
				}
				prevLazy = lazy
			}
		}
	}
	// The paragraph a break starts takes in the column-0 lines after it, up
	// to a heading, and some markers can't interrupt a paragraph ("2. x"):
	// break before those too, so they stay list items as rpiv reads them. A
	// column-0 ATX heading ends the paragraph, so the run stops there: what
	// follows a heading never depends on what precedes it. out is unsorted
	// and has repeats; mergeBreaks sorts it.
	var out []int
	scanned := -1
	for _, l := range at {
		out = append(out, ln.start[l]-t.base)
		scanned = max(scanned, l)
		for k := scanned + 1; k < ln.count() && atColumn0(ln.text(k)) && !isATXLine(ln.text(k)); k++ {
			if isBreakingMarker(ln.text(k)) {
				out = append(out, ln.start[k]-t.base)
			}
			scanned = k
		}
	}
	return out
}

// isBreakingMarker reports whether a column-0 line inside a run of lazy lines
// gets its own break: a list marker line that is not a setext underline ("-"
// under a paragraph line makes it a heading, as CommonMark says).
func isBreakingMarker(line []byte) bool { return isMarkerLine(line) && !isUnderline(line) }

// atColumn0 reports whether a line is non-blank and starts at column 0.
func atColumn0(txt []byte) bool {
	return len(txt) > 0 && txt[0] != ' ' && txt[0] != '\t'
}

// mergeBreaks returns the sorted union of a and b.
func mergeBreaks(a, b []int) []int {
	m := slices.Concat(a, b)
	slices.Sort(m)
	return slices.Compact(m)
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
	out := make([]ast.Node, 0, n.ChildCount())
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		out = append(out, c)
	}
	return out
}

// isUnderline reports whether line could be a setext heading underline.
func isUnderline(line []byte) bool {
	t := bytes.TrimRight(line, " \t")
	return len(t) > 0 && (bytes.Count(t, t[:1]) == len(t)) && (t[0] == '=' || t[0] == '-')
}

// isATXLine reports whether a line (terminator excluded) is a column-0 ATX
// heading: 1–6 '#' followed by a space, a tab, a CR or the line's end.
func isATXLine(line []byte) bool {
	n := 0
	for n < len(line) && n < 7 && line[n] == '#' {
		n++
	}
	return n >= 1 && n <= 6 && (n == len(line) || line[n] == ' ' || line[n] == '\t' || line[n] == '\r' || line[n] == '\n')
}
