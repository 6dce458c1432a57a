// Package report builds the plan report: what a lead or a reviewer reads
// about an approved plan (progress overall and per group, a burn-up chart
// from the journal, every item with its proof as links and verify's
// verdict, deferrals with their reasons, drift findings, a timeline of
// events) and renders it as one self-contained HTML page (HTML) or as
// Markdown for a pull-request comment (Markdown).
//
// Build is pure over its Input: the caller reads the state, the history
// (store.History), verify's results and the drift findings. Everything a
// subject, an evidence or a reason holds is other people's text: it is
// rendered as text, and a link is only ever one this package made (to the
// forge, to a local file, or an http(s) URL the evidence names).
package report

import (
	"fmt"
	"time"

	"github.com/planls/planls/core"
	"github.com/planls/planls/verify"
)

// Report is everything the report shows, in the order it shows it.
type Report struct {
	Title      string
	PlanPath   string    // the plan file, slash-separated, relative to the root
	PlanHref   string    // a link to the plan file ("" when none)
	ApprovedAt time.Time // the last approval, UTC
	Approvals  int       // approvals in the history (1 = approved once)
	Generated  time.Time // when the report was made, UTC
	Revision   int64     // the state's revision
	Forge      string    // the forge links point to ("GitHub", ...), "" for local files

	// Gaps is the history this clone does not have (sealed journal
	// segments not here): the chart, the timeline and Approvals leave it
	// out, and the report says so at its top.
	Gaps []Gap

	Total  Counts
	Groups []Group
	Items  []Item // plan items in plan order (those no longer in the file last)
	Drift  []Drift
	Chart  Chart
	// Timeline is the events shown, newest first: every one, or within
	// Options.TimelineMax the latest of those that change what the plan
	// owes, and the latest starts and stops as room allows. Omitted counts
	// the events left out (the journal holds them all), OmittedStarts the
	// starts and stops among them.
	Timeline      []Event
	Omitted       int
	OmittedStarts int
	// Verify counts completed items by verify's verdict.
	Verify map[verify.State]int
}

// Counts is how many plan items are done, deferred and open. Open counts
// pending and in_progress items (and items closed without their proof,
// which only a hand edit of the state file makes).
type Counts struct {
	Done, Deferred, Open, InProgress int
}

// All is the number of plan items counted.
func (c Counts) All() int { return c.Done + c.Deferred + c.Open }

// Percent is the share of items done, 0–100, rounded down.
func (c Counts) Percent() int {
	if c.All() == 0 {
		return 0
	}
	return c.Done * 100 / c.All()
}

// Group is one heading of the plan and its items' counts.
type Group struct {
	Name string
	Counts
}

// Item is one plan item as the report shows it.
type Item struct {
	ID      int
	Subject string // as people read it (planparse.Display)
	Group   string
	Status  core.Status
	// Unproven marks an item closed without its proof (completed without
	// evidence or deferred without a reason): counted open.
	Unproven bool
	Line     int    // 1-based line of its bullet in the plan file; 0 when not in it
	Href     string // a link to the bullet ("" when none)
	Evidence []Part // the evidence, split into text and what it names
	Reason   string // why it was deferred
	Verdict  *Verdict
	Weak     bool      // completed with evidence that names nothing checkable
	Closed   time.Time // when it was completed or deferred (zero when open)
}

// Open reports whether the item still owes work.
func (it Item) Open() bool {
	return it.Unproven || (it.Status != core.Completed && it.Status != core.Deferred)
}

// StatusLabel is the status as the report names it.
func (it Item) StatusLabel() string {
	switch {
	case it.Unproven:
		return "closed without proof"
	case it.Status == core.InProgress:
		return "in progress"
	}
	return string(it.Status)
}

// Part is a piece of an evidence text: plain text (Kind ""), or a
// reference it names (commit, file, test, command, url) with what verify
// found and, when there is somewhere to go, a link.
type Part struct {
	Text   string
	Kind   core.RefKind
	Href   string // "" when it links nowhere
	State  verify.State
	Detail string
}

// Verdict is verify's outcome for a completed item (no command is ever
// run for the report).
type Verdict struct {
	State  verify.State
	Reason string
}

// Drift is a finding about the plan file against the approved plan.
type Drift struct {
	Kind    string // "new", "changed", "text" (an edit outside the items) or "missing" (the file)
	TaskID  int    // the approved item it replaces; 0 for new bullets
	Subject string
	Line    int // 1-based; 0 when none
	Message string
	Href    string
}

// Gap is history missing from this clone: no journal file here holds the
// changes of revisions From through To (inclusive; From 1 when everything
// before To+1 is missing). File is the missing sealed segment, relative to
// the workspace root and slash-separated (".planls/journal/<name>"), when
// a snapshot names it, else "".
type Gap struct {
	From, To int64
	File     string
}

// Text says what is missing and what it means for the report, for
// people: a sentence with no markup.
func (g Gap) Text() string {
	what := fmt.Sprintf("the changes of revisions %d–%d", g.From, g.To)
	if g.From == g.To {
		what = fmt.Sprintf("the changes of revision %d", g.From)
	}
	if g.From <= 1 {
		what = fmt.Sprintf("the history before revision %d", g.To+1)
	}
	where := "no file in .planls/journal/ holds them: a sealed segment was not committed, or was removed"
	if g.From <= 1 {
		where = "no file in .planls/journal/ holds it: a sealed segment was not committed, or was removed"
	}
	if g.File != "" {
		where = g.File + " is not in this clone: it was not committed, or was removed"
	}
	return "History missing: " + what + " (" + where + "). " +
		"The chart, the timeline and the count of approvals leave it out; the state and the items are whole (planls doctor names what is missing)."
}

// Event is one entry of the timeline.
type Event struct {
	Time   time.Time
	Actor  string
	Kind   string // approved, reapproved, started, stopped (in_progress → pending), completed, deferred, reopened, evidence, merged
	TaskID int    // 0 for plan-wide events
	Text   string // the subject, or what the approval did
	Detail string // the evidence or the reason

	task *core.Task // while the history is read: the record whose subject Text shows
}

// Chart is the burn-up chart: plan items done and deferred over time
// against the plan's scope.
type Chart struct {
	Points []Point
	// Marks are the approvals (the first and each scope change).
	Marks []Mark
	// Thinned is the number of points merged into their neighbours to keep
	// the chart small (0 when every change has its point).
	Thinned int
	// End is the time the chart runs to: the report's time (UTC).
	End time.Time
}

// Point is the plan's counts after a change.
type Point struct {
	Time                  time.Time
	Scope, Done, Deferred int
}

// Mark is an approval on the chart.
type Mark struct {
	Time  time.Time
	Scope int
	First bool
}

// VerifyCount is how many completed items got verify's verdict state
// ("verified", "unverifiable", "failed").
func (r *Report) VerifyCount(state string) int { return r.Verify[verify.State(state)] }
