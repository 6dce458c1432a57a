package planparse

import (
	"bytes"

	"github.com/yuin/goldmark/ast"
)

// Two ways plans are written that CommonMark reads otherwise than their
// authors mean. Both are repaired in the private copy that goldmark parses
// (prepare's buf), keeping its length, so every offset still points at the
// original bytes and plan text is taken from the original lines.

// nestFences lets a fenced block hold file content with fences of its own,
// as plans quote a README or a Markdown file:
//
//	````markdown   or   ```markdown
//	```bash             ```bash
//	make                make
//	```                 ```        ← CommonMark closes the outer fence here
//	````                ```
//
// Inside an open fence, a fence line with an info string ("```bash") cannot
// close it, so it opens a nested one, and the next bare fence line of the
// same character closes that nested fence, not the outer one: its fence
// characters are turned into spaces in buf. This applies only where the
// nested reading closes the outer fence before the document ends;
// otherwise the block is left as CommonMark reads it.
func nestFences(buf []byte) {
	if !bytes.Contains(buf, []byte("```")) && !bytes.Contains(buf, []byte("~~~")) {
		return
	}
	// Only fence lines open, nest or close a fence: the others are not
	// kept (a slice of every line was a tenth of a keystroke's parse bytes
	// at 1,000 items).
	type line struct {
		start, end int
		ch         byte
		n          int
		info       bool
	}
	var lines []line
	for s := 0; s <= len(buf); {
		e := bytes.IndexByte(buf[s:], '\n')
		if e < 0 {
			e = len(buf)
		} else {
			e += s
		}
		if ch, n, info, ok := fenceLine(buf[s:e]); ok {
			lines = append(lines, line{s, e, ch, n, info})
		}
		s = e + 1
	}
	for i := 0; i < len(lines); i++ {
		ch, n := lines[i].ch, lines[i].n
		// An open fence: find where CommonMark closes it, and where the
		// nested reading does.
		depth, close, nestedClose := 0, -1, -1
		var inner []int
		for j := i + 1; j < len(lines); j++ {
			c2, n2, info2 := lines[j].ch, lines[j].n, lines[j].info
			if c2 != ch {
				continue
			}
			if info2 {
				depth++
				continue
			}
			if n2 < n {
				continue
			}
			if close < 0 {
				close = j
			}
			if depth > 0 {
				depth--
				inner = append(inner, j)
				continue
			}
			nestedClose = j
			break
		}
		switch {
		case nestedClose < 0 || len(inner) == 0:
			// Nothing nested, or the nested reading never closes: CommonMark.
			if close >= 0 {
				i = close
			}
		default:
			for _, j := range inner {
				l := buf[lines[j].start:lines[j].end]
				for k := range l {
					if l[k] == ch {
						l[k] = ' '
					}
				}
			}
			i = nestedClose
		}
	}
}

// fenceLine reads a line as a code fence: up to three spaces, then three or
// more '`' or '~', then an optional info string (a backtick fence's info may
// not hold a backtick).
func fenceLine(l []byte) (ch byte, n int, info, ok bool) {
	i := 0
	for i < len(l) && i < 4 && l[i] == ' ' {
		i++
	}
	if i > 3 || i >= len(l) || (l[i] != '`' && l[i] != '~') {
		return 0, 0, false, false
	}
	ch = l[i]
	for i < len(l) && l[i] == ch {
		i++
		n++
	}
	if n < 3 {
		return 0, 0, false, false
	}
	rest := bytes.TrimSpace(l[i:])
	if ch == '`' && bytes.IndexByte(rest, '`') >= 0 {
		return 0, 0, false, false
	}
	return ch, n, len(rest) > 0, true
}

