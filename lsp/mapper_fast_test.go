package lsp

import (
	"testing"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

// slowMapper is newMapper's general loop, which the LF-only fast path must
// match line for line.
func slowLines(text []byte) []int {
	lines := []int{0}
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\n':
			lines = append(lines, i+1)
		case '\r':
			if i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			lines = append(lines, i+1)
		}
	}
	return lines
}

// refUnits counts UTF-16 units rune by rune, invalid bytes as one each.
func refUnits(b []byte) int {
	n := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		n++
		if r >= 0x10000 && r != utf8.RuneError {
			n++
		}
		b = b[size:]
	}
	return n
}

// checkMapperFast: the line index equals the general loop's, and rng of
// every pair of offsets equals the two positions it stands for.
func checkMapperFast(t *testing.T, text []byte) {
	t.Helper()
	want := slowLines(text)
	for _, enc := range []encoding{utf16, utf8Enc} {
		m := newMapper(text, enc)
		if len(m.lines) != len(want) {
			t.Fatalf("%q: %d lines, want %d", text, len(m.lines), len(want))
		}
		for i := range want {
			if m.lines[i] != want[i] {
				t.Fatalf("%q: line %d at %d, want %d", text, i, m.lines[i], want[i])
			}
		}
		for s := 0; s <= len(text) && enc == utf16; s++ {
			for e := s; e <= len(text); e++ {
				if got, want := m.units(text[s:e]), refUnits(text[s:e]); got != want {
					t.Fatalf("%q: units of [%d:%d] = %d, want %d", text, s, e, got, want)
				}
			}
		}
		for s := -1; s <= len(text)+1; s++ {
			for e := -1; e <= len(text)+1; e++ {
				got := m.rng(s, e)
				exp := protocol.Range{Start: m.position(s), End: m.position(e)}
				if got != exp {
					t.Fatalf("%q %v: rng(%d,%d) = %v, want %v", text, enc, s, e, got, exp)
				}
			}
		}
	}
}

func TestMapperFastPaths(t *testing.T) {
	for _, text := range []string{
		"", "\n", "a", "a\nb", "a\n\nb\n", "ab😀cd\nx", "12345678😀\n1234567é9abc",
		"a\r\nb", "a\rb\n", "\xf0\x9f\x98\nb", "abc\xe9def\n", "long ascii line of more than eight\nbytes",
	} {
		checkMapperFast(t, []byte(text))
	}
}

func FuzzMapperFastPaths(f *testing.F) {
	f.Add([]byte("a\r\nb😀\rc"))
	f.Add([]byte("12345678😀\n1234567é9"))
	f.Fuzz(func(t *testing.T, text []byte) {
		if len(text) > 64 {
			text = text[:64]
		}
		checkMapperFast(t, text)
	})
}
