package report

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/planls/planls/core"
	"github.com/planls/planls/verify"
)

// DefaultMarkdownBytes is the size Markdown keeps to by default: a GitHub
// pull-request comment holds at most 65,536 characters (a UTF-8 byte count
// is never below the character count), and the rest leaves room for a line
// a bot adds around the report.
const DefaultMarkdownBytes = 60000

// MinMarkdownBytes is the smallest limit Markdown accepts: the report's
// header, progress and the note on what was cut must fit.
const MinMarkdownBytes = 2048

// Markdown writes r compactly as GitHub-flavoured Markdown, for a
// pull-request comment or $GITHUB_STEP_SUMMARY: progress overall and per
// group, the open items, what was closed with which proof (and verify's
// verdict), the deferrals with their reasons, and drift. Every text from
// the plan, the evidence or a reason is escaped, so it shows as written
// and makes no link, image, HTML or table cell of its own; the only links
// are the ones Build made.
//
// maxBytes bounds the output in bytes (0: no bound; else at least
// MinMarkdownBytes). When the whole report is larger, the header and the
// progress stay, and each list keeps its most telling items first: open
// items in progress before pending ones, the items closed or deferred
// last, every list at least a few lines; each cut list says how many it
// left out, and a closing note says what was cut and how to print it all.
func Markdown(w io.Writer, r *Report, maxBytes int) error {
	if maxBytes != 0 && maxBytes < MinMarkdownBytes {
		return fmt.Errorf("markdown limit %d bytes: the smallest is %d", maxBytes, MinMarkdownBytes)
	}
	m := newMarkdown(r, 0)
	out := m.render(nil, "")
	if maxBytes == 0 || len(out) <= maxBytes {
		_, err := io.WriteString(w, out)
		return err
	}
	// Lines too long to list many of are shortened: a limit, not the size
	// of someone's evidence, decides how many items a comment shows.
	m = newMarkdown(r, max(maxBytes/16, clipMin))
	budget := maxBytes
	for range 8 {
		keep := m.fit(budget)
		out = m.render(keep, m.cutNote(keep, maxBytes))
		if len(out) <= maxBytes {
			break
		}
		budget -= len(out) - maxBytes
	}
	_, err := io.WriteString(w, out)
	return err
}

// mdSection is one list of the Markdown form: its heading, its lines in the
// order shown, and the order in which lines are kept when not all fit.
type mdSection struct {
	noun    string   // what one line is ("open item")
	head    string   // the heading block, ending in a blank line
	lines   []string // each ending in "\n"
	keep    []int    // indexes into lines, most telling first
	table   bool     // lines are table rows (the "more" line follows the table)
	dropped string   // which lines go first, for the "more" line ("" when by order)
}

// markdown is a report laid out as Markdown: the parts always shown and the
// lists a limit may cut.
type markdown struct {
	top, foot string
	sections  []mdSection // in the order shown
	priority  []int       // sections, most important first
}

