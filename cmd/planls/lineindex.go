package main

import "sort"

// lineIndex maps byte offsets of one file to 1-based lines and byte
// columns, where LF, CRLF and a lone CR each end a line (planls-rules.md
// rule 8), in
// O(log lines) per lookup: check places every finding of a plan with
// thousands of items, and a scan from the start per item made that
// quadratic in the file size.
type lineIndex struct {
	starts []int // byte offset where each line begins; starts[0] == 0
	size   int
}

// newLineIndex indexes src.
func newLineIndex(src []byte) *lineIndex {
	ix := &lineIndex{starts: []int{0}, size: len(src)}
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\n':
			ix.starts = append(ix.starts, i+1)
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				continue
			}
			ix.starts = append(ix.starts, i+1)
		}
	}
	return ix
}

// lineCol places off, a 0-based byte offset clamped to the file, at a
// 1-based line and 1-based byte column of the indexed src.
func (ix *lineIndex) lineCol(off int) (line, col int) {
	off = max(0, min(off, ix.size))
	// The last line start at or before off. A CR of a CRLF does not end the
	// line, so an offset on the LF belongs to the line the CR is on.
	i := sort.Search(len(ix.starts), func(i int) bool { return ix.starts[i] > off }) - 1
	return i + 1, off - ix.starts[i] + 1
}
