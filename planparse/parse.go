package planparse

import "github.com/yuin/goldmark/ast"

// Parse parses plan markdown. It never fails and never panics: malformed or
// hostile input (binary bytes, huge lines, deep nesting, unclosed fences) still
// gives a Plan, in time linear in len(src): the copy is prepared and capped
// once, parsed once, and walked once; only when an item has lazy continuation
// lines (rule 4) are the parts of the document around them parsed again
// (reparse). src is not modified or retained. Parse is safe for concurrent
// use. All ranges in the Plan are byte offsets into src itself (a BOM, CRLF
// or lone CR is never stripped before counting).
func Parse(src []byte) *Plan {
	ln := newLines(src)
	buf, base := prepareRepaired(src)
	t := firstTree(buf, base, ln)
	kids := topLevel(t)
	if br := lazyBreaks(t, ln); len(br) > 0 {
		kids = reparse(buf, base, ln, kids, mergeBreaks(nil, br))
	}
	return read(src, ln, extractNodes(src, ln, kids), frontMatterTodos(src, ln))
}

// reparse returns the top-level blocks of buf parsed with a break before
// each offset in breaks (sorted, into buf), given kids, the blocks of the
// parse without breaks. Only segments are parsed again: each runs from the
// block holding a break to the next column-0 ATX heading block after it.
// What follows such a heading does not depend on what precedes it, as long
// as every block of the segment is closed when the heading comes: a
// segment whose last block is a fence or HTML block left open is grown to
// the next heading, up to the end. Measured on the 1,606-line
// testdata/bench/plan-1600.md (14 lazy lines): approving it took 1.5× the
// time of its blank-line twin when the whole document was parsed again,
// and about the same with segments (core BenchmarkApprove1600Lines).
func reparse(buf []byte, base int, ln *lines, kids []pnode, breaks []int) []pnode {
	// Where each block's first line starts, as an offset into buf: a
	// segment starts at a line start, so indentation reads as it did.
	starts := make([]int, len(kids))
	for i, k := range kids {
		starts[i] = max(ln.start[ln.lineOf(base+max(start(k.n), 0))]-base, 0)
	}
	var out []pnode
	i := 0 // next kid to copy
	for len(breaks) > 0 {
		// The block holding the first break, and the heading after it.
		k := i
		for k+1 < len(kids) && starts[k+1] <= breaks[0] {
			k++
		}
		out = append(out, kids[i:k]...)
		j := resync(buf, kids, starts, k+1, breaks[0])
		var sub *tree
		var seg []int
		for {
			end := len(buf)
			if j < len(kids) {
				end = starts[j]
			}
			seg = seg[:0]
			for _, b := range breaks {
				if b < end {
					seg = append(seg, b-starts[k])
				}
			}
			sub = parseSegment(buf[starts[k]:end], base+starts[k], ln, seg)
			if j >= len(kids) || endsClosed(sub, ln) {
				break
			}
			j = resync(buf, kids, starts, j+1, starts[j])
		}
		out = append(out, topLevel(sub)...)
		for len(breaks) > 0 && (j >= len(kids) || breaks[0] < starts[j]) {
			breaks = breaks[1:]
		}
		i = j
	}
	return append(out, kids[i:]...)
}

// resync returns the index of the first kid from `from` on that starts after
// offset at with a column-0 ATX heading line, or len(kids).
func resync(buf []byte, kids []pnode, starts []int, from, at int) int {
	for j := from; j < len(kids); j++ {
		if starts[j] > at && kids[j].n.Kind() == ast.KindHeading && isATXLine(lineAt(buf, starts[j])) {
			return j
		}
	}
	return len(kids)
}

// parseSegment parses seg (bytes of the prepared copy from offset
// base-of-input) with breaks, adding the breaks lazyBreaks still finds.
func parseSegment(seg []byte, base int, ln *lines, breaks []int) *tree {
	t := parseTree(seg, base, breaks)
	for i := 1; i < maxParses; i++ {
		var more []int
		for _, b := range lazyBreaks(t, ln) {
			if b >= 0 && b < len(seg) {
				more = append(more, b)
			}
		}
		if len(more) == 0 {
			break
		}
		breaks = mergeBreaks(breaks, more)
		t = parseTree(seg, base, breaks)
	}
	return t
}

// endsClosed reports whether the last block of t is closed by what t holds,
// so a heading line after it starts a new block: every block but a fenced
// code or HTML block that runs to the end of t unclosed.
func endsClosed(t *tree, ln *lines) bool {
	last := t.doc.LastChild()
	if last == nil {
		return true
	}
	switch last.Kind() {
	case ast.KindFencedCodeBlock, ast.KindHTMLBlock:
	default:
		return true
	}
	if h, ok := last.(*ast.HTMLBlock); ok && h.HasClosure() {
		return true
	}
	segs := last.Lines()
	if segs.Len() == 0 {
		return false
	}
	// Closed iff a line of t follows its last content line (the closing
	// fence or the blank line that ends an HTML block).
	lastLine := ln.lineOf(t.orig(segs.At(segs.Len() - 1).Start))
	return ln.start[min(lastLine+1, ln.count()-1)] < t.orig(t.size) && lastLine+1 < ln.count()
}

// lineAt returns up to 8 bytes of the line of buf that starts at s.
func lineAt(buf []byte, s int) []byte {
	e := s
	for e < len(buf) && e-s < 8 && buf[e] != '\n' {
		e++
	}
	return buf[s:e]
}

// prepareRepaired is prepare, with nesting capped (guard.go) and the fences
// authors mean read as they mean them (repair.go).
func prepareRepaired(src []byte) ([]byte, int) {
	buf, base := prepare(src)
	capContainers(buf)
	unwrapFence(buf)
	nestFences(buf)
	return buf, base
}

// firstTree parses buf once, and once more when a TODO file's indented
// bullets had to be made a list (indentedLists).
func firstTree(buf []byte, base int, ln *lines) *tree {
	t := parseTree(buf, base, nil)
	if indentedLists(t, buf, ln) {
		t = parseTree(buf, base, nil)
	}
	return t
}
