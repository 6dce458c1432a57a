package planparse

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/planls/planls/internal/plangen"
)

// sameAsParse fails t unless c.Parse(src) equals Parse(src) in every field.
func sameAsParse(t testing.TB, c *Cache, src []byte, what string) {
	t.Helper()
	got, want := c.Parse(src), Parse(src)
	if reflect.DeepEqual(got, want) {
		return
	}
	t.Fatalf("%s: Cache.Parse differs from Parse on %q\n%s", what, clip(src), planDiff(got, want))
}

func clip(b []byte) string {
	if len(b) > 600 {
		return string(b[:600]) + "…"
	}
	return string(b)
}

// planDiff names the first field where two plans differ.
func planDiff(got, want *Plan) string {
	if got.Title != want.Title || got.TitleRange != want.TitleRange {
		return fmt.Sprintf("title %q %v, want %q %v", got.Title, got.TitleRange, want.Title, want.TitleRange)
	}
	if !reflect.DeepEqual(got.Headings, want.Headings) {
		return fmt.Sprintf("headings\n got %+v\nwant %+v", got.Headings, want.Headings)
	}
	for i := 0; i < min(len(got.Items), len(want.Items)); i++ {
		if !reflect.DeepEqual(got.Items[i], want.Items[i]) {
			return fmt.Sprintf("item %d\n got %+v\nwant %+v", i, got.Items[i], want.Items[i])
		}
	}
	if len(got.Items) != len(want.Items) {
		return fmt.Sprintf("%d items, want %d", len(got.Items), len(want.Items))
	}
	return fmt.Sprintf("problems\n got %+v\nwant %+v", got.Problems, want.Problems)
}

// sortedCorpus is corpus in a fixed order, so that fuzz seeds can name a
// document by index.
func sortedCorpus(t testing.TB) [][]byte {
	m := corpus(t)
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([][]byte, len(names))
	for i, n := range names {
		out[i] = m[n]
	}
	return append(out, plangen.Generate(60, 9))
}

// snippets are the texts edits insert: the constructs that decide where a
// chunk may end, and the line endings and markers that change how lines read.
var snippets = []string{
	"```\n", "~~~~\n", "```go\n", "    ```\n", "# H\n", "## Notes\n", "### Work\n", "#\n", "####### no\n",
	"<div>\n", "<!--\n", "-->\n", "<pre>\n", "</pre>\n", "<?x\n", "?>\n", "\n", "- item\n", "- [ ] box\n",
	"  indented\n", "lazy\n", "---\n", "===\n", "...\n", "\r\n", "\r", "> quote\n", "Not adopted:\n",
	"2. x\n", "| a | b |\n|---|---|\n", "\xEF\xBB\xBF", "    code\n", "-\n", "*", "#", "`", "<", "\t",
	"<script>\n", "</script>\n", "<![CDATA[\n", "]]>\n", "<!X\n", ">\n", "<a href=x>\n", "> ```\n", "- ```\n",
	"  - nested\n", "1. one\n", "#\v\n", "\n## \n", "---\ntitle: x\n---\n",
}

// applyEdit changes src as the three op bytes say: insert a snippet, delete
// some bytes, or duplicate a line, at a line start or at any byte.
func applyEdit(src []byte, op, a, b byte) []byte {
	pos := 0
	if len(src) > 0 {
		pos = int(a) * len(src) / 256
		if op&1 == 0 { // snap to a line start, where block structure changes
			if i := bytes.LastIndexByte(src[:pos], '\n'); i >= 0 {
				pos = i + 1
			} else {
				pos = 0
			}
		}
	}
	out := make([]byte, 0, len(src)+16)
	switch (op >> 1) % 4 {
	case 0, 1:
		s := snippets[int(b)%len(snippets)]
		out = append(append(append(out, src[:pos]...), s...), src[pos:]...)
	case 2:
		end := min(len(src), pos+int(b)%24+1)
		out = append(append(out, src[:pos]...), src[end:]...)
	case 3:
		end := bytes.IndexByte(src[pos:], '\n')
		if end < 0 {
			end = len(src) - pos
		} else {
			end++
		}
		line := src[pos : pos+end]
		out = append(append(append(out, src[:pos+end]...), line...), src[pos+end:]...)
	}
	return out
}