// newMarkdown lays r out. clip, when above 0, shortens every line longer
// than clip bytes: the subject, the evidence and the reason are cut to a
// share of it and the evidence links nowhere.
func newMarkdown(r *Report, clip int) *markdown {
	m := &markdown{}
	var b strings.Builder
	// "Plan report: Plan: …" says it twice.
	fmt.Fprintf(&b, "## Plan report: %s\n\n", mdText(clipText(core.PlanLabel(r.Title), clip)))
	plan := mdText(r.PlanPath)
	if r.PlanHref != "" && webURL(r.PlanHref) != "" {
		plan = mdLink(r.PlanPath, r.PlanHref)
	}
	approvals := ""
	if r.Approvals > 1 {
		approvals = fmt.Sprintf(" (%d approvals)", r.Approvals)
	}
	fmt.Fprintf(&b, "%s · approved %s%s · revision %d\n\n", plan, stamp(r.ApprovedAt), approvals, r.Revision)
	t := r.Total
	fmt.Fprintf(&b, "**%d of %d done** (%d%%) · %d deferred · %d open", t.Done, t.All(), t.Percent(), t.Deferred, t.Open)
	if n := r.Verify[verify.Verified] + r.Verify[verify.Unverifiable] + r.Verify[verify.Failed]; n > 0 {
		fmt.Fprintf(&b, " · evidence: %d verified, %d unverifiable, %d failed", r.Verify[verify.Verified], r.Verify[verify.Unverifiable], r.Verify[verify.Failed])
	}
	b.WriteString("\n\n")
	for _, g := range r.Gaps {
		fmt.Fprintf(&b, "> ⚠ %s\n\n", mdText(g.Text()))
	}
	m.top = b.String()
	m.foot = fmt.Sprintf("<sub>planls report · %s</sub>\n", stamp(r.Generated))

	var groups mdSection
	if len(r.Groups) > 1 {
		groups = mdSection{noun: "group", head: "| Group | Done | Deferred | Open |\n| --- | ---: | ---: | ---: |\n", table: true}
		for _, g := range r.Groups {
			groups.lines = append(groups.lines, fmt.Sprintf("| %s | %d | %d | %d |\n", mdText(clipText(cmp.Or(g.Name, "(no heading)"), clip)), g.Done, g.Deferred, g.Open))
		}
		// Groups that still owe work first, each in the plan's order.
		groups.keep = byPriority(len(r.Groups), func(a, b int) int {
			return cmp.Compare(min(r.Groups[b].Open, 1), min(r.Groups[a].Open, 1))
		})
		groups.dropped = "those with nothing open first, then the last in the plan"
	}
	var open, done, deferred []Item
	for _, it := range r.Items {
		switch {
		case it.Open():
			open = append(open, it)
		case it.Status == core.Completed:
			done = append(done, it)
		default:
			deferred = append(deferred, it)
		}
	}
	list := func(noun, title string, items []Item, line func(Item) string) mdSection {
		s := mdSection{noun: noun}
		if len(items) > 0 {
			s.head = fmt.Sprintf("### %s (%d)\n\n", title, len(items))
		}
		for _, it := range items {
			l := line(it)
			if clip > 0 && len(l) > clip {
				l = line(clipItem(it, clip))
			}
			s.lines = append(s.lines, l)
		}
		return s
	}
	openS := list("open item", "Open", open, func(it Item) string {
		return fmt.Sprintf("- %s — %s\n", mdItem(it), it.StatusLabel())
	})
	// Work under way first, then the plan's order.
	openS.keep = byPriority(len(open), func(a, b int) int {
		return cmp.Compare(inProgress(open[b]), inProgress(open[a]))
	})
	openS.dropped = "pending ones last in the plan"
	doneS := list("done item", "Done", done, doneLine)
	doneS.keep, doneS.dropped = latestFirst(done), "those closed earliest"
	deferredS := list("deferred item", "Deferred", deferred, func(it Item) string {
		return fmt.Sprintf("- %s — reason: %s\n", mdItem(it), mdText(it.Reason))
	})
	deferredS.keep, deferredS.dropped = latestFirst(deferred), "those deferred earliest"
	driftS := mdSection{noun: "drift finding"}
	if len(r.Drift) > 0 {
		driftS.head = fmt.Sprintf("### Drift since approval (%d)\n\n", len(r.Drift))
	}
	for _, d := range r.Drift {
		where := ""
		switch {
		case d.Line > 0 && webURL(d.Href) != "":
			where = mdLink(fmt.Sprintf("line %d", d.Line), d.Href) + ": "
		case d.Line > 0:
			where = fmt.Sprintf("line %d: ", d.Line)
		}
		driftS.lines = append(driftS.lines, fmt.Sprintf("- %s%s\n", where, mdText(clipText(d.Message, clip))))
	}
	driftS.keep = byPriority(len(r.Drift), nil)
	m.sections = []mdSection{groups, openS, doneS, deferredS, driftS}
	// The per-group table is the overview a reviewer reads first, and one
	// short row a group: it is kept whole before any list gets more lines.
	m.priority = []int{0, 1, 2, 3, 4}
	return m
}

// doneLine is a completed item with its proof and verify's verdict.
func doneLine(it Item) string {
	var b strings.Builder
	fmt.Fprintf(&b, "- %s — %s", mdItem(it), mdEvidence(it.Evidence))
	if v := it.Verdict; v != nil {
		switch v.State {
		case verify.Failed:
			fmt.Fprintf(&b, " · **verify failed**: %s", mdText(v.Reason))
		default:
			fmt.Fprintf(&b, " · verify: %s", v.State)
		}
	}
	if it.Weak {
		b.WriteString(" (weak evidence)")
	}
	b.WriteString("\n")
	return b.String()
}

