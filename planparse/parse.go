package planparse

import "bytes"

// Parse parses plan markdown. It never fails and never panics: malformed or
// hostile input (binary bytes, huge lines, deep nesting, unclosed fences) still
// gives a Plan, in time linear in len(src): the copy is prepared and capped
// once, parsed part by part (see Reparse) and walked once. src is not
// modified or retained. Parse is safe for concurrent use. All ranges in the
// Plan are byte offsets into src itself (a BOM, CRLF or lone CR is never
// stripped before counting).
func Parse(src []byte) *Plan { return Reparse(nil, src) }

// Reparse is Parse for a later version of the plan prev was parsed from
// (nil: none): the block parse of every part whose bytes prev's parse also
// had, and the blocks read from it (moved to where the part now is), are
// reused, so an edit costs the parse of the part it touched, and the
// reading rules then run over the whole document as Parse's do. A part
// runs from a column-0 ATX heading to the next: what follows such a heading
// does not depend on what precedes it, as long as every block of the part
// is closed when the heading comes; a part whose last block is a fence or
// HTML block left open runs to the end. Measured
// on a 1,000-item plan (BenchmarkReparseEdit): a keystroke's parse went from
// the whole document's to about a tenth of it; prev is not modified, and
// parts are shared between the Plans (read-only).
func Reparse(prev *Plan, src []byte) *Plan {
	ln := newLines(src)
	buf, base := prepareRepaired(src)
	var old map[string]*tree
	if prev != nil {
		old = prev.parts
	}
	heads := atxLines(buf)
	parts := make(map[string]*tree, len(heads))
	x := &extract{}
	if prev != nil {
		x.items = len(prev.Items) + len(prev.Items)/8 + 8
	}
	var trees []*tree
	for i := 0; i < len(heads); {
		j := i + 1
		end := len(buf)
		if j < len(heads) {
			end = heads[j]
		}
		t := partTree(buf[heads[i]:end], base+heads[i], src, ln, old, parts)
		if j < len(heads) && !endsClosed(t, ln) {
			// An open fence or HTML block takes in what follows: the rest
			// is one part (growing it heading by heading would parse a
			// document of many open blocks in quadratic time).
			t, j = partTree(buf[heads[i]:], base+heads[i], src, ln, old, parts), len(heads)
		}
		trees = append(trees, t)
		i = j
	}
	n := 0
	for _, t := range trees {
		n += len(t.events)
	}
	x.events = make([]event, 0, n)
	for _, t := range trees {
		x.events = t.appendEvents(x.events, ln)
	}
	x.title, x.titleRange, x.hasTitle = firstTitle(trees)
	p := read(src, ln, x, frontMatterTodos(src, ln))
	p.parts = parts
	return p
}

// atxLines returns the offsets in buf where parts start: 0, and each
// column-0 ATX heading line after it.
func atxLines(buf []byte) []int {
	out := []int{0}
	for s := 0; s < len(buf); {
		e := bytes.IndexByte(buf[s:], '\n')
		if e < 0 {
			e = len(buf)
		} else {
			e += s
		}
		if s > 0 && isATXLine(buf[s:e]) {
			out = append(out, s)
		}
		s = e + 1
	}
	return out
}

// partTree is the parse of part (bytes of the prepared copy at offset base
// of src, whose line table is ln) and its events: old's when old has the
// same bytes (rebased), else a new parse. It records the result in parts
// under the part's bytes.
func partTree(part []byte, base int, src []byte, ln *lines, old, parts map[string]*tree) *tree {
	t, ok := old[string(part)]
	if !ok {
		t = parseSegment(part, base, ln, nil)
		if indentedLists(t, part, ln) {
			t = parseSegment(part, base, ln, nil)
		}
		t.extractPart(src, ln)
		t.key = string(part)
	}
	// The key of a part seen before is its tree's: not the whole plan
	// copied into new keys on every keystroke.
	parts[t.key] = t
	if t.base == base {
		return t
	}
	rebased := *t
	rebased.base = base
	return &rebased
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
	switch t.tail {
	case tailClosed:
		return true
	case tailEmpty:
		return false
	}
	// Closed iff a line of t follows its last content line (the closing
	// fence or the blank line that ends an HTML block).
	lastLine := ln.lineOf(t.orig(t.tail))
	return ln.start[min(lastLine+1, ln.count()-1)] < t.orig(t.size) && lastLine+1 < ln.count()
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
