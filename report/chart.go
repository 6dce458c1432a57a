package report

import (
	"fmt"
	"html/template"
	"strings"
	"time"
)

// The chart's drawing area, in SVG user units (the SVG scales to its box).
const (
	chartW, chartH                       = 760, 260
	padLeft, padRight, padTop, padBottom = 44, 18, 18, 38
)

// chartSVG draws the burn-up chart as inline SVG: the plan's scope as a
// step line, items done and done plus deferred as stacked step areas, a
// dot per change (data-* attributes hold its counts; its title says them),
// and a dashed mark at each approval. Colours come from CSS classes, so
// light and dark themes and print restyle it. Everything it writes is
// numbers, times and fixed words: no text from the plan reaches it.
func chartSVG(ch Chart) template.HTML {
	var b strings.Builder
	pts := ch.Points
	fmt.Fprintf(&b, `<svg class="chart" viewBox="0 0 %d %d" role="img" aria-labelledby="chart-title chart-desc" xmlns="http://www.w3.org/2000/svg">`, chartW, chartH)
	b.WriteString(`<title id="chart-title">Burn-up chart: plan items done and deferred over time against the plan's scope</title>`)
	if len(pts) == 0 {
		b.WriteString(`<desc id="chart-desc">No history yet: the journal holds no approval.</desc></svg>`)
		return template.HTML(b.String())
	}
	last := pts[len(pts)-1]
	fmt.Fprintf(&b, `<desc id="chart-desc">From %s to %s: %d of %d done and %d deferred at the end; %d approvals.</desc>`,
		stamp(pts[0].Time), stamp(last.Time), last.Done, last.Scope, last.Deferred, len(ch.Marks))
	t0, t1 := pts[0].Time, last.Time
	// The state after the last change gets room of its own, up to the
	// report's time and at most a tenth of the span: drawn to the last
	// change only, it would be a dot on the right edge, and the area there
	// would show the state before it.
	if ch.End.After(t1) {
		end := t1.Add(max(t1.Sub(t0)/10, time.Second))
		if ch.End.Before(end) {
			end = ch.End
		}
		t1 = end
	}
	if !t1.After(t0) {
		t1 = t0.Add(time.Minute)
	}
	top := 1
	for _, p := range pts {
		top = max(top, p.Scope, p.Done+p.Deferred)
	}
	x := func(t time.Time) float64 {
		return padLeft + float64(t.Sub(t0))/float64(t1.Sub(t0))*(chartW-padLeft-padRight)
	}
	y := func(n int) float64 {
		return chartH - padBottom - float64(n)/float64(top)*(chartH-padTop-padBottom)
	}
	// Grid and axes.
	for _, n := range ticks(top) {
		fmt.Fprintf(&b, `<line class="grid" x1="%d" x2="%d" y1="%.1f" y2="%.1f"/>`, padLeft, chartW-padRight, y(n), y(n))
		fmt.Fprintf(&b, `<text class="axis" x="%d" y="%.1f" text-anchor="end" dominant-baseline="middle">%d</text>`, padLeft-6, y(n), n)
	}
	layout := axisLayout(t1.Sub(t0))
	fmt.Fprintf(&b, `<text class="axis" x="%d" y="%d" text-anchor="start">%s</text>`, padLeft, chartH-12, t0.UTC().Format(layout))
	mid := t0.Add(t1.Sub(t0) / 2)
	fmt.Fprintf(&b, `<text class="axis" x="%.1f" y="%d" text-anchor="middle">%s</text>`, x(mid), chartH-12, mid.UTC().Format(layout))
	fmt.Fprintf(&b, `<text class="axis" x="%d" y="%d" text-anchor="end">%s</text>`, chartW-padRight, chartH-12, t1.UTC().Format(layout))
	// Stacked areas: done+deferred (deferred shows above done), then done.
	area := func(class string, val func(Point) int) {
		var d strings.Builder
		fmt.Fprintf(&d, "M%.1f %.1f", x(pts[0].Time), y(0))
		for i, p := range pts {
			if i > 0 {
				fmt.Fprintf(&d, "H%.1f", x(p.Time))
			}
			fmt.Fprintf(&d, "V%.1f", y(val(p)))
		}
		fmt.Fprintf(&d, "H%.1fV%.1fZ", x(t1), y(0))
		fmt.Fprintf(&b, `<path class="%s" d="%s"/>`, class, d.String())
	}
	area("area-deferred", func(p Point) int { return p.Done + p.Deferred })
	area("area-done", func(p Point) int { return p.Done })
	// Scope as a step line.
	var d strings.Builder
	for i, p := range pts {
		if i == 0 {
			fmt.Fprintf(&d, "M%.1f %.1f", x(p.Time), y(p.Scope))
			continue
		}
		fmt.Fprintf(&d, "H%.1fV%.1f", x(p.Time), y(p.Scope))
	}
	fmt.Fprintf(&d, "H%.1f", x(t1))
	fmt.Fprintf(&b, `<path class="scope" d="%s"/>`, d.String())
	for _, m := range ch.Marks {
		label := "re-approved"
		if m.First {
			label = "approved"
		}
		mx := x(m.Time)
		fmt.Fprintf(&b, `<g class="mark" data-time="%s" data-scope="%d"><line x1="%.1f" x2="%.1f" y1="%d" y2="%d"/>`,
			m.Time.Format(time.RFC3339), m.Scope, mx, mx, padTop, chartH-padBottom)
		anchor := "start"
		if mx > chartW/2 {
			anchor = "end"
		}
		fmt.Fprintf(&b, `<text class="mark-label" x="%.1f" y="%d" text-anchor="%s">%s (%d)</text></g>`, mx+3, padTop-4, anchor, label, m.Scope)
	}
	for _, p := range pts {
		fmt.Fprintf(&b, `<circle class="pt" cx="%.1f" cy="%.1f" r="3" data-time="%s" data-scope="%d" data-done="%d" data-deferred="%d"><title>%s: %d done, %d deferred of %d</title></circle>`,
			x(p.Time), y(p.Done), p.Time.Format(time.RFC3339), p.Scope, p.Done, p.Deferred, stamp(p.Time), p.Done, p.Deferred, p.Scope)
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// ticks are the y-axis labels: 0, the top, and a middle one when it is a
// whole number apart from both.
func ticks(top int) []int {
	if top >= 2 {
		return []int{0, top / 2, top}
	}
	return []int{0, top}
}

// axisLayout is how the time axis writes its times: finer as the history
// is shorter, so its three labels differ.
func axisLayout(span time.Duration) string {
	switch {
	case span < 10*time.Minute:
		return "15:04:05 UTC"
	case span < 48*time.Hour:
		return "Jan 2 15:04 UTC"
	}
	return "2006-01-02"
}

// stamp is a time as the report writes it (UTC, minutes).
func stamp(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }
