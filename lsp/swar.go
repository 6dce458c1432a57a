package lsp

import (
	"encoding/binary"
	"math/bits"
)

// Word-at-a-time byte tests for unquoting a megabyte didChange text: one
// pass finds the next byte that needs a look, where a byte loop checking
// for control characters was a third of the decode.

const (
	swarLo = 0x0101010101010101
	swarHi = 0x8080808080808080
)

// swarLess marks (high bit of each byte) the bytes of x below n (n <= 0x80).
// The lowest mark is exact; marks above it may be spurious (borrows), so
// only the first is used.
func swarLess(x uint64, n byte) uint64 { return (x - swarLo*uint64(n)) & ^x & swarHi }

// swarEq marks the bytes of x equal to c, the lowest exactly.
func swarEq(x uint64, c byte) uint64 { return swarLess(x^(swarLo*uint64(c)), 1) }

// indexUnquoteStop returns the index of the first byte of b below 0x20, '"'
// or '\\' (the bytes a JSON string's inside cannot hold as they are), or -1.
func indexUnquoteStop(b []byte) int {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		if m := swarLess(x, 0x20) | swarEq(x, '"') | swarEq(x, '\\'); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(b); i++ {
		if b[i] < 0x20 || b[i] == '"' || b[i] == '\\' {
			return i
		}
	}
	return -1
}
