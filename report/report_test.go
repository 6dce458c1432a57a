package report

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"

	"github.com/planls/planls/core"
	"github.com/planls/planls/store"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// golden compares got with testdata/NAME, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./report -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (go test ./report -run %s -update rewrites it):\n--- got\n%s\n--- want\n%s", path, t.Name(), got, want)
	}
}

func TestMarkdownGolden(t *testing.T) {
	for _, tc := range []struct {
		name    string
		hostile bool
		local   bool
	}{
		{"markdown_forge.md", false, false},
		{"markdown_hostile.md", true, false},
		{"markdown_local.md", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := fixture(tc.hostile)
			if tc.local {
				in.Links = Links{Local: true}
			}
			var b bytes.Buffer
			if err := Markdown(&b, Build(in), 0); err != nil {
				t.Fatal(err)
			}
			golden(t, tc.name, b.Bytes())
		})
	}
}

// hostileMarks are what other people's text must never become in a page:
// a script element, an event-handler attribute, a javascript: link.
var hostileMarks = []*regexp.Regexp{
	regexp.MustCompile(`(?i)<script>alert`),
	regexp.MustCompile(`(?i)<img[^>]*onerror`),
	regexp.MustCompile(`(?i)<a[^>]*href="javascript:`),
	regexp.MustCompile(`(?i)<[a-z][^>]*\son\w+=`),
}

// hrefRe finds every link target of a page.
var hrefRe = regexp.MustCompile(`(?i)\shref="([^"]*)"`)

// checkLinks fails for any link that is not one the report makes: the
// forge, a local file, an http(s) URL the evidence names, or an anchor.
func checkLinks(t *testing.T, page string) {
	t.Helper()
	for _, m := range hrefRe.FindAllStringSubmatch(page, -1) {
		h := m[1]
		if !strings.HasPrefix(h, "https://github.com/acme/widgets/") && !strings.HasPrefix(h, "#") &&
			!strings.HasPrefix(h, "https://ci.example.com/") && !strings.HasPrefix(h, "file:///work/widgets/") {
			t.Errorf("unexpected link %q", h)
		}
	}
}

func TestMarkdownHostileTextRendersAsText(t *testing.T) {
	var b bytes.Buffer
	if err := Markdown(&b, Build(fixture(true)), 0); err != nil {
		t.Fatal(err)
	}
	// Render it as a permissive Markdown renderer would (raw HTML allowed,
	// GFM autolinks on): what other people wrote must still be only text.
	md := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(html.WithUnsafe()))
	var out bytes.Buffer
	if err := md.Convert(b.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	page := out.String()
	for _, re := range hostileMarks {
		if re.MatchString(page) {
			t.Errorf("rendered Markdown has %s:\n%s", re, page)
		}
	}
	checkLinks(t, page)
	for _, want := range []string{`&lt;script&gt;alert(&quot;s&quot;)&lt;/script&gt;`, `javascript:alert(6)`, `| table |`} {
		if !strings.Contains(page, want) {
			t.Errorf("rendered Markdown lacks the text %q:\n%s", want, page)
		}
	}
}

func TestHTMLHostileTextRendersAsText(t *testing.T) {
	for _, local := range []bool{false, true} {
		in := fixture(true)
		if local {
			in.Links = Links{Local: true}
		}
		var b bytes.Buffer
		if err := HTML(&b, Build(in), "test"); err != nil {
			t.Fatal(err)
		}
		page := b.String()
		for _, re := range hostileMarks {
			if re.MatchString(page) {
				t.Errorf("local=%v: page has %s", local, re)
			}
		}
		checkLinks(t, page)
		if n := strings.Count(page, "<script"); n != 1 {
			t.Errorf("local=%v: %d script elements, want only the report's own", local, n)
		}
		for _, want := range []string{`&lt;script&gt;alert(&#34;s&#34;)&lt;/script&gt;`, `&lt;img src=x onerror=&#34;alert(5)&#34;&gt;`, `javascript:alert(6)`, `[click](javascript:alert(3))`} {
			if !strings.Contains(page, want) {
				t.Errorf("local=%v: page lacks the escaped text %q", local, want)
			}
		}
	}
}