// FuzzCacheEquivalence applies a sequence of edits to a corpus document
// (fixtures, vectors, example plans, plangen output) and checks after every
// edit that the cache's plan equals Parse's.
func FuzzCacheEquivalence(f *testing.F) {
	var docs [][]byte
	for _, d := range sortedCorpus(f) {
		// Large documents slow each run down a hundredfold;
		// TestCacheRandomEdits edits them.
		if len(d) <= 16<<10 {
			docs = append(docs, d)
		}
	}
	for i := range docs {
		f.Add(uint16(i), []byte{0, 128, 0, 6, 200, 3, 2, 60, 4})
		f.Add(uint16(i), []byte{0, 10, 1, 4, 250, 4, 7, 100, 9, 0, 90, 0})
	}
	f.Fuzz(func(t *testing.T, doc uint16, ops []byte) {
		src := docs[int(doc)%len(docs)]
		c := NewCache()
		sameAsParse(t, c, src, "first parse")
		for k := 0; k+2 < len(ops) && k < 3*24; k += 3 {
			src = applyEdit(src, ops[k], ops[k+1], ops[k+2])
			sameAsParse(t, c, src, fmt.Sprintf("after edit %d", k/3+1))
		}
	})
}

// TestCacheRandomEdits runs FuzzCacheEquivalence's check on pseudo-random
// edit sequences over the whole corpus, so plain `go test` covers more than
// the seeds.
func TestCacheRandomEdits(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	docs := sortedCorpus(t)
	rounds := 4
	if testing.Short() {
		rounds = 1
	}
	for i, src := range docs {
		for range rounds {
			c, cur := NewCache(), src
			sameAsParse(t, c, cur, fmt.Sprintf("doc %d", i))
			for e := range 12 {
				cur = applyEdit(cur, byte(r.IntN(256)), byte(r.IntN(256)), byte(r.IntN(256)))
				sameAsParse(t, c, cur, fmt.Sprintf("doc %d edit %d", i, e))
			}
		}
	}
}

