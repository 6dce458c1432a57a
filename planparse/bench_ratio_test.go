//go:build unix

package planparse

import (
	"sort"
	"syscall"
	"testing"
	"time"

	"github.com/planls/planls/internal/plangen"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// BenchmarkParseVsBare alternates Parse and bare goldmark (GFM) on the 10k-item
// plan and reports the median process CPU time of each and their ratio. On a
// shared machine wall time swings with other load; alternating runs and CPU
// time keep the ratio meaningful (target: ratio ≤ 2).
func BenchmarkParseVsBare(b *testing.B) {
	src := plangen.Generate(10000, 1)
	bare := goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser()
	var ours, theirs []time.Duration
	for b.Loop() {
		c := cpuTime()
		Parse(src)
		ours = append(ours, cpuTime()-c)
		c = cpuTime()
		bare.Parse(text.NewReader(src))
		theirs = append(theirs, cpuTime()-c)
	}
	o, t := median(ours), median(theirs)
	b.ReportMetric(float64(o.Microseconds())/1e3, "parse-cpu-ms")
	b.ReportMetric(float64(t.Microseconds())/1e3, "bare-cpu-ms")
	if t > 0 {
		b.ReportMetric(float64(o)/float64(t), "ratio")
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func median(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}
