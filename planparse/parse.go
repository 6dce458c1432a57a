package planparse

// parse is Parse. Every step is linear in len(src): the copy is prepared and
// capped once, parsed at most maxParses times (once for most plans: see
// predictBreaks), and walked once.
func parse(src []byte) *Plan { return parseWith(src, true) }

// parseWith is parse, with the break prediction optional so that tests can
// check it changes nothing but the number of parses.
func parseWith(src []byte, predict bool) *Plan {
	a := newAssembler()
	a.add(extractWith(src, predict), 0)
	return a.finish()
}

// extractWith parses src as a whole document and extracts its events.
func extractWith(src []byte, predict bool) *extract {
	ln := newLines(src)
	buf, base := prepare(src)
	capContainers(buf)
	var breaks []int
	if predict {
		breaks = mergeBreaks(nil, predictBreaks(ln, base))
	}
	t := parseTree(buf, base, breaks)
	for i := 1; i < maxParses; i++ {
		more := lazyBreaks(t, ln)
		if len(more) == 0 {
			break
		}
		breaks = mergeBreaks(breaks, more)
		t = parseTree(buf, base, breaks)
	}
	return extractTree(src, ln, t)
}