// TestCacheTrickyEdits: edit sequences where a naive cut at a heading would
// give another plan. Each version must parse as Parse parses it; the reuse
// column checks that cuts still happen where they are safe.
func TestCacheTrickyEdits(t *testing.T) {
	const tail = "## B\n- b1\n- b2\n\n## C\n- c1\n"
	tests := []struct {
		name     string
		versions []string
		reused   int // chunks reused by the last version's parse, -1: don't check
	}{
		{"fence opened over headings then closed", []string{
			"# T\n## A\n- a\n" + tail,
			"# T\n## A\n- a\n```\n" + tail,
			"# T\n## A\n- a\n```\n" + tail + "```\n",
			"# T\n## A\n- a\n" + tail,
		}, 1}, // "# T": the chunks of version 1 were dropped by version 3
		{"tilde fence, longer closer needed", []string{
			"## A\n~~~~\n## B\n~~~\n## C\n~~~~\n## D\n- d\n",
			"## A\n~~~~\n## B\n~~~~\n## C\n~~~~\n## D\n- d\n",
			"## A\n~~~\n## B\n~~~~\n## C\n~~~~\n## D\n- d\n",
		}, -1},
		{"fence in a list item ends at the heading", []string{
			"## A\n- a\n  ```\n## B\n- b\n",
			"## A\n- a\n  ```\n```\n## B\n- b\n",
		}, -1},
		{"front matter hides headings", []string{
			"# T\n- x\n## A\n- a\n---\n## B\n- b\n",
			"---\n# T\n- x\n## A\n- a\n---\n## B\n- b\n",
			"---\n# T\n- x\n## A\n- a\n...\n## B\n- b\n",
			"---\r\n# T\r\n---\r\n## B\r\n- b\r\n",
		}, -1},
		{"setext heading next to a cut", []string{
			"## A\nSome prose\n## B\n- b\n",
			"## A\nSome prose\n===\n## B\n- b\n",
			"## A\nSome prose\n---\n## B\n- b\n",
			"## A\n- item\n---\n## B\n- b\n",
		}, -1},
		{"HTML blocks", []string{
			"## A\n- a\n" + tail,
			"## A\n- a\n<div>\n" + tail,
			"## A\n- a\n<div>\n\n" + tail,
			"## A\n- a\n<!--\n" + tail,
			"## A\n- a\n<!--\n" + tail + "-->\n",
			"## A\n- a\n<!-- one line -->\n" + tail,
			"## A\n- a\n<pre>\n## B\n</pre>\n## C\n- c\n",
		}, -1},
		{"lazy line and a lead-in across a cut", []string{
			"## A\n- a\nlazy\n## B\n2. b\n- c\n",
			"## A\n- a\nlazy\n## B\nfoo\n2. b\n- c\n",
			"## Steps\nNot adopted:\n## B\n- b\n",
			"## Steps\nNot adopted:\n- x\n## B\n- b\n",
		}, -1},
		{"CRLF and lone CR", []string{
			"# T\r\n## A\r\n- a\r\n## B\r\n- b\r\n",
			"# T\r\n## A\r\n- a\r## B\r- b\r",
			"# T\r\n## A\r\n- a\r\n```\r\n## B\r\n- b\r\n",
		}, -1},
		{"heading becomes a list item and back", []string{
			"## A\n- a\n## B\nprose\n## C\n- c\n",
			"## A\n- a\n- ## B\nprose\n## C\n- c\n",
			"## A\n- a\n## B\nprose\n## C\n- c\n",
		}, 1}, // "## C"
		{"duplicates across chunks, title from prose", []string{
			"intro line\n## A\n- same\n## A\n- same\n",
			"intro line\n## A\n- same\n## A\n- other\n",
			"## \n- x\n## A\n- same\n",
		}, -1},
		{"BOM and context labels", []string{
			"\xEF\xBB\xBF# T\n## Notes\n- n\n### Sub\n- s\n## Work\n- w\n",
			"\xEF\xBB\xBF# T\n## Notes\n- n\n### Sub\n- s\n### Work\n- w\n",
			"# T\n## Notes\n- n\n### Sub\n- s\n### Work\n- w\n",
		}, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := NewCache()
			for i, v := range tt.versions {
				sameAsParse(t, c, []byte(v), fmt.Sprintf("version %d", i))
			}
			if tt.reused >= 0 && c.stats.reused != tt.reused {
				t.Errorf("last parse reused %d chunks, want %d (%+v)", c.stats.reused, tt.reused, c.stats)
			}
		})
	}
}

// TestCacheReparsesOnlyTheEditedChunk: a one-line edit in a generated plan
// parses one chunk and reuses the others, and unused chunks are dropped.
func TestCacheReparsesOnlyTheEditedChunk(t *testing.T) {
	src := plangen.Generate(2000, 4)
	c := NewCache()
	sameAsParse(t, c, src, "first parse")
	n := len(c.chunks)
	if n < 50 {
		t.Fatalf("only %d chunks for a 2000-item plan", n)
	}
	edited := editOneLine(src)
	sameAsParse(t, c, edited, "edited")
	if c.stats.parsed != 1 || c.stats.joined != 0 {
		t.Errorf("edit parsed %d chunks (%d joins), want 1", c.stats.parsed, c.stats.joined)
	}
	if len(c.chunks) != n {
		t.Errorf("cache holds %d chunks after the edit, want %d (the replaced one dropped)", len(c.chunks), n)
	}
}

// editOneLine changes the text of a bullet in the middle of src.
func editOneLine(src []byte) []byte {
	i := bytes.Index(src[len(src)/2:], []byte("\n- ")) + len(src)/2
	out := append([]byte(nil), src[:i+3]...)
	out = append(out, "edited "...)
	return append(out, src[i+3:]...)
}

// TestCacheConcurrently: parallel calls on one Cache each get their own
// document's plan (run with -race).
func TestCacheConcurrently(t *testing.T) {
	docs := [][]byte{plangen.Generate(200, 1), plangen.Generate(200, 2), []byte("## A\n- a\n```\n## B\n")}
	c := NewCache()
	var wg sync.WaitGroup
	for g := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 5 {
				src := docs[(g+k)%len(docs)]
				if got, want := c.Parse(src), Parse(src); !reflect.DeepEqual(got, want) {
					t.Errorf("goroutine %d: plan differs", g)
				}
			}
		}()
	}
	wg.Wait()
}

