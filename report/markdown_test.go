package report

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"

	"github.com/planls/planls/core"
	"github.com/planls/planls/verify"
)

// bigFixture is a plan of n items in groups of ten, linked to a GitHub
// remote: of every ten, one deferred, one in progress, one pending and seven
// completed with a commit, a file at a line and a test that verify found.
// Item i was closed i minutes after the approval, so the highest ids were
// closed last. hostile gives every 7th subject markup and a script.
func bigFixture(n int, hostile bool) Input {
	st := &core.State{Version: 1, Revision: int64(n + 1), NextID: n + 1,
		Plan: &core.PlanRef{ID: "sha256:big", Title: "Big plan", Path: "PLAN.md", ApprovedAt: t0}}
	var placed []Placed
	var results []verify.Result
	for i := 1; i <= n; i++ {
		t := core.Task{ID: i, Subject: fmt.Sprintf("Build part %d of the outbox queue", i), Source: "plan",
			PlanGroup: fmt.Sprintf("Phase %d", (i-1)/10+1), CreatedAt: t0, UpdatedAt: t0.Add(time.Duration(i) * time.Minute)}
		if hostile && i%7 == 0 {
			t.Subject = fmt.Sprintf("part %d <script>alert(%d)</script> [x](javascript:alert(1)) | cell |", i, i)
		}
		switch i % 10 {
		case 0:
			t.Status, t.Reason = core.Deferred, fmt.Sprintf("descoped in review %d: <img src=x onerror=alert(1)>", i)
		case 1:
			t.Status = core.InProgress
		case 2:
			t.Status = core.Pending
		default:
			t.Status = core.Completed
			t.Evidence = fmt.Sprintf("commit a1b2c3d: pkg/part%d.go:%d, TestPart%d passes", i, i, i)
		}
		st.Tasks = append(st.Tasks, t)
		placed = append(placed, Placed{Task: t, Line: 4 + 2*i})
		if t.Status == core.Completed {
			commit := &verify.Commit{ID: "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678", Subject: "Part", Date: t0, OnHEAD: true}
			results = append(results, checked(&st.Tasks[len(st.Tasks)-1], verify.Verified,
				verify.Check{State: verify.Verified, Commit: commit},
				verify.Check{State: verify.Verified, File: fmt.Sprintf("pkg/part%d.go", i)},
				verify.Check{State: verify.Verified, File: "big_test.go", Line: i}))
		}
	}
	f := Forge{Kind: "GitHub", Base: "https://github.com/acme/big"}
	return Input{Root: "/work/big", State: st, Items: placed, Verify: results,
		Links: Links{Forge: &f, Rev: "0123456789abcdef0123456789abcdef01234567"}, Now: t0.Add(48 * time.Hour)}
}

func markdownOf(t *testing.T, in Input, maxBytes int) string {
	t.Helper()
	var b bytes.Buffer
	if err := Markdown(&b, Build(in), maxBytes); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// A report larger than the limit keeps its header and progress, lists what
// fits of each list (in progress first, the latest closed first, every list
// at least a few lines), says per list how many it left out, and closes
// with what was cut and how to print it all.
func TestMarkdownGoldenShortened(t *testing.T) {
	golden(t, "markdown_shortened.md", []byte(markdownOf(t, bigFixture(40, false), 5000)))
}

// The Markdown of a 1,000-item plan fits a GitHub pull-request comment by
// default, and still shows what matters first.
func TestMarkdownFitsAPullRequestComment(t *testing.T) {
	in := bigFixture(1000, true)
	whole := markdownOf(t, in, 0)
	if len(whole) <= DefaultMarkdownBytes {
		t.Fatalf("the whole report is %d bytes: the fixture must not fit %d", len(whole), DefaultMarkdownBytes)
	}
	md := markdownOf(t, in, DefaultMarkdownBytes)
	if len(md) > DefaultMarkdownBytes || len(md) < DefaultMarkdownBytes*9/10 {
		t.Errorf("shortened report is %d bytes: want under %d and near it (whole: %d)", len(md), DefaultMarkdownBytes, len(whole))
	}
	if n := len([]rune(md)); n > 65536 {
		t.Errorf("%d characters: a GitHub comment takes 65,536", n)
	}
	for _, want := range []string{
		"**700 of 1000 done** (70%) · 100 deferred · 200 open · evidence: 700 verified, 0 unverifiable, 0 failed\n",
		"### Open (200)\n", "### Done (700)\n", "### Deferred (100)\n",
		"`planls report --format markdown --full` prints everything",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("shortened report lacks %q", want)
		}
	}
	// The per-group table stays whole: 100 groups, each with items open.
	if !strings.Contains(md, "| Phase 100 | 7 | 1 | 2 |\n") || strings.Contains(md, "groups not shown") {
		t.Errorf("shortened report cut the per-group table")
	}
	sections := mdLists(t, md)
	// Every list shows some lines, and shown + left out is the whole list.
	for name, total := range map[string]int{"Open": 200, "Done": 700, "Deferred": 100} {
		s := sections[name]
		if len(s.ids) < minShare || len(s.ids)+s.more != total {
			t.Errorf("%s: %d shown + %d more, want at least %d shown of %d", name, len(s.ids), s.more, minShare, total)
		}
	}
	// Work in progress before pending items; the latest completions.
	open := sections["Open"]
	if open.more > 0 {
		for _, id := range open.ids[:min(len(open.ids), 100)] {
			if id%10 != 1 {
				t.Errorf("open item #%d shown before every item in progress", id)
				break
			}
		}
	}
	done := sections["Done"]
	if done.more == 0 || done.ids[0] < 1000-len(done.ids)*10/7-10 {
		t.Errorf("done items shown %v…, want the ones closed last", done.ids[:min(5, len(done.ids))])
	}
	// Cutting never breaks the escaping.
	var out bytes.Buffer
	if err := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(html.WithUnsafe())).Convert([]byte(md), &out); err != nil {
		t.Fatal(err)
	}
	for _, re := range hostileMarks {
		if re.MatchString(out.String()) {
			t.Errorf("rendered Markdown has %s", re)
		}
	}
	for _, m := range hrefRe.FindAllStringSubmatch(out.String(), -1) {
		if !strings.HasPrefix(m[1], "https://github.com/acme/big/") {
			t.Errorf("unexpected link %q", m[1])
		}
	}
}

