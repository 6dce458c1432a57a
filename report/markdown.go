package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/planls/planls/core"
	"github.com/planls/planls/verify"
)

// Markdown writes r compactly as GitHub-flavoured Markdown, for a
// pull-request comment or $GITHUB_STEP_SUMMARY: progress overall and per
// group, the open items, what was closed with which proof (and verify's
// verdict), the deferrals with their reasons, and drift. Every text from
// the plan, the evidence or a reason is escaped, so it shows as written
// and makes no link, image, HTML or table cell of its own; the only links
// are the ones Build made.
func Markdown(w io.Writer, r *Report) error {
	var b strings.Builder
	fmt.Fprintf(&b, "## Plan report: %s\n\n", mdText(r.Title))
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
	if len(r.Groups) > 1 {
		b.WriteString("| Group | Done | Deferred | Open |\n| --- | ---: | ---: | ---: |\n")
		for _, g := range r.Groups {
			fmt.Fprintf(&b, "| %s | %d | %d | %d |\n", mdText(cmp(g.Name, "(no heading)")), g.Done, g.Deferred, g.Open)
		}
		b.WriteString("\n")
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
	if len(open) > 0 {
		fmt.Fprintf(&b, "### Open (%d)\n\n", len(open))
		for _, it := range open {
			fmt.Fprintf(&b, "- %s — %s\n", mdItem(it), it.StatusLabel())
		}
		b.WriteString("\n")
	}
	if len(done) > 0 {
		fmt.Fprintf(&b, "### Done (%d)\n\n", len(done))
		for _, it := range done {
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
		}
		b.WriteString("\n")
	}
	if len(deferred) > 0 {
		fmt.Fprintf(&b, "### Deferred (%d)\n\n", len(deferred))
		for _, it := range deferred {
			fmt.Fprintf(&b, "- %s — reason: %s\n", mdItem(it), mdText(it.Reason))
		}
		b.WriteString("\n")
	}
	if len(r.Drift) > 0 {
		fmt.Fprintf(&b, "### Drift since approval (%d)\n\n", len(r.Drift))
		for _, d := range r.Drift {
			where := ""
			switch {
			case d.Line > 0 && webURL(d.Href) != "":
				where = mdLink(fmt.Sprintf("line %d", d.Line), d.Href) + ": "
			case d.Line > 0:
				where = fmt.Sprintf("line %d: ", d.Line)
			}
			fmt.Fprintf(&b, "- %s%s\n", where, mdText(d.Message))
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "<sub>planls report · %s</sub>\n", stamp(r.Generated))
	_, err := io.WriteString(w, b.String())
	return err
}

func cmp(s, dflt string) string {
	if s == "" {
		return dflt
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