// unwrapFence reads a plan saved as one fenced block of Markdown ("```md"
// on its first line, "```" on its last, as agents print a plan in a chat)
// as the Markdown inside: the two fence lines are turned into spaces in buf.
// Only a fence with no info string or a Markdown or text one that spans the
// whole document (blank lines and front matter aside) and holds a heading or
// a list is unwrapped.
func unwrapFence(buf []byte) {
	line := func(s int) []byte {
		if e := bytes.IndexByte(buf[s:], '\n'); e >= 0 {
			return buf[s : s+e]
		}
		return buf[s:]
	}
	// The first line that is not blank must open a fence: most plans stop
	// here, without a look at their other lines.
	first, last := -1, -1
	for s := 0; s < len(buf) && first < 0; s += len(line(s)) + 1 {
		if len(bytes.TrimSpace(line(s))) > 0 {
			first = s
		}
	}
	if first < 0 {
		return
	}
	open := line(first)
	ch, n, info, ok := fenceLine(open)
	if !ok {
		return
	}
	for s := first; s < len(buf); s += len(line(s)) + 1 {
		if len(bytes.TrimSpace(line(s))) > 0 {
			last = s
		}
	}
	if first == last {
		return
	}
	close := line(last)
	ch2, n2, info2, ok2 := fenceLine(close)
	if !ok2 || info2 || ch2 != ch || n2 < n {
		return
	}
	if info {
		switch string(bytes.ToLower(bytes.TrimSpace(bytes.TrimLeft(bytes.TrimSpace(open), string(ch))))) {
		case "md", "markdown", "mdx", "text", "txt", "plan":
		default:
			return
		}
	}
	// What is inside must read as Markdown: a heading or a list line.
	md := false
	for s := first + len(open) + 1; s < last && !md; {
		l := line(s)
		t := bytes.TrimLeft(l, " ")
		md = len(l)-len(t) < 4 && (isATXLine(t) || isMarkerLine(t))
		s += len(l) + 1
	}
	if !md {
		return
	}
	// The fence must not close earlier: a bare fence line of its character
	// in between, other than one that closes a fence opened inside it,
	// means the document holds more than one block.
	depth := 0
	for s := first + len(open) + 1; s < last; {
		l := line(s)
		if c, m, inf, ok := fenceLine(l); ok && c == ch {
			switch {
			case inf:
				depth++
			case depth > 0:
				depth--
			case m >= n:
				return
			}
		}
		s += len(l) + 1
	}
	for _, l := range [][]byte{open, close} {
		for k := range l {
			if l[k] != '\r' {
				l[k] = ' '
			}
		}
	}
}

// indentedLists finds top-level indented code blocks that are lists a TODO
// file indents by four spaces ("    - fix the crash"): every line of the
// block is a list item at four spaces or deeper text. It rewrites each item
// line of such a block in buf from "    - x" to "   -  x" (a list marker at
// three spaces, same length), and reports whether it rewrote any, so that
// the caller parses buf again.
func indentedLists(t *tree, buf []byte, ln *lines) bool {
	changed := false
	for c := t.doc.FirstChild(); c != nil; c = c.NextSibling() {
		if c.Kind() != ast.KindCodeBlock {
			continue
		}
		segs := c.Lines()
		if segs.Len() == 0 {
			continue
		}
		var items []int // buf offsets of item lines
		ok := true
		for i := 0; i < segs.Len() && ok; i++ {
			l := ln.lineOf(t.orig(segs.At(i).Start))
			ls := ln.start[l] - t.base
			if ls < 0 || ls >= len(buf) {
				ok = false
				break
			}
			text := buf[ls:]
			if e := bytes.IndexByte(text, '\n'); e >= 0 {
				text = text[:e]
			}
			text = bytes.TrimRight(text, " \r")
			switch ind := indent(text); {
			case len(text) == 0:
			case ind == 4 && text[0] == ' ' && isMarkerLine(text[4:]):
				items = append(items, ls)
			case ind > 4 && len(items) > 0:
			default:
				ok = false
			}
		}
		if !ok || len(items) == 0 {
			continue
		}
		for _, ls := range items {
			l := buf[ls:]
			m := 4
			for m < len(l) && l[m] >= '0' && l[m] <= '9' {
				m++
			}
			m++ // the marker character ('-', '*', '+', '.' or ')')
			// "    - x" → "   -  x": shift the marker left by one.
			copy(l[3:m], l[4:m])
			l[m-1] = ' '
		}
		changed = true
	}
	return changed
}
