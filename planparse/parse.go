package planparse

// parse is Parse. Every step is linear in len(src): the copy is prepared and
// capped once, parsed at most maxParses times (once when no item has a lazy
// continuation line, see lazyBreaks), and walked once.
func parse(src []byte) *Plan {
	ln := newLines(src)
	buf, base := prepare(src)
	capContainers(buf)
	t := parseTree(buf, base, nil)
	var breaks []int
	for i := 1; i < maxParses; i++ {
		more := lazyBreaks(t, ln)
		if len(more) == 0 {
			break
		}
		breaks = mergeBreaks(breaks, more)
		t = parseTree(buf, base, breaks)
	}
	return read(src, extractTree(src, ln, t), frontMatterTodos(src, ln))
}