// TestCutPoints: cuts at column-0 ATX lines of the prepared copy only.
func TestCutPoints(t *testing.T) {
	tests := []struct {
		src  string
		want []int
	}{
		{"", []int{0, 0}},
		{"# a\n## b\n", []int{0, 4, 9}},
		{"x\n #a\n #b\n####### c\n#\tx\n#\n", []int{0, 20, 24, 26}},
		{"---\n# a\n---\n# b\n", []int{0, 12, 16}},
		{"a\r\n# b\r# c", []int{0, 3, 7, 10}},
		{"\xEF\xBB\xBF# a\n# b", []int{0, 7, 10}},
	}
	for _, tt := range tests {
		if got := cutPoints([]byte(tt.src)); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("cutPoints(%q) = %v, want %v", tt.src, got, tt.want)
		}
	}
	if strings.Count(string(plangen.Generate(100, 1)), "\n#") < 5 {
		t.Error("generated plans have too few headings to test chunking")
	}
}

// TestHeadingEndsLazyRun: a marker line after a heading reads as it would
// with nothing before the heading ("2. bar" continues the paragraph "foo",
// as CommonMark says), though a lazy line before the heading started a run.
func TestHeadingEndsLazyRun(t *testing.T) {
	for _, pre := range []string{"", "## W\n- a\nlazy\n", "## W\n- a\nlazy\nmore\n"} {
		src := []byte(pre + "## H\nfoo\n2. bar\n- baz\n")
		p := Parse(src)
		var subjects []string
		for _, it := range p.Items {
			subjects = append(subjects, it.Subject)
		}
		want := "baz"
		if pre != "" {
			want = "a baz"
		}
		if got := strings.Join(subjects, " "); got != want {
			t.Errorf("after %q: items %q, want %q", pre, got, want)
		}
	}
}

// TestEndsClean: which chunk endings allow a cut before the next heading.
// Each verdict is also checked against goldmark: a clean ending must leave
// a following "## H" line a heading of its own.
func TestEndsClean(t *testing.T) {
	tests := []struct {
		src   string
		clean bool
	}{
		{"", true},
		{"para\n", true},
		{"- a\n  ```\n", true},   // the item's fence ends with the item
		{"> ```\n", true},        // so does a quote's
		{"    code\n", true},     // indented code ends at a column-0 line
		{"| a |\n|---|\n", true}, // a table is a paragraph until it ends
		{"```\nx\n```\n", true},
		{"```\nx\n```\n\n", true},
		{"```\nx\n", false},
		{"```\n", false},
		{"~~~~\n~~~\n", false}, // a shorter closer does not close
		{"```\n\n\n", false},   // blank lines are code too
		{"<div>\n", false},
		{"<div>\n\n", true},
		{"<!--\n-->\n", true},
		{"<!--\n", false},
		{"<!-- one line -->\n", false}, // closed, but only the next line tells: joined
		{"<!-- one line -->\n\n", true},
		{"<pre>\n## x\n", false},
	}
	for _, tt := range tests {
		x := extractWith([]byte(tt.src), true)
		if x.clean != tt.clean {
			t.Errorf("%q: clean = %v, want %v", tt.src, x.clean, tt.clean)
		}
		p := Parse([]byte(tt.src + "## H\n"))
		isHeading := len(p.Headings) > 0 && p.Headings[len(p.Headings)-1].Text == "H"
		if x.clean && !isHeading {
			t.Errorf("%q: called clean, but goldmark swallows the next heading", tt.src)
		}
	}
}

// TestCacheJoinsOnlyWhereNeeded: a fence open over a heading makes the
// chunks join; closed before it, they don't.
func TestCacheJoinsOnlyWhereNeeded(t *testing.T) {
	c := NewCache()
	sameAsParse(t, c, []byte("## A\n```\n## B\n```\n## C\n- c\n"), "open over B")
	if c.stats.joined != 1 {
		t.Errorf("open fence over B: %d joins, want 1", c.stats.joined)
	}
	sameAsParse(t, c, []byte("## A\n```\nx\n```\n## B\n- b\n## C\n- c\n"), "closed")
	if c.stats.joined != 0 {
		t.Errorf("closed fence: %d joins, want 0", c.stats.joined)
	}
}
