package mcp

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// maxMessageBytes caps one inbound message line (16 MiB, the SDK's own
// default): a client that sends more gets an error reply, and the server's
// memory stays bounded whatever arrives on stdin.
const maxMessageBytes = 16 << 20

// lineReader splits stdin into newline-delimited messages, the MCP stdio
// framing ("messages are delimited by newlines and MUST NOT contain
// embedded newlines"). Only one goroutine may call next.
type lineReader struct {
	r     *bufio.Reader
	max   int    // longest line kept, in bytes, without its newline
	buf   []byte // the line being assembled; reused between lines
	start bool   // no byte read yet: a UTF-8 byte order mark may lead
}

// errLineTooLong is returned (wrapped in *tooLongError) for a line longer
// than the reader's cap; the line has been skipped.
var errLineTooLong = errors.New("line too long")

// tooLongError reports a skipped line and its length.
type tooLongError struct {
	size int64 // bytes consumed, newline included
}

func (e *tooLongError) Error() string { return errLineTooLong.Error() }
func (e *tooLongError) Unwrap() error { return errLineTooLong }

// newLineReader reads lines of at most max bytes (max >= 1) from r.
func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10), max: max, start: true}
}

// next returns the next line without its "\n" or "\r\n". The slice is valid
// until the following call. A final line without a newline is returned
// before io.EOF. A line longer than the cap is consumed up to its newline
// without being kept and reported as a *tooLongError, so memory stays within
// the cap whatever the input. Any other read error ends the stream.
func (lr *lineReader) next() ([]byte, error) {
	lr.buf = lr.buf[:0]
	var size int64
	over := false
	for {
		chunk, err := lr.r.ReadSlice('\n')
		if lr.start && len(chunk) > 0 {
			lr.start = false
			// Some Windows tools start a UTF-8 stream with a byte order mark;
			// it is not part of the JSON text (RFC 8259 §8.1).
			chunk = bytes.TrimPrefix(chunk, []byte("\xEF\xBB\xBF"))
		}
		size += int64(len(chunk))
		if !over {
			if n := len(lr.buf) + len(chunk); n <= lr.max+2 { // room for "\r\n"
				lr.grow(n)
				lr.buf = append(lr.buf, chunk...)
			} else {
				over = true
			}
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == nil: // chunk ends with '\n'
			if over {
				return nil, lr.tooLong(size)
			}
			line := trimNewline(lr.buf)
			if len(line) > lr.max {
				return nil, lr.tooLong(size)
			}
			return line, nil
		case err == io.EOF && size > 0:
			if over || len(lr.buf) > lr.max {
				return nil, lr.tooLong(size)
			}
			return lr.buf, nil
		default:
			return nil, err
		}
	}
}

// grow makes room for n bytes by doubling, never past the cap: append's
// own 1.25x steps for big slices leave many dead copies of a long line for
// the GC, which raised the peak memory of one 16 MiB line to ~75 MiB.
func (lr *lineReader) grow(n int) {
	if n <= cap(lr.buf) {
		return
	}
	c := max(2*cap(lr.buf), n, 4096)
	c = min(c, lr.max+2)
	lr.buf = append(make([]byte, 0, c), lr.buf...)
}

// tooLong reports a skipped line. A big buffer left over from it is
// dropped so one huge line does not pin its memory for the session.
func (lr *lineReader) tooLong(size int64) error {
	if cap(lr.buf) > 1<<20 {
		lr.buf = nil
	}
	return &tooLongError{size: size}
}

// trimNewline drops a trailing "\n" and a "\r" before it.
func trimNewline(b []byte) []byte {
	b = bytes.TrimSuffix(b, []byte("\n"))
	return bytes.TrimSuffix(b, []byte("\r"))
}
