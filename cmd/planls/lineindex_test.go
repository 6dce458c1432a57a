package main

import "testing"

// The index gives byteLineCol's answer at every offset, past the end too.
func TestLineIndexMatchesScan(t *testing.T) {
	for _, src := range []string{
		"", "a", "\n", "\r", "\r\n", "\n\n", "\r\r\n\n",
		"a\r\nb\rc\nd\r\n\r\né- x",
		"# P\r\n\r\n- one\r\n- two\r\n",
		"no newline at the end\rlast",
	} {
		ix := newLineIndex([]byte(src))
		for off := -1; off <= len(src)+1; off++ {
			wl, wc := byteLineCol([]byte(src), off)
			if l, c := ix.lineCol(off); l != wl || c != wc {
				t.Errorf("%q at %d: lineCol = %d:%d, byteLineCol = %d:%d", src, off, l, c, wl, wc)
			}
		}
	}
}

// byteLineCol is the reference the index is checked against: a scan from
// the start converting a 0-based byte offset into a 1-based line and 1-based
// byte column. LF, CRLF and a lone CR each end a line (planls-rules.md rule 8).
func byteLineCol(src []byte, off int) (line, col int) {
	off = max(0, min(off, len(src)))
	line, start := 1, 0
	for i := 0; i < off; i++ {
		switch src[i] {
		case '\n':
			line, start = line+1, i+1
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				continue
			}
			line, start = line+1, i+1
		}
	}
	return line, off - start + 1
}
