package mcp

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
)

// readAll drains a lineReader: each line as a string, a too-long line as
// "<too long N>".
func readAll(t testing.TB, lr *lineReader) []string {
	t.Helper()
	var got []string
	for {
		line, err := lr.next()
		var tl *tooLongError
		switch {
		case errors.As(err, &tl):
			got = append(got, "<too long "+strconv.FormatInt(tl.size, 10)+">")
		case err == io.EOF:
			return got
		case err != nil:
			t.Fatalf("next: %v", err)
		default:
			got = append(got, string(line))
		}
	}
}

func TestLineReader(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		max  int
		want []string
	}{
		{"empty input", "", 10, nil},
		{"lines", "a\nbc\n", 10, []string{"a", "bc"}},
		{"crlf", "a\r\nb\r\n", 10, []string{"a", "b"}},
		{"last line without newline", "a\nb", 10, []string{"a", "b"}},
		{"blank lines are lines", "\n\r\n \n", 10, []string{"", "", " "}},
		{"exactly max", "12345\n", 5, []string{"12345"}},
		{"exactly max with crlf", "12345\r\n", 5, []string{"12345"}},
		{"one over max", "123456\nok\n", 5, []string{"<too long 7>", "ok"}},
		{"over max at EOF", "123456", 5, []string{"<too long 6>"}},
		{"bom at start", "\xEF\xBB\xBF{}\n", 10, []string{"{}"}},
		{"bom later is kept", "a\n\xEF\xBB\xBF{}\n", 10, []string{"a", "\xEF\xBB\xBF{}"}},
		{"binary", "\x00\xff\n\x01", 10, []string{"\x00\xff", "\x01"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := readAll(t, newLineReader(strings.NewReader(tc.in), tc.max))
			if strings.Join(got, "|") != strings.Join(tc.want, "|") || len(got) != len(tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestLineReaderHugeLine: a line far beyond the cap and beyond the bufio
// buffer is skipped whole, the next line is read, and the reader keeps no
// buffer the size of the huge line.
func TestLineReaderHugeLine(t *testing.T) {
	const max = 1 << 20
	huge := strings.Repeat("x", 5<<20)
	in := io.MultiReader(strings.NewReader(`{"a":1}`+"\n"), strings.NewReader(huge), strings.NewReader("\nnext\n"))
	lr := newLineReader(iotest.HalfReader(in), max)
	got := readAll(t, lr)
	want := []string{`{"a":1}`, "<too long 5242881>", "next"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("got %.80q, want %q", got, want)
	}
	if cap(lr.buf) > max+2 {
		t.Fatalf("reader kept a %d-byte buffer; cap is %d", cap(lr.buf), max)
	}
}

// TestLineReaderReadError: an I/O error other than EOF ends the stream.
func TestLineReaderReadError(t *testing.T) {
	boom := errors.New("boom")
	lr := newLineReader(io.MultiReader(strings.NewReader("a\n"), iotest.ErrReader(boom)), 10)
	if line, err := lr.next(); err != nil || string(line) != "a" {
		t.Fatalf("first line %q %v", line, err)
	}
	if _, err := lr.next(); !errors.Is(err, boom) {
		t.Fatalf("error %v, want boom", err)
	}
}

// FuzzLineReader checks the reader against splitting the whole input on
// "\n": same lines in the same order, "\r\n" trimmed, every line longer
// than the cap reported with its size instead of returned, and no line
// returned longer than the cap.
func FuzzLineReader(f *testing.F) {
	f.Add([]byte("a\nbb\r\n\n"), uint8(1))
	f.Add([]byte("\xEF\xBB\xBFabc\ndef"), uint8(3))
	f.Add([]byte("\r\r\n\n\r"), uint8(0))
	f.Add(bytes.Repeat([]byte("y"), 70000), uint8(200))
	f.Fuzz(func(t *testing.T, in []byte, m uint8) {
		max := int(m)%64 + 1
		if len(in) > 70000 && m%2 == 0 {
			max = 66000 // past the bufio buffer
		}
		lr := newLineReader(iotest.OneByteReader(bytes.NewReader(in)), max)
		if m%3 == 0 {
			lr = newLineReader(bytes.NewReader(in), max)
		}
		body := bytes.TrimPrefix(in, []byte("\xEF\xBB\xBF"))
		parts := bytes.Split(body, []byte("\n"))
		if len(parts[len(parts)-1]) == 0 {
			parts = parts[:len(parts)-1] // the input ended with a newline (or was empty)
		}
		for i, part := range parts {
			last := i == len(parts)-1 && !bytes.HasSuffix(body, []byte("\n"))
			line, err := lr.next()
			var tl *tooLongError
			want := part
			if !last {
				want = bytes.TrimSuffix(part, []byte("\r"))
			}
			if len(want) > max {
				consumed := int64(len(part))
				if !last {
					consumed++
				}
				if !errors.As(err, &tl) || tl.size != consumed {
					t.Fatalf("line %d (%d bytes, max %d): got %q, %v; want too long (%d)", i, len(want), max, line, err, consumed)
				}
				continue
			}
			if err != nil || !bytes.Equal(line, want) {
				t.Fatalf("line %d: got %q, %v; want %q", i, line, err, want)
			}
		}
		if line, err := lr.next(); err != io.EOF {
			t.Fatalf("after %d lines: got %q, %v; want EOF", len(parts), line, err)
		}
	})
}
