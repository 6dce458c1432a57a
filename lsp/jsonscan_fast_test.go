package lsp

import (
	"bytes"
	"testing"
)

// refSkipString is skipString without its short-string word scan.
func refSkipString(b []byte, i int) int {
	q := -1
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
		i += bs + 2
	}
	return -1
}

func checkSkipString(t *testing.T, b []byte) {
	t.Helper()
	for i := range b {
		if b[i] != '"' {
			continue
		}
		if got, want := skipString(b, i), refSkipString(b, i); got != want {
			t.Fatalf("%q at %d: skipString = %d, want %d", b, i, got, want)
		}
	}
}

func TestSkipStringShort(t *testing.T) {
	for _, s := range []string{
		`""`, `"a"`, `"abcdefgh"`, `"abcdefghi"`, `"abc\"def"`, `"abcdefg\"hij"`, `"\\"`, `"a\\\"b"`,
		`"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"x`,
		`"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdefgh"`,
		`"unterminated`, `"unterminated and longer than one word\`, `"x\"`,
		`{"range":{"start":{"line":1,"character":2}},"message":"open plan item #1 (pending): Add \"x\""}`,
	} {
		checkSkipString(t, []byte(s))
	}
}

func FuzzSkipString(f *testing.F) {
	f.Add([]byte(`"abcdefg\"hij" "x\\" "`))
	f.Fuzz(func(t *testing.T, b []byte) {
		checkSkipString(t, b)
	})
}
