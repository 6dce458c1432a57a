package planparse

import (
	"bytes"
	"sync"

	"github.com/yuin/goldmark/ast"
)

// Cache parses successive versions of one document, re-parsing only the
// chunks that changed since the previous call. Its result is always equal
// (reflect.DeepEqual, every Range and Problem included) to Parse(src).
//
// The source is cut before column-0 ATX heading lines ("#" to "######" then
// a space, a tab or the line's end). goldmark parses each chunk as a document
// of its own; the chunk's events, with offsets relative to the chunk, are
// kept under the chunk's bytes, and replayed through the same rules as Parse
// (scope, context labels, lead-ins, prose-only sections, title, duplicates).
// A cut is used only where the chunk before it provably ends with every block
// closed by such a heading line: a chunk whose last block is a fenced code or
// HTML block that runs to the chunk's end (so could swallow the heading) is
// joined with the chunks after it and parsed again, the join doubling in
// chunks each time, so the worst case (a fence left open near the top, which
// swallows the rest) costs about two full parses. Headings inside front
// matter are never cut at (prepare blanks them first).
//
// Chunks not used by the latest call are dropped, so the memory held is
// about the size of the latest document plus its events.
//
// Use one Cache per document: a call drops what the previous one kept for
// any other text. A Cache is safe for concurrent use: calls are serialized. The zero value
// is not usable; use NewCache.
type Cache struct {
	mu     sync.Mutex
	chunks map[string]*extract
	gen    uint64 // number of the latest call: chunks it used carry it
	items  int    // items of the latest plan, to size the next one
	stats  cacheStats
}

// cacheStats counts the work of the latest Parse call, for tests.
type cacheStats struct {
	parsed, reused, joined int
}

// NewCache returns an empty Cache.
func NewCache() *Cache { return &Cache{chunks: map[string]*extract{}} }

// Parse is Parse(src), reusing the chunks of earlier calls whose bytes are
// unchanged. src is not modified or retained.
func (c *Cache) Parse(src []byte) *Plan {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stats = cacheStats{}
	bounds := cutPoints(src)
	c.gen++
	a := newAssembler()
	if c.items > 0 {
		a.plan.Items = make([]Item, 0, c.items+c.items/8) // edits rarely add many
	}
	for i := 0; i+1 < len(bounds); {
		j, step := i+1, 1
		for {
			x := c.extract(src[bounds[i]:bounds[j]])
			if x.clean || j == len(bounds)-1 {
				a.add(x, bounds[i])
				break
			}
			// Doubling keeps the parses of a growing join linear in its
			// final size.
			c.stats.joined++
			j = min(j+step, len(bounds)-1)
			step *= 2
		}
		i = j
	}
	for k, x := range c.chunks {
		if x.gen != c.gen {
			delete(c.chunks, k)
		}
	}
	p := a.finish()
	c.items = len(p.Items)
	return p
}

// extract returns the events of one chunk, parsed as a document of its own,
// from the cache when its bytes were seen by the previous call or earlier
// in this one, and marks it used by this call. One map lookup per chunk:
// each hashes the chunk's bytes, and the chunks are the whole document.
func (c *Cache) extract(chunk []byte) *extract {
	if x, ok := c.chunks[string(chunk)]; ok {
		c.stats.reused++
		x.gen = c.gen
		return x
	}
	c.stats.parsed++
	x := extractWith(chunk, true)
	x.key = string(chunk)
	x.gen = c.gen
	c.chunks[x.key] = x
	return x
}

// cutPoints returns the offsets where chunks start: 0, each column-0 ATX
// heading line of the prepared copy (so CRLF, lone CR, a BOM and front matter
// are taken into account), and len(src) last.
func cutPoints(src []byte) []int {
	if !bytes.HasPrefix(bytes.TrimPrefix(src, bom), []byte("---")) {
		return cutPointsRaw(src)
	}
	buf, base := prepare(src)
	out := []int{0}
	for i := 0; i < len(buf); i++ {
		if buf[i] != '\n' || i+1 >= len(buf) {
			continue
		}
		if buf[i+1] == '#' && isATXLine(lineAt(buf, i+1)) {
			out = append(out, i+1+base)
		}
	}
	return append(out, len(src))
}

// lineAt returns the line of buf that starts at s, terminator excluded.
func lineAt(buf []byte, s int) []byte {
	e := s
	for e < len(buf) && e-s < 8 && buf[e] != '\n' {
		e++
	}
	return buf[s:e]
}

// endsClean reports whether a column-0 ATX heading line placed after the
// parsed bytes would start a new top-level block and leave every block before
// it as parsed: true unless the last top-level block is a fenced code block or
// an HTML block that nothing in the parsed bytes closed. goldmark closes such
// a block on a line it does not take in (a fence's closing line, an HTML
// block's end line or blank line); an unclosed one takes in every line to the
// end. So the block ended iff a line follows its last line. Every other block
// is closed by such a heading line: paragraphs (lazy lines included) are
// interrupted by it, and list items, quotes and indented code end at a
// non-blank column-0 line.
func (x *extractor) endsClean() bool {
	last := x.t.doc.LastChild()
	if last == nil {
		return true
	}
	switch last.Kind() {
	case ast.KindFencedCodeBlock, ast.KindHTMLBlock:
	default:
		return true
	}
	if h, ok := last.(*ast.HTMLBlock); ok && h.HasClosure() {
		return true
	}
	p := start(last)
	if p < 0 {
		return false
	}
	l := x.ln.lineOf(x.t.orig(p))
	if segs := last.Lines(); segs.Len() > 0 {
		l = max(l, x.ln.lineOf(x.t.orig(segs.At(segs.Len()-1).Start)))
	}
	return l+1 < x.ln.count()
}

var bom = []byte("\xEF\xBB\xBF")

// cutPointsRaw is cutPoints for input without front matter, read in place:
// LF, CRLF and lone CR end lines as in prepare, and a BOM is never before a
// line start other than 0.
func cutPointsRaw(src []byte) []int {
	out := []int{0}
	if bytes.IndexByte(src, '\r') < 0 {
		// Only LF: the vectorised search for "\n#" skips the lines (most
		// of them) that no heading follows.
		for i := 0; ; {
			n := bytes.Index(src[i:], []byte("\n#"))
			if n < 0 {
				return append(out, len(src))
			}
			i += n + 1
			if isATXLine(lineAtRaw(src, i)) {
				out = append(out, i)
			}
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c != '\n' && c != '\r' {
			continue
		}
		if c == '\r' && i+1 < len(src) && src[i+1] == '\n' {
			i++
		}
		if i+1 < len(src) && src[i+1] == '#' && isATXLine(lineAtRaw(src, i+1)) {
			out = append(out, i+1)
		}
	}
	return append(out, len(src))
}

// lineAtRaw returns up to 8 bytes of the line of src that starts at s,
// terminator excluded.
func lineAtRaw(src []byte, s int) []byte {
	e := s
	for e < len(src) && e-s < 8 && src[e] != '\n' && src[e] != '\r' {
		e++
	}
	return src[s:e]
}
