package lsp

import (
	"testing"

	"go.lsp.dev/protocol"
)

func TestMapperPositions(t *testing.T) {
	tests := []struct {
		name string
		text string
		off  int // byte offset
		enc  encoding
		line uint32
		char uint32
	}{
		{"ascii", "abc\ndef", 5, utf16, 1, 1},
		{"e-acute 2 bytes 1 unit", "é x", 3, utf16, 0, 2},
		{"e-acute utf-8", "é x", 3, utf8Enc, 0, 3},
		{"emoji is a surrogate pair", "😀x", 4, utf16, 0, 2},
		{"emoji utf-8", "😀x", 4, utf8Enc, 0, 4},
		{"CJK", "计划x", 6, utf16, 0, 2},
		{"combining mark counts", "e\u0301x", 3, utf16, 0, 2},
		{"CRLF", "a\r\nb", 3, utf16, 1, 0},
		{"inside CRLF maps to line end", "ab\r\nc", 3, utf16, 0, 2},
		{"lone CR is a line break", "a\rb", 2, utf16, 1, 0},
		{"CR CR LF", "a\r\r\nb", 4, utf16, 2, 0},
		{"EOF without newline", "a\nbc", 4, utf16, 1, 2},
		{"past the end clamps", "a\nbc", 99, utf16, 1, 2},
		{"rocket UTF-16", "- 🚀 deploy привет", 7, utf16, 0, 5},
		{"rocket UTF-8", "- 🚀 deploy привет", 7, utf8Enc, 0, 7},
		{"invalid UTF-8", "\xff\xfex", 2, utf16, 0, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMapper([]byte(tt.text), tt.enc)
			got := m.position(tt.off)
			if got.Line != tt.line || got.Character != tt.char {
				t.Errorf("position(%d) = %d:%d, want %d:%d", tt.off, got.Line, got.Character, tt.line, tt.char)
			}
		})
	}
}

func TestMapperOffsets(t *testing.T) {
	tests := []struct {
		name       string
		text       string
		enc        encoding
		line, char uint32
		want       int
	}{
		{"ascii", "abc\ndef", utf16, 1, 2, 6},
		{"char past line end clamps before CRLF", "ab\r\ncd", utf16, 0, 40, 2},
		{"line past end", "ab\ncd", utf16, 9, 0, 5},
		{"middle of a surrogate pair", "😀x", utf16, 0, 1, 0},
		{"after emoji", "😀x", utf16, 0, 2, 4},
		{"utf-8 inside a sequence", "é", utf8Enc, 0, 1, 0},
		{"lone CR line", "a\rbc", utf16, 1, 1, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMapper([]byte(tt.text), tt.enc)
			p := protocol.Position{Line: tt.line, Character: tt.char}
			if got := m.offset(p); got != tt.want {
				t.Errorf("offset(%d:%d) = %d, want %d", tt.line, tt.char, got, tt.want)
			}
			if got := offsetIn([]byte(tt.text), p, tt.enc); got != tt.want {
				t.Errorf("offsetIn(%d:%d) = %d, want %d", tt.line, tt.char, got, tt.want)
			}
		})
	}
}

// Every rune boundary that is not inside a line ending survives
// offset → position → offset, in both encodings.
func TestMapperRoundTrip(t *testing.T) {
	for _, text := range []string{"# 计划 🌍\r\n- a é\n\n- 👩‍💻 b\rc", "", "\n", "x\r", "é\xffz"} {
		for _, enc := range []encoding{utf16, utf8Enc} {
			m := newMapper([]byte(text), enc)
			for off := 0; off <= len(text); off++ {
				if off < len(text) && (text[off]&0xC0) == 0x80 {
					continue
				}
				if off > 0 && off < len(text) && text[off-1] == '\r' && text[off] == '\n' {
					continue
				}
				if back := m.offset(m.position(off)); back != off {
					t.Errorf("%q %v: %d → %+v → %d", text, enc, off, m.position(off), back)
				}
				for _, p := range []protocol.Position{m.position(off), {Line: m.position(off).Line, Character: 99}, {Line: m.position(off).Line + 1}} {
					if in, want := offsetIn([]byte(text), p, enc), m.offset(p); in != want {
						t.Errorf("%q %v: offsetIn(%+v) = %d, offset %d", text, enc, p, in, want)
					}
				}
			}
		}
	}
}

func FuzzMapper(f *testing.F) {
	f.Add([]byte("a\r\nb😀\rc"), uint32(1), uint32(3))
	f.Fuzz(func(t *testing.T, text []byte, line, char uint32) {
		for _, enc := range []encoding{utf16, utf8Enc} {
			m := newMapper(text, enc)
			off := m.offset(protocol.Position{Line: line, Character: char})
			if off < 0 || off > len(text) {
				t.Fatalf("offset %d out of [0,%d]", off, len(text))
			}
			if in := offsetIn(text, protocol.Position{Line: line, Character: char}, enc); in != off {
				t.Fatalf("offsetIn %d, offset %d", in, off)
			}
			p := m.position(off)
			if int(p.Line) >= len(m.lines) {
				t.Fatalf("line %d of %d", p.Line, len(m.lines))
			}
		}
	})
}

// TestMapperRangeIsTwoPositions: a range counted on from its start (an end
// on the same line) is the range of the two positions, on text with
// multi-byte, four-byte and invalid UTF-8, CRLF and lone CR lines, in both
// encodings, for every pair of offsets.
func TestMapperRangeIsTwoPositions(t *testing.T) {
	text := []byte("a é\r\n😀b\xe4\xb8c\rx\xff\n\n中文 z\r\n")
	for _, enc := range []encoding{utf16, utf8Enc} {
		m := newMapper(text, enc)
		for s := -1; s <= len(text)+1; s++ {
			for e := s; e <= len(text)+1; e++ {
				want := protocol.Range{Start: m.position(s), End: m.position(e)}
				if got := m.rng(s, e); got != want {
					t.Fatalf("%v: rng(%d, %d) = %v, want %v", enc, s, e, got, want)
				}
			}
		}
	}
}
