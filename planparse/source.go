package planparse

import "bytes"

// lines is the line table of the original input. LF, CRLF and lone CR all end
// a line (rule 8), as LSP clients count them.
type lines struct {
	src   []byte
	start []int // byte offset where each line begins
	end   []int // byte offset where each line's content ends (terminator excluded)
}

func newLines(src []byte) *lines {
	n := bytes.Count(src, []byte{'\n'}) + 1
	l := &lines{src: src, start: make([]int, 0, n), end: make([]int, 0, n)}
	s := 0
	if bytes.IndexByte(src, '\r') < 0 {
		// No CR (most files): the '\n's, found with IndexByte, end the
		// lines; a byte loop over the whole plan was a twentieth of a
		// keystroke's parse at 1,000 items.
		for i := bytes.IndexByte(src, '\n'); i >= 0; i = bytes.IndexByte(src[s:], '\n') {
			l.start, l.end = append(l.start, s), append(l.end, s+i)
			s += i + 1
		}
	}
	for i := s; i < len(src); i++ {
		switch src[i] {
		case '\n':
			l.start, l.end = append(l.start, s), append(l.end, i)
			s = i + 1
		case '\r':
			l.start, l.end = append(l.start, s), append(l.end, i)
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			s = i + 1
		}
	}
	if s < len(src) || len(l.start) == 0 {
		l.start, l.end = append(l.start, s), append(l.end, len(src))
	}
	return l
}

// count is the number of lines.
func (l *lines) count() int { return len(l.start) }

// lineOf returns the 0-based line that holds byte offset off. An offset on a
// line terminator belongs to the line it ends.
func (l *lines) lineOf(off int) int {
	lo, hi := 0, len(l.start)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if l.start[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// text is the content of line i, terminator excluded.
func (l *lines) text(i int) []byte { return l.src[l.start[i]:l.end[i]] }

// blank reports whether line i holds only spaces and tabs.
func (l *lines) blank(i int) bool { return isBlank(l.text(i)) }

func isBlank(b []byte) bool { return len(bytes.Trim(b, " \t")) == 0 }

// prepare builds the private copy goldmark parses. It has exactly the length
// of src[base:], so offsets need no shifting: CRLF becomes " \n" (the CR turns
// into a trailing space, which no block rule cares about), a lone CR becomes
// "\n" (goldmark does not break lines on it), and YAML front matter turns into
// blank lines (rule 7). base is 3 when src starts with a UTF-8 BOM.
func prepare(src []byte) (buf []byte, base int) {
	if bytes.HasPrefix(src, []byte("\xEF\xBB\xBF")) {
		base = 3
	}
	buf = make([]byte, len(src)-base)
	copy(buf, src[base:])
	for i := 0; ; i++ {
		j := bytes.IndexByte(buf[i:], '\r')
		if j < 0 {
			break
		}
		i += j
		if i+1 < len(buf) && buf[i+1] == '\n' {
			buf[i] = ' '
		} else {
			buf[i] = '\n'
		}
	}
	blankFrontMatter(buf)
	return buf, base
}

// blankFrontMatter replaces a leading YAML front-matter block ("---" on the
// first line up to the next "---" or "..." line) with spaces, keeping newlines.
// Without a closing line there is no front matter: the "---" stays a thematic
// break, as CommonMark reads it.
func blankFrontMatter(buf []byte) {
	first, rest, ok := bytes.Cut(buf, []byte{'\n'})
	if !ok || string(bytes.TrimRight(first, " \t")) != "---" {
		return
	}
	off := len(first) + 1
	for len(rest) > 0 {
		line, next, _ := bytes.Cut(rest, []byte{'\n'})
		t := string(bytes.TrimRight(line, " \t"))
		end := off + len(line)
		if t == "---" || t == "..." {
			for i := 0; i < end; i++ {
				if buf[i] != '\n' {
					buf[i] = ' '
				}
			}
			return
		}
		off = end + 1
		rest = next
	}
}
