package report

import (
	"net/url"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/planls/planls/core"
	"github.com/planls/planls/planparse"
	"github.com/planls/planls/store"
	"github.com/planls/planls/verify"
)

// Input is what Build reads. Nothing in it is changed.
type Input struct {
	Root  string      // the workspace root (absolute)
	State *core.State // with an approved plan
	// History is every change of the history, oldest first
	// (store.Store.History's).
	History []store.HistoryEntry
	// Items are the plan items in the order of the plan file (those no
	// longer in it last), with where each stands now.
	Items []Placed
	// Gaps is the sealed history missing from the clone
	// (store.Store.HistoryGaps); History gives the changes around it.
	Gaps    []store.HistoryGap
	Verify  []verify.Result // verify's results for the completed items (no command run)
	Drift   []Drift         // Href is filled in by Build
	Links   Links
	Now     time.Time
	Options Options
}

// Placed is a plan item and the 1-based line of its bullet in the plan
// file now (0 when it is no longer in it). Subject is its subject as people
// read it ("": Build renders it with planparse.Display). Unproven marks an
// item closed without its proof (counted open).
type Placed struct {
	Task     core.Task
	Subject  string
	Line     int
	Unproven bool
}

// Links says where links go.
type Links struct {
	// Forge, when set, gets every link to a commit or a file; Rev is the
	// commit files are linked at (HEAD), and Prefix the workspace root's
	// path inside the repository ("" at its top, else "sub/dir/").
	Forge  *Forge
	Rev    string
	Prefix string
	// Local links files to their file:// URL when there is no forge (or
	// no Rev): right for a report opened on the machine that made it.
	Local bool
}

// Options bound the report's size.
type Options struct {
	TimelineMax int // events shown in the timeline (DefaultTimelineMax when 0, all when below 0)
	ChartMax    int // points on the chart (DefaultChartMax when 0, all when below 0)
}

// The default bounds: a history of 10,000 changes still makes a report a
// browser opens at once and a pull-request comment can hold.
const (
	DefaultTimelineMax = 200
	DefaultChartMax    = 300
)

// Build makes the report of in; what cannot be linked is shown without a
// link.
func Build(in Input) *Report {
	st := in.State
	r := &Report{Generated: in.Now.UTC(), Revision: st.Revision, Verify: map[verify.State]int{}}
	if st.Plan != nil {
		r.Title, r.PlanPath, r.ApprovedAt = st.Plan.Title, st.Plan.Path, st.Plan.ApprovedAt.UTC()
	}
	if r.PlanPath == "" {
		r.PlanPath = "PLAN.md"
	}
	if in.Links.Forge != nil && in.Links.Rev != "" {
		r.Forge = in.Links.Forge.Kind
	}
	r.PlanHref = in.Links.file(in.Root, r.PlanPath, 0, 0)

	results := map[int]verify.Result{}
	for _, res := range in.Verify {
		results[res.TaskID] = res
	}
	h := readHistory(in.History, in.Options)
	r.Timeline, r.Omitted, r.OmittedStarts, r.Chart, r.Approvals = h.timeline, h.omitted, h.omittedStarts, h.chart, h.approvals
	r.Chart.End = r.Generated
	for _, g := range in.Gaps {
		gap := Gap{From: g.From, To: g.To}
		if g.Segment != "" {
			gap.File = store.DirName + "/" + g.Segment
		}
		r.Gaps = append(r.Gaps, gap)
	}

	var pairs [][2]string
	for _, p := range in.Items {
		if p.Subject == "" {
			pairs = append(pairs, [2]string{p.Task.Subject, p.Task.PlanText})
		}
	}
	shown := planparse.Displays(pairs)
	groups := map[string]int{}
	for _, p := range in.Items {
		t := p.Task
		subj := p.Subject
		if subj == "" {
			subj, shown = shown[0], shown[1:]
		}
		it := Item{ID: t.ID, Subject: core.NoControls(subj), Group: t.PlanGroup, Status: t.Status,
			Unproven: p.Unproven, Line: p.Line, Reason: t.Reason, Closed: h.closed[t.ID]}
		if it.Line > 0 {
			it.Href = in.Links.file(in.Root, r.PlanPath, it.Line, 0)
		}
		if t.Status == core.Completed && !p.Unproven {
			res, ok := results[t.ID]
			if ok {
				it.Verdict = &Verdict{State: res.State, Reason: res.Reason}
				it.Weak = res.Weak
				r.Verify[res.State]++
			} else {
				it.Weak = core.WeakEvidence(t.Evidence)
			}
			it.Evidence = in.Links.parts(in.Root, t.Evidence, res.Checks)
		}
		if it.Closed.IsZero() && !it.Open() {
			it.Closed = t.UpdatedAt.UTC()
		}
		r.Items = append(r.Items, it)
		gi, ok := groups[it.Group]
		if !ok {
			gi = len(r.Groups)
			groups[it.Group] = gi
			r.Groups = append(r.Groups, Group{Name: it.Group})
		}
		count(&r.Groups[gi].Counts, it)
		count(&r.Total, it)
	}
	for _, d := range in.Drift {
		if d.Line > 0 {
			d.Href = in.Links.file(in.Root, r.PlanPath, d.Line, 0)
		}
		r.Drift = append(r.Drift, d)
	}
	return r
}

