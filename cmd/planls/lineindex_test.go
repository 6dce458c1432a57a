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