// One item's evidence larger than the whole limit is shortened, not the
// reason the report shows nothing else.
func TestMarkdownClipsAHugeLine(t *testing.T) {
	in := bigFixture(30, false)
	huge := strings.Repeat("a very long log line `x` <b>y</b> ", 6000) // ~200 KB
	in.Items[3].Task.Evidence = huge
	in.Verify = nil
	md := markdownOf(t, in, 8192)
	if len(md) > 8192 {
		t.Fatalf("%d bytes, over the limit 8192", len(md))
	}
	line := ""
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "- #4 ") {
			line = l
		}
	}
	if line == "" || !strings.Contains(line, "…") || len(line) > 8192/2 {
		t.Errorf("item #4's line is %d bytes (%.80q): want it shown, shortened", len(line), line)
	}
	if s := mdLists(t, md); len(s["Done"].ids) < minShare {
		t.Errorf("done list shows %d items", len(s["Done"].ids))
	}
}

func TestMarkdownLimitTooSmall(t *testing.T) {
	var b bytes.Buffer
	if err := Markdown(&b, Build(bigFixture(3, false)), 100); err == nil {
		t.Error("a 100-byte limit was accepted")
	}
}

// mdList is a list of the Markdown form: the ids it shows, in order, and
// the count its "more" line gives.
type mdList struct {
	ids  []int
	more int
}

var (
	mdHeadRe = regexp.MustCompile(`^### (\w+)`)
	mdItemRe = regexp.MustCompile(`^- #(\d+) `)
	mdMoreRe = regexp.MustCompile(`^- … (\d+) more `)
)

func mdLists(t *testing.T, md string) map[string]mdList {
	t.Helper()
	out := map[string]mdList{}
	cur := ""
	for _, l := range strings.Split(md, "\n") {
		if m := mdHeadRe.FindStringSubmatch(l); m != nil {
			cur = m[1]
			continue
		}
		s := out[cur]
		if m := mdItemRe.FindStringSubmatch(l); m != nil {
			id, _ := strconv.Atoi(m[1])
			s.ids = append(s.ids, id)
		} else if m := mdMoreRe.FindStringSubmatch(l); m != nil {
			s.more, _ = strconv.Atoi(m[1])
		}
		out[cur] = s
	}
	return out
}

// A title that starts with "Plan:" (as agents' plans do) is not said twice.
func TestMarkdownTitleSaysPlanOnce(t *testing.T) {
	in := bigFixture(3, false)
	in.State.Plan.Title = "Plan: Add a greeting CLI"
	if md := markdownOf(t, in, 0); !strings.HasPrefix(md, "## Plan report: Add a greeting CLI\n") {
		t.Errorf("heading %q", strings.SplitN(md, "\n", 2)[0])
	}
}