// clipMin is the shortest a line is clipped to: a line with three linked
// references and its verdict takes about 400 bytes.
const clipMin = 1000

// minShare is how many lines each list keeps before any list gets more:
// a long list of completions never hides every deferral.
const minShare = 5

// fit chooses, within budget bytes for the whole output, which lines of
// each section to show: first up to minShare lines of each section, most
// important section first, then as many more as fit, in the same order.
// keep[i] is the chosen line indexes of section i.
func (m *markdown) fit(budget int) [][]int {
	keep := make([][]int, len(m.sections))
	left := budget - len(m.top) - len(m.foot) - cutNoteRoom
	for _, s := range m.sections {
		if len(s.lines) > 0 {
			left -= len(s.head) + moreRoom
		}
	}
	next := make([]int, len(m.sections)) // the next of keep order to try
	for _, share := range []int{minShare, -1} {
		for _, si := range m.priority {
			s := m.sections[si]
			for next[si] < len(s.keep) && (share < 0 || next[si] < share) {
				l := len(s.lines[s.keep[next[si]]])
				if l > left {
					break
				}
				left -= l
				keep[si] = append(keep[si], s.keep[next[si]])
				next[si]++
			}
		}
	}
	return keep
}

// moreRoom and cutNoteRoom are the bytes fit sets aside for a section's
// "more" line and for the closing note (render checks the real size).
const (
	moreRoom    = 120
	cutNoteRoom = 600
)

// render writes the report with the lines keep chooses (nil: every line)
// and note before the footer.
func (m *markdown) render(keep [][]int, note string) string {
	var b strings.Builder
	b.WriteString(m.top)
	for si, s := range m.sections {
		if len(s.lines) == 0 {
			continue
		}
		shown := s.lines
		if keep != nil {
			idx := slices.Clone(keep[si])
			slices.Sort(idx)
			shown = nil
			for _, i := range idx {
				shown = append(shown, s.lines[i])
			}
		}
		if !s.table || len(shown) > 0 {
			b.WriteString(s.head) // a table's header without rows would take the next line as one
		}
		for _, l := range shown {
			b.WriteString(l)
		}
		if s.table && len(shown) > 0 {
			b.WriteString("\n")
		}
		if n := len(s.lines) - len(shown); n > 0 {
			if !s.table {
				b.WriteString("- ")
			}
			b.WriteString("… " + moreNoun(n, s.noun) + " not shown")
			if s.dropped != "" && len(shown) > 0 {
				fmt.Fprintf(&b, " (%s)", s.dropped)
			}
			b.WriteString("\n")
		}
		if !s.table || len(shown) < len(s.lines) {
			b.WriteString("\n")
		}
	}
	b.WriteString(note)
	b.WriteString(m.foot)
	return b.String()
}

// cutNote says what a limit left out and how to get all of it.
func (m *markdown) cutNote(keep [][]int, maxBytes int) string {
	var cut []string
	for _, si := range m.priority {
		s := m.sections[si]
		if n := len(s.lines) - len(keep[si]); n > 0 {
			cut = append(cut, fmt.Sprintf("%d of %d %s", n, len(s.lines), plural(len(s.lines), s.noun)))
		}
	}
	if len(cut) == 0 {
		return "**Shortened** to fit a pull-request comment: long lines were cut. `planls report --format markdown --full` prints them whole; `planls report` writes the whole report as one HTML page.\n\n"
	}
	return fmt.Sprintf("**Shortened** to fit a pull-request comment (%s bytes; GitHub takes 65,536 characters): %s not shown. `planls report --format markdown --full` prints everything (`--max-bytes N` sets the limit); `planls report` writes the whole report as one HTML page.\n\n",
		thousands(maxBytes), strings.Join(cut, ", "))
}

// moreNoun is "1 more open item", "3 more open items".
func moreNoun(n int, noun string) string {
	return fmt.Sprintf("%d more %s", n, plural(n, noun))
}