func TestHTMLSelfContained(t *testing.T) {
	var b bytes.Buffer
	if err := HTML(&b, Build(fixture(false)), "test"); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	// Nothing is fetched: no src attribute, no stylesheet link, no
	// url() in the styles, and the policy forbids any fetch.
	for _, bad := range []string{` src=`, `<link`, `url(`, `@import`} {
		if strings.Contains(page, bad) {
			t.Errorf("page has %q", bad)
		}
	}
	if !strings.Contains(page, `content="default-src 'none';`) {
		t.Error("page has no Content-Security-Policy forbidding fetches")
	}
	for _, want := range []string{
		`<strong data-count="done">3</strong> of <strong data-count="all">5</strong> done (60%)`,
		`href="https://github.com/acme/widgets/commit/a1b2c3d4e5f6"`,
		`href="https://github.com/acme/widgets/blob/0123456789ab/internal/ratelimit/bucket.go#L42"`,
		`href="https://ci.example.com/run/7"`,
		`href="https://github.com/acme/widgets/blob/0123456789ab/PLAN.md#L6"`,
		`@media (prefers-color-scheme: dark)`,
		`@media print`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %s", want)
		}
	}
}

func TestHistoryTimelineAndChart(t *testing.T) {
	r := Build(fixture(false))
	var kinds []string
	for i := len(r.Timeline) - 1; i >= 0; i-- {
		e := r.Timeline[i]
		kinds = append(kinds, e.Kind+"#"+strconv.Itoa(e.TaskID))
	}
	want := "approved#0 started#1 completed#1 completed#2 completed#4 reopened#4 deferred#5 reapproved#0 deferred#6 completed#3"
	if got := strings.Join(kinds, " "); got != want {
		t.Errorf("timeline (oldest first):\n got %s\nwant %s", got, want)
	}
	type pt struct{ h, scope, done, deferred int }
	var got []pt
	for _, p := range r.Chart.Points {
		got = append(got, pt{int(p.Time.Sub(t0) / time.Hour), p.Scope, p.Done, p.Deferred})
	}
	// The start of #1 changes no count and makes no point; the second
	// approval drops the deferred #5 and adds #6.
	wantPts := []pt{{0, 5, 0, 0}, {2, 5, 1, 0}, {3, 5, 2, 0}, {4, 5, 3, 0}, {5, 5, 2, 0}, {6, 5, 2, 1}, {24, 5, 2, 0}, {25, 5, 2, 1}, {26, 5, 3, 1}}
	if len(got) != len(wantPts) {
		t.Fatalf("points %v, want %v", got, wantPts)
	}
	for i := range got {
		if got[i] != wantPts[i] {
			t.Errorf("point %d: %v, want %v", i, got[i], wantPts[i])
		}
	}
	for _, e := range r.Timeline {
		if e.Kind == "reopened" && e.Detail != "the test was a stub (the evidence was: TestBucketRefill and https://ci.example.com/run/7)" {
			t.Errorf("the reopen says %q", e.Detail)
		}
	}
	if len(r.Chart.Marks) != 2 || !r.Chart.Marks[0].First || r.Chart.Marks[1].First || r.Approvals != 2 {
		t.Errorf("marks %+v, approvals %d: want the first approval and one re-approval", r.Chart.Marks, r.Approvals)
	}
	if r.Total != (Counts{Done: 3, Deferred: 1, Open: 1}) {
		t.Errorf("total %+v", r.Total)
	}
}

