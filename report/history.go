package report

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/planls/planls/core"
	"github.com/planls/planls/planparse"
	"github.com/planls/planls/store"
)

// history is what the report takes from the journal.
type history struct {
	timeline []Event
	omitted  int // events left out of the timeline
	// omittedStarts is how many of them are starts and stops.
	omittedStarts int
	chart         Chart
	approvals     int
	closed        map[int]time.Time // each plan item's last completion or deferral
}

// readHistory walks the history once: each plan item's status after every
// change gives the chart's counts, and each transition a timeline event.
// Items are told apart by their stable identity (UID), by id where the
// journal has none.
func readHistory(entries []store.HistoryEntry, opts Options) history {
	h := history{closed: map[int]time.Time{}}
	type item struct {
		status   core.Status
		evidence string
	}
	live := map[string]item{} // live plan items
	var c Counts
	var all []Event
	var pts []Point
	var marks []Mark
	for _, ev := range entries {
		var evs []Event
		switch ev.Kind {
		case "approve":
			kind := "approved"
			if h.approvals > 0 {
				kind = "reapproved"
			}
			h.approvals++
			evs = append(evs, Event{Kind: kind, Text: firstLine(ev.Result)})
		case "merge":
			evs = append(evs, Event{Kind: "merged", Text: "from a branch", Detail: firstLine(ev.Result)})
		}
		// A reopen of a completed item says why, and what the evidence was.
		var reopen core.ReopenedParams
		if ev.Kind == "reopen" {
			_ = json.Unmarshal(ev.Params, &reopen)
		}
		for _, ch := range ev.Changes {
			key := ch.UID
			if key == "" {
				key = "#" + strconv.Itoa(ch.ID)
			}
			was, had := live[key]
			if had {
				step(&c, was.status, -1)
				delete(live, key)
			}
			t := ch.Task
			if t == nil || t.Source != "plan" || t.Status == core.Deleted {
				continue
			}
			now := t.Status
			live[key] = item{now, t.Evidence}
			step(&c, now, 1)
			if ev.Kind == "approve" {
				continue // the approval's own event says what it did
			}
			e := Event{TaskID: ch.ID, task: t}
			switch {
			case now == core.Completed && (!had || was.status != core.Completed):
				e.Kind, e.Detail = "completed", t.Evidence
			case now == core.Completed && was.evidence != t.Evidence:
				e.Kind, e.Detail = "evidence", t.Evidence
			case now == core.Deferred && (!had || was.status != core.Deferred):
				e.Kind, e.Detail = "deferred", t.Reason
			case had && (was.status == core.Completed || was.status == core.Deferred) && now.Open():
				e.Kind = "reopened"
				if reopen.ID == ch.ID {
					e.Detail = reopen.Reason
					if reopen.Evidence != "" {
						e.Detail += " (the evidence was: " + reopen.Evidence + ")"
					}
				}
			case now == core.InProgress && (!had || was.status != core.InProgress):
				e.Kind = "started"
			case had && was.status == core.InProgress && now == core.Pending:
				// Work on it stopped: nobody is on it any more, and it
				// still owes what it owed.
				e.Kind = "stopped"
			default:
				continue
			}
			if now == core.Completed || now == core.Deferred {
				h.closed[ch.ID] = ev.Time
			} else {
				delete(h.closed, ch.ID)
			}
			evs = append(evs, e)
		}
		for i := range evs {
			evs[i].Time, evs[i].Actor = ev.Time, ev.Actor
		}
		all = append(all, evs...)
		p := Point{Time: ev.Time, Scope: c.All(), Done: c.Done, Deferred: c.Deferred}
		if ev.Kind == "approve" {
			marks = append(marks, Mark{Time: ev.Time, Scope: p.Scope, First: len(marks) == 0})
		}
		if n := len(pts); h.approvals > 0 && (ev.Kind == "approve" || n == 0 || pts[n-1].Scope != p.Scope || pts[n-1].Done != p.Done || pts[n-1].Deferred != p.Deferred) {
			pts = append(pts, p)
		}
	}
	h.chart = thin(pts, marks, opts.ChartMax)
	all, h.omitted, h.omittedStarts = pick(all, opts.TimelineMax)
	slices.Reverse(all)
	// Subjects and details are made readable only for the events shown:
	// rendering a subject parses its markdown.
	var pairs [][2]string
	for _, e := range all {
		if e.task != nil {
			pairs = append(pairs, [2]string{e.task.Subject, e.task.PlanText})
		}
	}
	subjects := planparse.Displays(pairs)
	for i := range all {
		if all[i].task != nil {
			all[i].Text, subjects = core.NoControls(subjects[0]), subjects[1:]
			all[i].task = nil
		}
		all[i].Detail = core.NoControls(all[i].Detail)
	}
	h.timeline = all
	return h
}

// pick bounds the timeline (oldest first) to limit events
// (DefaultTimelineMax when 0, every event when below 0). Starts and stops
// go first: the events that change what the plan owes (approvals,
// completions, deferrals, reopens, merges) are kept, the latest of them
// when even those are too many, and the latest starts and stops fill what
// room is left. It returns the events kept in their order, how many it
// left out, and how many of those are starts and stops.
func pick(all []Event, limit int) (kept []Event, omitted, starts int) {
	if limit == 0 {
		limit = DefaultTimelineMax
	}
	if limit < 0 || len(all) <= limit {
		return all, 0, 0
	}
	var milestones, startsTotal int
	for _, e := range all {
		if e.minor() {
			startsTotal++
		} else {
			milestones++
		}
	}
	roomStarts := max(limit-milestones, 0)
	roomMilestones := min(milestones, limit)
	// From the newest back, each kind takes what room it has.
	kept = make([]Event, 0, limit)
	for i := len(all) - 1; i >= 0; i-- {
		e := all[i]
		switch {
		case e.minor() && roomStarts > 0:
			roomStarts--
		case !e.minor() && roomMilestones > 0:
			roomMilestones--
		default:
			omitted++
			if e.minor() {
				starts++
			}
			continue
		}
		kept = append(kept, e)
	}
	slices.Reverse(kept)
	return kept, omitted, starts
}

// minor reports whether e only moves work on an item (started, stopped):
// what the plan owes stays the same.
func (e Event) minor() bool { return e.Kind == "started" || e.Kind == "stopped" }

// step adds d items of status s to c (d < 0 takes them away).
func step(c *Counts, s core.Status, d int) {
	switch s {
	case core.Completed:
		c.Done += d
	case core.Deferred:
		c.Deferred += d
	default:
		c.Open += d
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return core.NoControls(line)
}

// thin keeps at most limit points (DefaultChartMax when 0, every point
// when below 0): the points are
// cut into limit spans of equal time and each span keeps its last point;
// the points of approvals are always kept, so each scope change shows
// where it happened.
func thin(pts []Point, marks []Mark, limit int) Chart {
	if limit == 0 {
		limit = DefaultChartMax
	}
	ch := Chart{Marks: marks}
	if limit < 0 || len(pts) <= limit {
		ch.Points = pts
		return ch
	}
	first, last := pts[0].Time, pts[len(pts)-1].Time
	span := last.Sub(first)
	approval := map[time.Time]bool{}
	for _, m := range marks {
		approval[m.Time] = true
	}
	bucket := func(t time.Time) int64 {
		if span <= 0 {
			return 0
		}
		return int64(t.Sub(first)) * int64(limit-1) / int64(span)
	}
	for i, p := range pts {
		keep := i == len(pts)-1 || approval[p.Time] || bucket(pts[i+1].Time) != bucket(p.Time) || approval[pts[i+1].Time]
		if keep {
			ch.Points = append(ch.Points, p)
		}
	}
	ch.Thinned = len(pts) - len(ch.Points)
	return ch
}
