package lsp

import (
	"bytes"
	"encoding/binary"
	"math/bits"
)

// A structural JSON scanner for the two hot paths (a big notification's
// envelope, a didChange's params): it finds member and element boundaries
// without decoding or fully validating what it skips. Whoever decodes a
// skipped value validates it then.

// members calls fn with each member of the object that is the whole of b
// (surrounding whitespace aside): the key's raw bytes between its quotes
// (escapes left as they are) and the value's bytes. It reports false when
// b is not such an object, has no member, or fn returned false.
func members(b []byte, fn func(key, val []byte) bool) bool {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i = skipSpace(b, i+1)
	for {
		if i >= len(b) || b[i] != '"' {
			return false
		}
		kEnd := skipString(b, i)
		if kEnd < 0 {
			return false
		}
		key := b[i+1 : kEnd-1]
		i = skipSpace(b, kEnd)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		i = skipSpace(b, i+1)
		vEnd := skipValue(b, i)
		if vEnd < 0 || !fn(key, b[i:vEnd]) {
			return false
		}
		i = skipSpace(b, vEnd)
		if i < len(b) && b[i] == ',' {
			i = skipSpace(b, i+1)
			continue
		}
		if i >= len(b) || b[i] != '}' {
			return false
		}
		return skipSpace(b, i+1) == len(b)
	}
}

// elements calls fn with each element of the array that is the whole of b
// (surrounding whitespace aside). It reports false when b is not such an
// array or fn returned false; an empty array is true.
func elements(b []byte, fn func(val []byte) bool) bool {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '[' {
		return false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return skipSpace(b, i+1) == len(b)
	}
	for {
		end := skipValue(b, i)
		if end < 0 || !fn(b[i:end]) {
			return false
		}
		i = skipSpace(b, end)
		if i < len(b) && b[i] == ',' {
			i = skipSpace(b, i+1)
			continue
		}
		if i >= len(b) || b[i] != ']' {
			return false
		}
		return skipSpace(b, i+1) == len(b)
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index after the string starting at b[i] == '"',
// or -1 when it is unterminated. It jumps between quotes and backslashes
// (bytes.IndexByte is vectorised): a 1 MB didChange is one string. Control
// characters are left to the decoder of the params.
func skipString(b []byte, i int) int {
	// Most strings are short (keys, codes, a diagnostic's fields): two
	// IndexByte calls cost more than looking at their first words.
	for j := i + 1; j+8 <= len(b) && j <= i+shortString; j += 8 {
		x := binary.LittleEndian.Uint64(b[j:])
		q, bs := swarEq(x, '"'), swarEq(x, '\\')
		if q|bs == 0 {
			continue
		}
		// The lowest mark of each is exact: a quote before any backslash
		// ends the string.
		if k := bits.TrailingZeros64(q); q != 0 && (bs == 0 || k < bits.TrailingZeros64(bs)) {
			return j + k/8 + 1
		}
		break
	}
	q := -1 // absolute index of the next quote at or after i, once found
	for i++; i < len(b); {
		if q < i {
			n := bytes.IndexByte(b[i:], '"')
			if n < 0 {
				return -1
			}
			q = i + n
		}
		bs := bytes.IndexByte(b[i:q], '\\')
		if bs < 0 {
			return q + 1
		}
		i += bs + 2 // the escaped byte, whatever it is
	}
	return -1
}

// shortString is how far (bytes) skipString looks a word at a time before
// it searches.
const shortString = 64

// skipValue returns the index after the value starting at b[i]: strings,
// and objects and arrays by bracket depth (their inside is validated later,
// by whoever decodes them), or a run of literal characters. -1 when the
// value is unterminated or starts with a stray character.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		var stack []byte
		for ; i < len(b); i++ {
			switch c := b[i]; c {
			case '"':
				end := skipString(b, i)
				if end < 0 {
					return -1
				}
				i = end - 1
			case '{', '[':
				stack = append(stack, c)
			case '}', ']':
				if len(stack) == 0 || stack[len(stack)-1] != c-2 {
					return -1 // '}' is '{'+2 and ']' is '['+2
				}
				stack = stack[:len(stack)-1]
				if len(stack) == 0 {
					return i + 1
				}
			}
		}
		return -1
	case ',', '}', ']', ':':
		return -1
	}
	j := i
	for j < len(b) && !endsLiteral(b[j]) {
		j++
	}
	return j
}

func endsLiteral(c byte) bool {
	switch c {
	case ',', '}', ']', ' ', '\t', '\r', '\n':
		return true
	}
	return false
}