func TestChartThinning(t *testing.T) {
	h := newHistory()
	subjects := map[int]string{}
	for id := 1; id <= 100; id++ {
		subjects[id] = "item " + strconv.Itoa(id)
	}
	h.approve(t0, "Big", subjects, nil, "")
	for i := 0; i < 2000; i++ {
		id := i%100 + 1
		if h.cur[id].Status == "completed" {
			h.set(t0.Add(time.Duration(i+1)*time.Minute), "cli", id, status("pending"))
		} else {
			h.set(t0.Add(time.Duration(i+1)*time.Minute), "cli", id, complete("a1b2c3d"))
		}
	}
	r := Build(Input{State: fixture(false).State, History: h.events, Options: Options{ChartMax: 50, TimelineMax: 30}})
	if n := len(r.Chart.Points); n > 55 || n < 40 {
		t.Errorf("%d points after thinning to 50", n)
	}
	if r.Chart.Thinned+len(r.Chart.Points) != 2001 {
		t.Errorf("thinned %d + kept %d != 2001 changes", r.Chart.Thinned, len(r.Chart.Points))
	}
	last := r.Chart.Points[len(r.Chart.Points)-1]
	if last.Done != 0 || !last.Time.Equal(t0.Add(2000*time.Minute)) {
		t.Errorf("last point %+v: the last change must be kept", last)
	}
	if len(r.Timeline) != 30 || r.Omitted != 2001-30 || r.Timeline[0].Time.Before(r.Timeline[1].Time) {
		t.Errorf("timeline %d shown, %d earlier: want the newest 30 first", len(r.Timeline), r.Omitted)
	}
}

// A long history of starts and stops does not push what changed the plan
// (its approval, completions, deferrals) out of the timeline; --full
// (TimelineMax below 0) shows every event.
func TestTimelineKeepsWhatChangesThePlan(t *testing.T) {
	h := newHistory()
	h.approve(t0, "Long", map[int]string{1: "one", 2: "two", 3: "three"}, nil, "approved")
	h.set(t0.Add(time.Minute), "cli", 1, complete("a1b2c3d"))
	h.set(t0.Add(2*time.Minute), "cli", 3, deferWith("later"))
	for i := range 1000 {
		s := core.InProgress
		if i%2 == 1 {
			s = core.Pending
		}
		h.set(t0.Add(time.Duration(3+i)*time.Minute), "mcp", 2, status(s))
	}
	st := &core.State{Version: 1, Revision: int64(len(h.events)), NextID: 4, Plan: h.plan}
	r := Build(Input{State: st, History: h.events, Options: Options{TimelineMax: 30}})
	var kinds []string
	for _, e := range r.Timeline {
		if e.Kind != "started" && e.Kind != "stopped" {
			kinds = append(kinds, e.Kind+"#"+strconv.Itoa(e.TaskID))
		}
	}
	if got := strings.Join(kinds, " "); got != "deferred#3 completed#1 approved#0" {
		t.Errorf("timeline keeps %q besides starts and stops, want the approval, the completion and the deferral", got)
	}
	if len(r.Timeline) != 30 || r.Omitted != 1000-27 || r.OmittedStarts != r.Omitted || !r.Timeline[0].Time.Equal(t0.Add(1002*time.Minute)) {
		t.Errorf("%d shown, %d omitted (%d starts and stops), newest %v: want 30 with the latest starts and stops", len(r.Timeline), r.Omitted, r.OmittedStarts, r.Timeline[0].Time)
	}
	var page bytes.Buffer
	if err := HTML(&page, r, "test"); err != nil {
		t.Fatal(err)
	}
	if want := `973 events are not shown (all starts and stops): <code>planls report --full</code> shows every one.`; !strings.Contains(page.String(), want) {
		t.Errorf("page lacks %q", want)
	}
	if r := Build(Input{State: st, History: h.events, Options: Options{TimelineMax: -1}}); len(r.Timeline) != 1003 || r.Omitted != 0 {
		t.Errorf("full timeline: %d events, %d omitted; want all 1003", len(r.Timeline), r.Omitted)
	}
}