// plural is noun for n of them ("item", "items").
func plural(n int, noun string) string {
	return strings.TrimPrefix(core.CountNoun(n, noun), fmt.Sprint(n)+" ")
}

// byPriority is 0…n-1 sorted stably by less (nil: in order).
func byPriority(n int, less func(a, b int) int) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	if less != nil {
		slices.SortStableFunc(idx, less)
	}
	return idx
}

// latestFirst orders items by when they were closed, the latest first.
func latestFirst(items []Item) []int {
	return byPriority(len(items), func(a, b int) int { return items[b].Closed.Compare(items[a].Closed) })
}

func inProgress(it Item) int {
	if it.Status == core.InProgress && !it.Unproven {
		return 1
	}
	return 0
}

// clipItem is it with its subject, evidence and reason shortened to fit a
// line of about clip bytes; the evidence is plain text then (no links).
func clipItem(it Item, clip int) Item {
	it.Subject = clipText(it.Subject, clip/4)
	it.Href = ""
	var ev strings.Builder
	for _, p := range it.Evidence {
		ev.WriteString(p.Text)
	}
	if len(it.Evidence) > 0 {
		it.Evidence = []Part{{Text: clipText(ev.String(), clip/3)}}
	}
	it.Reason = clipText(it.Reason, clip/3)
	if it.Verdict != nil {
		v := *it.Verdict
		v.Reason = clipText(v.Reason, clip/6)
		it.Verdict = &v
	}
	return it
}

// clipText is s cut to at most n bytes at a character boundary, with "…"
// when cut (n 0: s whole). It works on the text before escaping, so an
// escape is never cut in half.
func clipText(s string, n int) string {
	if n <= 0 || len(s) <= n {
		return s
	}
	cut := 0
	for i := range s {
		if i > n-len("…") {
			break
		}
		cut = i
	}
	return s[:cut] + "…"
}

// thousands is n with a comma every three digits (60,000).
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// mdItem is "#N subject", the subject linked to its bullet on the forge.
func mdItem(it Item) string {
	s := fmt.Sprintf("#%d %s", it.ID, mdText(it.Subject))
	if it.Href != "" && webURL(it.Href) != "" {
		s = fmt.Sprintf("#%d %s", it.ID, mdLink(it.Subject, it.Href))
	}
	return s
}

// mdEvidence is the evidence with each reference that has a web link
// linked (a local file:// link is no use in a pull request).
func mdEvidence(parts []Part) string {
	var b strings.Builder
	for _, p := range parts {
		switch {
		case p.Kind == "":
			b.WriteString(mdText(p.Text))
		case webURL(p.Href) != "":
			b.WriteString("[" + mdCode(p.Text) + "](" + mdDest(p.Href) + ")")
		default:
			b.WriteString(mdCode(p.Text))
		}
	}
	return b.String()
}

// mdCode is s as a code span: its text is shown literally (GFM reads no
// markup, HTML or entity inside one). The fence is one backtick longer
// than the longest run in s, and s is padded when it starts or ends with
// one, as CommonMark's code spans require.
func mdCode(s string) string {
	s = core.NoControls(s)
	run, longest := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// mdLink is [text](href) with text escaped; href is one Build made, with
// the characters that could end the destination percent-encoded.
func mdLink(text, href string) string {
	return "[" + mdText(text) + "](" + mdDest(href) + ")"
}

// mdDest is a link destination with the characters that could end it
// percent-encoded.
func mdDest(href string) string {
	return strings.NewReplacer("(", "%28", ")", "%29", " ", "%20", "<", "%3C", ">", "%3E").Replace(href)
}

// mdText escapes s so GitHub shows it as written: the punctuation that
// makes emphasis, code, links, images, table cells or autolinks (a colon:
// "https:" and "javascript:" stop being schemes) is backslash-escaped, and
// <, > and & become entities, so no HTML comes of it either. Line breaks
// become spaces. s never starts a line here, so marks that matter only
// there (-, +, 1.) are left alone.
func mdText(s string) string {
	s = core.NoControls(s)
	var b strings.Builder
	b.Grow(len(s) + 8)
	for _, r := range s {
		switch r {
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case '\\', '`', '*', '_', '{', '}', '[', ']', '(', ')', '#', '!', '|', '~', ':':
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
