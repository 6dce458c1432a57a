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
	timeline  []Event
	earlier   int
	chart     Chart
	approvals int
	closed    map[int]time.Time // each plan item's last completion or deferral
}

// readHistory walks the history once: each plan item's status after every
// change gives the chart's counts, and each transition a timeline event.
// Items are told apart by their stable identity (UID), by id where the
// journal has none.
func readHistory(each func(func(store.HistoryEntry) error) error, opts Options) (history, error) {
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
	err := each(func(ev store.HistoryEntry) error {
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
			evs = append(evs, Event{Kind: "merged", Text: "merged from a branch", Detail: firstLine(ev.Result)})
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
				uncount(&c, was.status)
				delete(live, key)
			}
			t := ch.Task
			if t == nil || t.Source != "plan" || t.Status == core.Deleted {
				continue
			}
			now := t.Status
			live[key] = item{now, t.Evidence}
			recount(&c, now)
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
			case had && (was.status == core.Completed || was.status == core.Deferred) && isOpen(now):
				e.Kind = "reopened"
				if reopen.ID == ch.ID {
					e.Detail = reopen.Reason
					if reopen.Evidence != "" {
						e.Detail += " (the evidence was: " + reopen.Evidence + ")"
					}
				}
			case now == core.InProgress && (!had || was.status != core.InProgress):
				e.Kind = "started"
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
		return nil
	})
	if err != nil {
		return h, err
	}
	h.chart = thin(pts, marks, max(opts.ChartMax, 0))
	limit := opts.TimelineMax
	if limit <= 0 {
		limit = DefaultTimelineMax
	}
	if len(all) > limit {
		h.earlier = len(all) - limit
		all = all[len(all)-limit:]
	}
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
	return h, nil
}

func isOpen(s core.Status) bool { return s == core.Pending || s == core.InProgress }

// recount adds an item of status s to c; uncount takes it away.
func recount(c *Counts, s core.Status) { step(c, s, 1) }
func uncount(c *Counts, s core.Status) { step(c, s, -1) }

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

// thin keeps at most limit points (DefaultChartMax when 0): the points are
// cut into limit spans of equal time and each span keeps its last point;
// the points of approvals are always kept, so each scope change shows
// where it happened.
func thin(pts []Point, marks []Mark, limit int) Chart {
	if limit == 0 {
		limit = DefaultChartMax
	}
	ch := Chart{Marks: marks}
	if len(pts) <= limit {
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
