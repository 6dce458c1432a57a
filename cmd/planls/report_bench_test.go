package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/planls/planls/core"
	"github.com/planls/planls/internal/plangen"
	"github.com/planls/planls/planparse"
	"github.com/planls/planls/report"
	"github.com/planls/planls/store"
)

// BenchmarkReport is planls report (HTML) on a project at the size the
// report is built for: 1,000 plan items and 10,000 journal entries, in a
// git repository with a GitHub remote, most items completed with evidence
// naming a commit, a file at a line and a test (so verify does its three
// git lookups and reads the tree), some deferred, the rest open. One op is
// everything the command does after start-up: read the state and the
// history, match the plan file, verify, build, render. bytes/report is the
// page's size (the target: 200 ms and 1 MB); cpu-ms/op is the CPU time
// of planls and its git processes, the figure to read on a busy machine.
func BenchmarkReport(b *testing.B) {
	root := reportProject(b, 1000, 10000)
	s := store.Open(root, "bench")
	var size int
	b.ReportAllocs()
	cpu0 := cpuTime()
	for b.Loop() {
		st, err := s.Read()
		if err != nil {
			b.Fatal(err)
		}
		r, err := buildReport(context.Background(), s, st, true, report.Options{})
		if err != nil {
			b.Fatal(err)
		}
		var buf bytes.Buffer
		if err := report.HTML(&buf, r, "bench"); err != nil {
			b.Fatal(err)
		}
		size = buf.Len()
		if r.Total.All() != 1000 || r.Verify["verified"] == 0 || len(r.Timeline) == 0 {
			b.Fatalf("report of %d items, %d verified, %d events", r.Total.All(), r.Verify["verified"], len(r.Timeline))
		}
	}
	b.ReportMetric(float64(size), "bytes/report")
	if cpu := cpuTime() - cpu0; cpu > 0 {
		b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
	}
}

// reportProject makes a git repository with a plan of items items and a
// journal of entries entries (the approval first), and returns its root.
// The journal is written the way the store writes it, one entry per
// change, without taking the lock entries times.
func reportProject(b testing.TB, items, entries int) string {
	b.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("git not installed")
	}
	root := b.TempDir()
	git := func(args ...string) string {
		cmd := exec.Command("git", append([]string{"-C", root}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=B", "GIT_AUTHOR_EMAIL=b@example.com", "GIT_COMMITTER_NAME=B",
			"GIT_COMMITTER_EMAIL=b@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			b.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q", "-b", "main")
	git("remote", "add", "origin", "git@github.com:acme/big.git")
	src := plangen.Generate(items, 1)
	write := func(rel, text string) {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	write("PLAN.md", string(src))
	var commits []string
	var tests strings.Builder
	tests.WriteString("package big\n\nimport \"testing\"\n")
	for i := range 50 {
		fmt.Fprintf(&tests, "\nfunc TestPart%d(t *testing.T) {}\n", i)
	}
	write("big_test.go", tests.String())
	for i := range 20 {
		write(fmt.Sprintf("pkg/part%d.go", i), "package pkg\n"+strings.Repeat("// line\n", 60))
		git("add", "-A")
		git("commit", "-q", "-m", fmt.Sprintf("Part %d", i))
		commits = append(commits, git("rev-parse", "--short=12", "HEAD"))
	}

	at := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	res := core.Approve(core.Empty(), planparse.Parse(src), src, "PLAN.md", core.Options{Now: at})
	if res.Envelope.IsError() {
		b.Fatal(res.Envelope.Text())
	}
	st := res.State
	st.Revision = 1
	var journal bytes.Buffer
	appendEntry := func(kind string, tasks []core.Task, when time.Time) {
		head := *st
		head.Tasks, head.Mutations = nil, nil
		h, err := json.Marshal(&head)
		if err != nil {
			b.Fatal(err)
		}
		line, err := json.Marshal(store.JournalEntry{Revision: st.Revision, Base: st.Revision - 1, Time: when, Actor: "bench",
			Kind: kind, Result: "ok", Head: h, Tasks: tasks})
		if err != nil {
			b.Fatal(err)
		}
		journal.Write(line)
		journal.WriteByte('\n')
	}
	appendEntry("approve", st.Tasks, at)
	// Each later entry moves one item a step: start, complete, and for
	// some a reopen and a second completion, or a deferral.
	for n := 1; n < entries; n++ {
		i := n % len(st.Tasks)
		t := &st.Tasks[i]
		round := n / len(st.Tasks)
		switch {
		case i%10 == 9 && round > 0:
			t.Status, t.Reason, t.Evidence = core.Deferred, fmt.Sprintf("descoped in round %d", round), ""
		case i%10 == 8 && round > 1:
			t.Status, t.Evidence = core.Pending, "" // stays open
		case t.Status == core.Pending:
			t.Status = core.InProgress
		case t.Status == core.InProgress:
			t.Status = core.Completed
			t.Evidence = fmt.Sprintf("commit %s: pkg/part%d.go:%d, TestPart%d passes", commits[i%len(commits)], i%20, 1+i%60, i%50)
		default:
			t.Status, t.Evidence = core.InProgress, "" // reopened
		}
		when := at.Add(time.Duration(n) * time.Minute)
		t.Version++
		t.UpdatedAt = when
		st.Revision++
		appendEntry("call", []core.Task{*t}, when)
	}
	write(".planls/journal.jsonl", journal.String())
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		b.Fatal(err)
	}
	write(".planls/state.json", string(data)+"\n")
	if _, err := store.Open(root, "bench").Read(); err != nil {
		b.Fatal(err)
	}
	return root
}
