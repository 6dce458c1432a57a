package lsp

import (
	"bytes"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

// encoding is the unit of Position.Character negotiated in initialize
// (LSP 3.17 "PositionEncodingKind"): UTF-16 code units unless the client
// offers "utf-8" in general.positionEncodings.
type encoding int

const (
	utf16 encoding = iota
	utf8Enc
)

func (e encoding) String() string {
	if e == utf8Enc {
		return "utf-8"
	}
	return "utf-16"
}

// mapper converts between byte offsets into one document's exact bytes and
// LSP positions. Lines end at "\n", "\r\n" or a lone "\r", as LSP clients
// count them (a "\r\n" pair is one line ending, never two).
type mapper struct {
	text  []byte
	enc   encoding
	lines []int // byte offset of the start of each line
}

func newMapper(text []byte, enc encoding) *mapper {
	// Sized once: grown line by line, the table of a 1,000-item plan was
	// a twentieth of a keystroke's bytes (BenchmarkInProcessKeystroke).
	lines := make([]int, 1, bytes.Count(text, []byte{'\n'})+1)
	m := &mapper{text: text, enc: enc, lines: lines}
	if bytes.IndexByte(text, '\r') < 0 {
		// No CR (most files): each '\n', found with IndexByte, ends a line.
		for i := bytes.IndexByte(text, '\n'); i >= 0; {
			m.lines = append(m.lines, m.lines[len(m.lines)-1]+i+1)
			i = bytes.IndexByte(text[m.lines[len(m.lines)-1]:], '\n')
		}
		return m
	}
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\n':
			m.lines = append(m.lines, i+1)
		case '\r':
			if i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			m.lines = append(m.lines, i+1)
		}
	}
	return m
}

// lineEnd returns the byte offset where line l's content ends (its line
// ending excluded).
func (m *mapper) lineEnd(l int) int {
	if l+1 >= len(m.lines) {
		return len(m.text)
	}
	end := m.lines[l+1] - 1
	if m.text[end] == '\n' && end > m.lines[l] && m.text[end-1] == '\r' {
		end--
	}
	return end
}

// position converts a byte offset (clamped to [0, len]) to a position. An
// offset inside a "\r\n" pair maps to the end of its line.
func (m *mapper) position(off int) protocol.Position {
	off = min(max(off, 0), len(m.text))
	// The last line starting at or before off (sort.Search's, without
	// its call per step: every item's range asks for two positions).
	lo, hi := 0, len(m.lines)
	for lo < hi {
		if h := int(uint(lo+hi) >> 1); m.lines[h] > off {
			hi = h
		} else {
			lo = h + 1
		}
	}
	l := lo - 1
	start := m.lines[l]
	if end := m.lineEnd(l); off > end {
		off = end
	}
	return protocol.Position{Line: uint32(l), Character: uint32(m.units(m.text[start:off]))}
}

func (m *mapper) rng(start, end int) protocol.Range {
	p := m.position(start)
	// An end on start's line (an item's line: most ranges) is counted on
	// from start, without a second search and count of the line, when start
	// is where it was asked and at a character's first byte (so the
	// characters before and after it are those of the whole line).
	l := int(p.Line)
	if start >= m.lines[l] && start <= end && end <= m.lineEnd(l) && (start == len(m.text) || utf8.RuneStart(m.text[start])) {
		return protocol.Range{Start: p, End: protocol.Position{Line: p.Line, Character: p.Character + uint32(m.units(m.text[start:end]))}}
	}
	return protocol.Range{Start: p, End: m.position(end)}
}

// offset converts a position to a byte offset. A line past the end maps to
// the end of the text; a character past the end of its line is clamped to it
// (LSP spec, Position); a character inside a UTF-16 surrogate pair or a
// UTF-8 sequence maps to the start of that character.
func (m *mapper) offset(p protocol.Position) int {
	l := int(p.Line)
	if l >= len(m.lines) {
		return len(m.text)
	}
	return m.inLine(m.lines[l], m.lineEnd(l), int(p.Character))
}

// inLine is the offset of the character want units into the line
// text[start:end] (its line ending excluded), clamped to end.
func (m *mapper) inLine(start, end, want int) int {
	n := 0
	for i := start; i < end; {
		r, size := utf8.DecodeRune(m.text[i:end])
		w := m.width(r, size)
		if n+w > want {
			return i
		}
		n += w
		i += size
	}
	return end
}

// offsetIn is newMapper(text, enc).offset(p) without the line table when
// text has no CR: the lines before p are skipped, not indexed. An edit's
// two positions are all a didChange asks of its text, and the table was
// 40 KB and a twentieth of a keystroke's CPU at 1,000 items
// (BenchmarkInProcessKeystroke/repo1000).
func offsetIn(text []byte, p protocol.Position, enc encoding) int {
	if bytes.IndexByte(text, '\r') >= 0 {
		return newMapper(text, enc).offset(p)
	}
	start, end := 0, len(text)
	for l := int(p.Line); l > 0; l-- {
		i := bytes.IndexByte(text[start:], '\n')
		if i < 0 {
			return len(text)
		}
		start += i + 1
	}
	if i := bytes.IndexByte(text[start:], '\n'); i >= 0 {
		end = start + i
	}
	return (&mapper{text: text, enc: enc}).inLine(start, end, int(p.Character))
}

// width is the length of rune r, size bytes of UTF-8, in the negotiated
// unit. Invalid UTF-8 is one unit per byte in UTF-16 (as U+FFFD), so
// offsets never run past the text.
func (m *mapper) width(r rune, size int) int {
	switch {
	case m.enc == utf8Enc:
		return size
	case r >= 0x10000 && r != utf8.RuneError:
		return 2
	}
	return 1
}

func (m *mapper) units(b []byte) int {
	if m.enc == utf8Enc {
		return len(b)
	}
	n := 0
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf { // most plan text: no decoding
			n, i = n+1, i+1
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		n += m.width(r, size)
		i += size
	}
	return n
}

// lineOf returns the 0-based line of a byte offset.
func (m *mapper) lineOf(off int) int { return int(m.position(off).Line) }
