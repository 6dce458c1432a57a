package planparse

import "testing"

// Lines gives a scan's answer at every offset, past both ends too.
func TestLinesMatchesScan(t *testing.T) {
	for _, src := range []string{
		"", "a", "\n", "\r", "\r\n", "\n\n", "\r\r\n\n",
		"a\r\nb\rc\nd\r\n\r\né- x",
		"# P\r\n\r\n- one\r\n- two\r\n",
		"no newline at the end\rlast",
	} {
		ix := NewLines([]byte(src))
		for off := -1; off <= len(src)+1; off++ {
			wl, wc := scanLineCol([]byte(src), off)
			if l, c := ix.LineCol(off); l != wl || c != wc {
				t.Errorf("%q at %d: LineCol = %d:%d, scan = %d:%d", src, off, l, c, wl, wc)
			}
			if l := LineOf([]byte(src), off); l != wl {
				t.Errorf("%q at %d: LineOf = %d, scan = %d", src, off, l, wl)
			}
		}
	}
}

// scanLineCol is the reference: a scan from the start converting a 0-based
// byte offset into a 1-based line and 1-based byte column. LF, CRLF and a
// lone CR each end a line (docs/PLAN-FORMAT.md).
func scanLineCol(src []byte, off int) (line, col int) {
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

func TestLineCol(t *testing.T) {
	src := []byte("a\r\nb\rc\nd\r\n\r\né- x")
	for _, tc := range []struct{ off, line, col int }{
		{0, 1, 1}, {1, 1, 2}, {3, 2, 1}, {5, 3, 1}, {7, 4, 1}, {10, 5, 1}, {12, 6, 1}, {14, 6, 3}, {100, 6, 6},
	} {
		if l, c := NewLines(src).LineCol(tc.off); l != tc.line || c != tc.col {
			t.Errorf("LineCol(%d) = %d:%d, want %d:%d", tc.off, l, c, tc.line, tc.col)
		}
	}
}
