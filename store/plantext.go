package store

import (
	"bytes"
	"unicode/utf8"
)

// NotText says why src is not a UTF-8 text file ("" when it is), in words
// that follow "is not text (": approve refuses such a plan file, and its
// dry run says so the same way. A UTF-8
// byte order mark is fine; the UTF-16 and UTF-32 ones are named, because
// editors on Windows save such files and the user needs to know what to change.
func NotText(src []byte) string {
	switch {
	case bytes.HasPrefix(src, []byte{0x00, 0x00, 0xFE, 0xFF}), bytes.HasPrefix(src, []byte{0xFF, 0xFE, 0x00, 0x00}):
		return "UTF-32 byte order mark"
	case bytes.HasPrefix(src, []byte{0xFE, 0xFF}), bytes.HasPrefix(src, []byte{0xFF, 0xFE}):
		return "UTF-16 byte order mark"
	case bytes.IndexByte(src, 0) >= 0:
		return "it holds NUL bytes"
	case !utf8.Valid(src):
		return "invalid UTF-8"
	}
	return ""
}