func count(c *Counts, it Item) {
	switch {
	case it.Open():
		c.Open++
		if it.Status == core.InProgress {
			c.InProgress++
		}
	case it.Status == core.Completed:
		c.Done++
	default:
		c.Deferred++
	}
}

// parts splits evidence into plain text and the references it names, each
// with its check (checks are verify's, one per core.ParseEvidence
// reference in order; nil when the item was not verified).
func (l Links) parts(root, evidence string, checks []verify.Check) []Part {
	var refs []core.EvidenceRef
	if len(checks) > 0 {
		// verify read the evidence already: its checks hold the references.
		for _, c := range checks {
			refs = append(refs, c.Ref)
		}
	} else {
		refs = core.ParseEvidence(evidence)
	}
	var out []Part
	at := 0
	for i, ref := range refs {
		if ref.Start < at || ref.End > len(evidence) {
			continue
		}
		if ref.Start > at {
			out = append(out, Part{Text: evidence[at:ref.Start]})
		}
		p := Part{Text: evidence[ref.Start:ref.End], Kind: ref.Kind}
		var c *verify.Check
		if i < len(checks) {
			c = &checks[i]
			p.State, p.Detail = c.State, c.Detail
		}
		p.Href = l.refHref(root, ref, c)
		out = append(out, p)
		at = ref.End
	}
	if at < len(evidence) {
		out = append(out, Part{Text: evidence[at:]})
	}
	for i := range out {
		out[i].Text = core.NoControls(out[i].Text)
	}
	return out
}

// refHref is where a reference links: a commit that exists to the forge,
// a file or test that verify found to the forge or the local file, an
// http(s) URL to itself. Everything else links nowhere.
func (l Links) refHref(root string, ref core.EvidenceRef, c *verify.Check) string {
	switch ref.Kind {
	case core.RefURL:
		return webURL(ref.URL)
	case core.RefCommit:
		if c != nil && c.Commit != nil && l.Forge != nil {
			return l.Forge.Commit(shortID(c.Commit.ID))
		}
	case core.RefFile:
		if c != nil && c.File != "" {
			return l.file(root, c.File, ref.Line, ref.EndLine)
		}
	case core.RefTest:
		if c != nil && c.File != "" {
			return l.file(root, c.File, c.Line, 0)
		}
	}
	return ""
}

// file links rel (slash-separated, relative to root) at line through end.
func (l Links) file(root, rel string, line, end int) string {
	if l.Forge != nil && l.Rev != "" {
		return l.Forge.File(shortID(l.Rev), path.Clean(l.Prefix+rel), line, end)
	}
	if !l.Local {
		return ""
	}
	abs := filepath.ToSlash(filepath.Join(root, filepath.FromSlash(rel)))
	if !strings.HasPrefix(abs, "/") {
		abs = "/" + abs // C:/x → /C:/x
	}
	u := url.URL{Scheme: "file", Path: abs}
	if line > 0 {
		// Browsers ignore it on a text file; the VS Code webview opens the
		// file at that line.
		u.Fragment = "L" + strconv.Itoa(line)
	}
	return u.String()
}

// webURL is s when it is an absolute http or https URL with a host, else
// "" (nothing else is ever a link).
func webURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return ""
	}
	return u.String()
}

// shortID is a commit id cut to 12 hex digits, as links name commits: every
// forge resolves it, and it keeps a report of 1,000 items under 1 MB.
func shortID(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}