// An item set back from in_progress to pending is an event of the
// timeline ("stopped"), as its start is: nobody works on it any more.
// Starting it again is a start; a deferred or completed item made pending
// is still a reopen.
func TestTimelineShowsAStop(t *testing.T) {
	h := newHistory()
	h.approve(t0, "Stops", map[int]string{1: "one", 2: "two"}, nil, "approved")
	h.set(t0.Add(time.Minute), "cli", 1, status(core.InProgress))
	h.set(t0.Add(2*time.Minute), "mcp", 1, status(core.Pending))
	h.set(t0.Add(3*time.Minute), "cli", 1, status(core.InProgress))
	h.set(t0.Add(4*time.Minute), "cli", 2, deferWith("later"))
	h.set(t0.Add(5*time.Minute), "cli", 2, status(core.Pending))
	st := &core.State{Version: 1, Revision: int64(len(h.events)), NextID: 3, Plan: h.plan}
	r := Build(Input{State: st, History: h.events})
	var kinds []string
	for _, e := range r.Timeline {
		kinds = append(kinds, e.Kind+"#"+strconv.Itoa(e.TaskID)+"@"+e.Actor)
	}
	want := "reopened#2@cli deferred#2@cli started#1@cli stopped#1@mcp started#1@cli approved#0@cli"
	if got := strings.Join(kinds, " "); got != want {
		t.Errorf("timeline %q, want %q", got, want)
	}
	var page bytes.Buffer
	if err := HTML(&page, r, "test"); err != nil {
		t.Fatal(err)
	}
	if want := `<li class="ev-stopped"><time datetime="2026-11-02T09:02:00Z">`; !strings.Contains(page.String(), want) {
		t.Errorf("page lacks %q", want)
	}
}

// The state after the last change is drawn with a width of its own (up to
// the report's time), not as a dot on the chart's right edge.
func TestChartShowsTheLastState(t *testing.T) {
	svg := string(chartSVG(Build(fixture(false)).Chart))
	cx := regexp.MustCompile(`<circle class="pt" cx="([0-9.]+)"`).FindAllStringSubmatch(svg, -1)
	done := regexp.MustCompile(`<path class="area-done" d="[^"]*H([0-9.]+)V[0-9.]+Z"`).FindStringSubmatch(svg)
	if len(cx) == 0 || done == nil {
		t.Fatalf("no points or no area in\n%s", svg)
	}
	last, _ := strconv.ParseFloat(cx[len(cx)-1][1], 64)
	end, _ := strconv.ParseFloat(done[1], 64)
	if end-last < 20 {
		t.Errorf("the last point is at x=%.1f and the area ends at x=%.1f: the last state has no width", last, end)
	}
}

// Sealed history missing from the clone is said at the top of the page and
// of the Markdown, one sentence a gap: the revisions, or the history before
// one, and the file when a snapshot names it.
func TestReportSaysHistoryIsMissing(t *testing.T) {
	in := fixture(false)
	in.Gaps = []store.HistoryGap{{From: 1, To: 40, Segment: "journal/0000000020-0000000040-0123456789ab.jsonl.gz"},
		{From: 61, To: 80}, {From: 90, To: 90}}
	r := Build(in)
	want := []string{
		"History missing: the history before revision 41 (.planls/journal/0000000020-0000000040-0123456789ab.jsonl.gz is not in this clone: it was not committed, or was removed).",
		"History missing: the changes of revisions 61–80 (no file in .planls/journal/ holds them: a sealed segment was not committed, or was removed).",
		"History missing: the changes of revision 90 (no file in .planls/journal/ holds them:",
	}
	var page, md bytes.Buffer
	if err := HTML(&page, r, "test"); err != nil {
		t.Fatal(err)
	}
	if err := Markdown(&md, r, 0); err != nil {
		t.Fatal(err)
	}
	html := page.String()
	top := html[strings.Index(html, "<main>"):strings.Index(html, `id="progress-h"`)]
	for _, w := range want {
		if !strings.Contains(top, w) {
			t.Errorf("the page's top lacks %q:\n%s", w, top)
		}
		if !strings.Contains(md.String(), "> ⚠ "+mdText(w)) {
			t.Errorf("the Markdown lacks %q:\n%s", mdText(w), md.String())
		}
	}
	in.Gaps = nil
	page.Reset()
	if err := HTML(&page, Build(in), "test"); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(page.String(), "history-missing") {
		t.Error("a whole history is said to be missing")
	}
}
