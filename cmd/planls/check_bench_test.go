package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/planls/planls/core"
	"github.com/planls/planls/internal/plangen"
	"github.com/planls/planls/planparse"
)

// BenchmarkCheckReportDrift measures what `planls check` does after reading
// the state: parse the plan file, match it (core.Analyze), collect the
// findings, write the text. The plan has 1000 approved items, then 50 new
// bullets appended, so every finding kind is on the path.
func BenchmarkCheckReportDrift(b *testing.B) {
	src := plangen.Generate(1000, 1)
	res := core.Approve(core.Empty(), planparse.Parse(src), src, "PLAN.md", core.Options{})
	if res.Envelope.IsError() {
		b.Fatal(res.Envelope.Text())
	}
	edited := append(bytes.Clone(src), '\n')
	for i := range 50 {
		edited = append(edited, "- added bullet "...)
		edited = append(edited, byte('a'+i%26), '\n')
	}
	root := b.TempDir()
	if err := os.WriteFile(filepath.Join(root, "PLAN.md"), edited, 0o644); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	findings := 0
	for b.Loop() {
		v, err := loadPlanView(root, res.State, nil)
		if err != nil {
			b.Fatal(err)
		}
		r := newCheckReport(v)
		if err := r.writeText(io.Discard); err != nil {
			b.Fatal(err)
		}
		findings = len(r.findings())
	}
	if findings == 0 {
		b.Fatal("no findings")
	}
}
