package main

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/planls/planls/core"
	"github.com/planls/planls/internal/gitclone"
	"github.com/planls/planls/report"
	"github.com/planls/planls/store"
	"github.com/planls/planls/verify"
)

// defaultReport is where planls report writes the HTML page, relative to
// the root (git-ignored by .planls/.gitignore).
const defaultReport = store.DirName + "/" + store.ReportName

// newReportCmd is `planls report`: the plan report as one HTML file, or as
// Markdown for a pull request.
func newReportCmd() *cobra.Command {
	var format, output string
	var open, full bool
	maxBytes := report.DefaultMarkdownBytes
	cmd := &cobra.Command{
		Use:   "report [--format html|markdown] [-o FILE] [--open] [--full] [--max-bytes N]",
		Short: "Write the plan report: progress over time, each item's proof as links (HTML or Markdown)",
		Long: fmt.Sprintf(`Write the report of the approved plan: its progress overall and per group, a burn-up chart from
the journal (items completed and deferred over time against the plan's scope, each approval marked),
every item with its status, its evidence (commits, files at their line and tests as links) and
planls verify's verdict, the deferred items with their reasons, drift since approval, and a timeline
of events (approved, started, stopped, completed, deferred, reopened, merged from a branch).

--format html (the default) writes one self-contained page to `+defaultReport+` (or -o FILE; -o -
for stdout): styles, script and chart inline, nothing fetched, light and dark, printable. --open then
opens it in the default browser ($BROWSER when set, else xdg-open, open or start).

--format markdown prints the same facts compactly to stdout (or -o FILE), for a pull-request comment
or $GITHUB_STEP_SUMMARY:

  planls report --format markdown >> "$GITHUB_STEP_SUMMARY"

It keeps to --max-bytes (default %d, under the 65,536 characters of a GitHub pull-request
comment): when the whole report is larger, progress and the per-group table stay, the open items
(in progress first), the items closed last with their proof, and the latest deferrals are listed
as far as they fit, each cut list says how many it left out, and a closing note says what was cut.
--full prints everything (--max-bytes 0 does the same).

The HTML page's timeline shows the latest %d events (approvals, completions, deferrals, reopens
and merges before starts and stops) and its chart at most %d points; --full shows every event and point.

Links go to the forge when the repository's remote (origin, else the first) is on GitHub, GitLab or
Gitea (Codeberg, Forgejo), at the HEAD commit; else an HTML report links the local files. Evidence is
checked as planls verify does, offline: no command is ever run for the report. Exit 0, or 2 on error
(no plan approved, unreadable state).`,
			report.DefaultMarkdownBytes, report.DefaultTimelineMax, report.DefaultChartMax),
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if format != "html" && format != "markdown" {
				return usagef("--format %q: use html or markdown", format)
			}
			if open && (format != "html" || output == "-") {
				return usagef("--open needs the HTML report written to a file")
			}
			if cmd.Flags().Changed("max-bytes") {
				switch {
				case format != "markdown":
					return usagef("--max-bytes bounds the Markdown report: use it with --format markdown")
				case maxBytes != 0 && maxBytes < report.MinMarkdownBytes:
					return usagef("--max-bytes %d: use 0 (no limit) or at least %d", maxBytes, report.MinMarkdownBytes)
				}
			}
			if full {
				maxBytes = 0
			}
			s, st, err := openState(cmd)
			if err != nil {
				return err
			}
			if st.Plan == nil {
				return failf("no plan approved in %s: run planls approve %s first", s.Root, defaultPlan)
			}
			var opts report.Options
			if full {
				opts = report.Options{TimelineMax: -1, ChartMax: -1}
			}
			r, err := buildReport(cmd.Context(), s, st, format == "html", opts)
			if err != nil {
				return fail(err)
			}
			var buf bytes.Buffer
			if format == "markdown" {
				err = report.Markdown(&buf, r, maxBytes)
			} else {
				err = report.HTML(&buf, r, version())
			}
			if err != nil {
				return fail(err)
			}
			if output == "" && format == "markdown" {
				output = "-"
			}
			if output == "-" {
				_, err := cmd.OutOrStdout().Write(buf.Bytes())
				return err
			}
			path := output
			if path == "" {
				if err := s.EnsureDir(); err != nil {
					return fail(err)
				}
				path = filepath.Join(s.Dir(), store.ReportName)
			}
			abs, err := filepath.Abs(path)
			if err != nil {
				return fail(err)
			}
			if err := store.WriteFile(abs, buf.Bytes()); err != nil {
				return fail(err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "Wrote %s (%d plan items, %s)\n", displayPath(abs, s.Root), r.Total.All(), byteSize(buf.Len()))
			if open {
				if err := openBrowser(abs); err != nil {
					return fail(err)
				}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "html", "output format: html or markdown")
	cmd.Flags().StringVarP(&output, "output", "o", "", "write to FILE (- for stdout); default "+defaultReport+" for html, stdout for markdown")
	cmd.Flags().BoolVar(&open, "open", false, "open the HTML report in the default browser")
	cmd.Flags().BoolVar(&full, "full", false, "no limits: every timeline event and chart point (HTML), the whole Markdown")
	cmd.Flags().IntVar(&maxBytes, "max-bytes", maxBytes, "largest Markdown report in bytes, shortened to fit (0: no limit)")
	return cmd
}

// buildReport gathers what the report shows: the state, the history, the
// plan file against the approved plan, verify's results (no command run)
// and where links go; opts bounds the timeline and the chart. local links files by file:// URL when there is no
// forge (right for a page opened here, not for a pull request).
func buildReport(ctx context.Context, s *store.Store, st *core.State, local bool, opts report.Options) (*report.Report, error) {
	// verify and the forge lookups mostly wait on git, and the plan is
	// analysed, while the history is read: they share nothing.
	var results []verify.Result
	var links report.Links
	var wg sync.WaitGroup
	wg.Go(func() { results = offlineResults(ctx, s.Root, st) })
	wg.Go(func() { links = reportLinks(s.Root) })
	var v *planView
	var verr error
	wg.Go(func() { v, verr = loadPlanView(s.Root, st, nil) })
	var entries []store.HistoryEntry
	err := s.History(ctx, func(h store.HistoryEntry) error { entries = append(entries, h); return nil })
	gaps, gerr := s.HistoryGaps()
	wg.Wait()
	if err = cmp.Or(err, gerr, verr); err != nil {
		return nil, err
	}
	links.Local = local
	items, drift := reportFindings(v)
	return report.Build(report.Input{Root: s.Root, State: st, History: entries, Gaps: gaps, Items: items, Verify: results,
		Drift: drift, Links: links, Now: time.Now(), Options: opts}), nil
}

// reportFindings is the plan items and the drift findings of the analysis,
// as the report shows them: the one place the report reads the analysis.
func reportFindings(v *planView) ([]report.Placed, []report.Drift) {
	unproven := map[int]bool{}
	var drift []report.Drift
	if !v.an.Exists {
		drift = append(drift, report.Drift{Kind: string(core.DriftMissing), Message: displayPath(v.abs, v.root) + " is missing"})
	}
	for _, f := range v.an.Findings {
		switch f.Rule {
		case core.RuleNoProof:
			unproven[f.TaskID] = true
		case core.RuleDrift:
			drift = append(drift, report.Drift{Kind: string(f.Drift), TaskID: f.TaskID, Message: f.Message, Line: v.line(f)})
		}
	}
	var items []report.Placed
	for _, it := range v.an.Items {
		t := it.Task
		if t == nil || t.Source != "plan" || t.Status == core.Deleted {
			continue
		}
		p := report.Placed{Task: *t, Subject: it.Subject, Unproven: unproven[t.ID]}
		if it.Plan != nil {
			p.Line, _ = v.lines.LineCol(it.Plan.Line.Start)
		}
		items = append(items, p)
	}
	return items, drift
}

// reportLinks finds the forge of the repository holding root: the remote
// named origin, else the first one, at HEAD. No forge when root is not in
// a repository, has no commit or no remote on a known forge.
func reportLinks(root string) report.Links {
	var l report.Links
	out, ok := gitclone.Out(root, "rev-parse", "HEAD", "--show-prefix")
	if !ok {
		return l
	}
	head, prefix, _ := strings.Cut(out, "\n")
	remotes, ok := gitclone.Out(root, "remote")
	if !ok || remotes == "" {
		return l
	}
	name := strings.Fields(remotes)[0]
	for _, r := range strings.Fields(remotes) {
		if r == "origin" {
			name = r
		}
	}
	u, ok := gitclone.Out(root, "remote", "get-url", name)
	if !ok {
		return l
	}
	if f, ok := report.ParseRemote(u); ok {
		l.Forge, l.Rev, l.Prefix = &f, strings.TrimSpace(head), strings.TrimSpace(prefix)
	}
	return l
}

// openBrowser opens path in the default browser: $BROWSER (a command, the
// file's path appended) when set, else the platform's opener. It returns
// once the opener started; the browser is not waited for.
func openBrowser(path string) error {
	var c *exec.Cmd
	// $BROWSER is a colon-separated list of commands; %s in one stands
	// for the file, else the file is its last argument.
	b, _, _ := strings.Cut(os.Getenv("BROWSER"), ":")
	switch {
	case strings.TrimSpace(b) != "":
		if !strings.Contains(b, "%s") {
			b += " %s"
		}
		c = exec.Command("sh", "-c", strings.ReplaceAll(b, "%s", `"$1"`), "sh", path)
	case runtime.GOOS == "darwin":
		c = exec.Command("open", path)
	case runtime.GOOS == "windows":
		c = exec.Command("rundll32", "url.dll,FileProtocolHandler", path)
	default:
		c = exec.Command("xdg-open", path)
	}
	c.Stdout, c.Stderr = io.Discard, os.Stderr
	if err := c.Start(); err != nil {
		return fmt.Errorf("open %s in a browser: %w (set $BROWSER, or open the file yourself)", path, err)
	}
	go func() { _ = c.Wait() }()
	return nil
}

// byteSize is n bytes as people read it.
func byteSize(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
