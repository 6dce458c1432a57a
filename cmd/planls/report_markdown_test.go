package main

import (
	"strings"
	"testing"

	"github.com/planls/planls/report"
)

// planls report --format markdown of a 1,000-item plan with 10,000 journal
// entries fits a GitHub pull-request comment (65,536 characters) by
// default, says what it cut, and --full prints every item.
func TestReportMarkdownFitsAPullRequestComment(t *testing.T) {
	root := reportProject(t, 1000, 10000)
	md := planls(t, root, "report", "--format", "markdown")
	if len(md) > report.DefaultMarkdownBytes {
		t.Errorf("planls report --format markdown: %d bytes, over %d", len(md), report.DefaultMarkdownBytes)
	}
	for _, want := range []string{"### Open (", "### Done (", "### Deferred (", "more done items not shown (those closed earliest)",
		"**Shortened** to fit a pull-request comment", "`planls report --format markdown --full` prints everything"} {
		if !strings.Contains(md, want) {
			t.Errorf("shortened Markdown lacks %q", want)
		}
	}
	full := planls(t, root, "report", "--format", "markdown", "--full")
	if n := strings.Count(full, "\n- #"); n != 1000 || strings.Contains(full, "Shortened") {
		t.Errorf("--full lists %d items (want 1000), %d bytes", n, len(full))
	}
	// The footer stamps when each report was made: two runs a second apart differ there only.
	if same := planls(t, root, "report", "--format", "markdown", "--max-bytes", "0"); unstamped(same) != unstamped(full) {
		t.Error("--max-bytes 0 differs from --full")
	}
	small := planls(t, root, "report", "--format", "markdown", "--max-bytes", "10000")
	if len(small) > 10000 || !strings.Contains(small, "(10,000 bytes;") {
		t.Errorf("--max-bytes 10000: %d bytes", len(small))
	}
}

// unstamped is a Markdown report without its footer's time stamp.
func unstamped(md string) string {
	var out []string
	for _, l := range strings.Split(md, "\n") {
		if !strings.HasPrefix(l, "<sub>planls report · ") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
