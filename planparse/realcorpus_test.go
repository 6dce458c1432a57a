package planparse

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The labelled corpus in testdata/corpus holds plans written for this
// repository in the layouts planls must read (coding agents' own plan
// formats and ordinary plans); testdata/corpus/README.md says how a plan
// is labelled. TestCorpusScore reads each one as `planls approve` does and
// holds the reader to the thresholds below, so the numbers that decide a
// reading rule are in the repository.
const (
	corpusMinPrecision = 0.97 // over all items found
	corpusMinRecall    = 0.97 // over all labelled items
	corpusMinPlanMean  = 0.95 // mean of each plan's precision, and of each plan's recall
	corpusMinPlans     = 140
	corpusLowPlan      = 0.5 // no plan may read below this, in precision or recall
)

// corpusMark ends a line that starts a plan item; the test removes it (and
// the space before it) before reading the plan.
const corpusMark = " ◀"

// labelledPlan is a corpus plan: its text without marks, and the 1-based
// lines of its items.
type labelledPlan struct {
	name  string
	src   []byte
	lines map[int]bool
}

func loadCorpus(t testing.TB) []labelledPlan {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "testdata", "corpus", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	var out []labelledPlan
	for _, f := range files {
		if filepath.Base(f) == "README.md" {
			continue
		}
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lp := labelledPlan{name: strings.TrimSuffix(filepath.Base(f), ".md"), lines: map[int]bool{}}
		var b bytes.Buffer
		sc := bufio.NewScanner(bytes.NewReader(raw))
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for n := 1; sc.Scan(); n++ {
			line := sc.Text()
			if strings.HasSuffix(line, corpusMark) {
				line = strings.TrimSuffix(line, corpusMark)
				lp.lines[n] = true
			}
			b.WriteString(line)
			b.WriteByte('\n')
		}
		lp.src = b.Bytes()
		out = append(out, lp)
	}
	return out
}

// score is one plan's reading against its labels.
type score struct {
	found, labelled, right int
	wrong, missed          []int
}

func (s score) precision() float64 {
	if s.found == 0 {
		return 1
	}
	return float64(s.right) / float64(s.found)
}

func (s score) recall() float64 {
	if s.labelled == 0 {
		return 1
	}
	return float64(s.right) / float64(s.labelled)
}

func scorePlan(lp labelledPlan) score {
	p := Parse(lp.src)
	s := score{labelled: len(lp.lines)}
	seen := map[int]bool{}
	for _, it := range p.Items {
		n := bytes.Count(lp.src[:it.Line.Start], []byte{'\n'}) + 1
		s.found++
		if lp.lines[n] && !seen[n] {
			s.right++
			seen[n] = true
		} else {
			s.wrong = append(s.wrong, n)
		}
	}
	for n := range lp.lines {
		if !seen[n] {
			s.missed = append(s.missed, n)
		}
	}
	sort.Ints(s.missed)
	return s
}

// TestCorpusScore: precision, recall and the per-plan means over the
// labelled corpus, with no plan below corpusLowPlan and none read as empty
// (approve would refuse it). `go test -run TestCorpusScore -v` prints each
// plan's numbers and its wrong and missed lines.
func TestCorpusScore(t *testing.T) {
	plans := loadCorpus(t)
	if len(plans) < corpusMinPlans {
		t.Errorf("the corpus has %d plans, want at least %d", len(plans), corpusMinPlans)
	}
	var found, labelled, right int
	var sumP, sumR float64
	for _, lp := range plans {
		s := scorePlan(lp)
		found, labelled, right = found+s.found, labelled+s.labelled, right+s.right
		sumP, sumR = sumP+s.precision(), sumR+s.recall()
		t.Logf("%-44s found %3d labelled %3d right %3d  P %.2f R %.2f  wrong %v missed %v",
			lp.name, s.found, s.labelled, s.right, s.precision(), s.recall(), s.wrong, s.missed)
		if s.found == 0 && s.labelled > 0 {
			t.Errorf("%s: no items (approve would refuse it), want %d", lp.name, s.labelled)
		}
		if min(s.precision(), s.recall()) < corpusLowPlan {
			t.Errorf("%s: precision %.2f recall %.2f, below %.2f", lp.name, s.precision(), s.recall(), corpusLowPlan)
		}
	}
	n := float64(len(plans))
	P, R := float64(right)/float64(max(found, 1)), float64(right)/float64(max(labelled, 1))
	mp, mr := sumP/n, sumR/n
	t.Logf("corpus: %d plans, precision %.3f recall %.3f (found %d, labelled %d, right %d), per-plan mean %.3f / %.3f",
		len(plans), P, R, found, labelled, right, mp, mr)
	if P < corpusMinPrecision || R < corpusMinRecall {
		t.Errorf("corpus precision %.3f recall %.3f, want at least %.2f / %.2f", P, R, corpusMinPrecision, corpusMinRecall)
	}
	if mp < corpusMinPlanMean || mr < corpusMinPlanMean {
		t.Errorf("corpus per-plan mean %.3f / %.3f, want at least %.2f", mp, mr, corpusMinPlanMean)
	}
}

// TestCorpusMarks: every mark is on a line a plan item can start on, so a
// typo in the corpus fails here and not as a lower score.
func TestCorpusMarks(t *testing.T) {
	for _, lp := range loadCorpus(t) {
		lines := strings.Split(string(lp.src), "\n")
		for n := range lp.lines {
			if n > len(lines) || strings.TrimSpace(lines[n-1]) == "" {
				t.Errorf("%s:%d: mark on a blank line", lp.name, n)
			}
		}
	}
}

// TestMustStayWork: each ordinary task heading of
// testdata/corpus/must-stay-work.txt names work wherever it stands: over
// bullets they are items, over prose the heading is one, and next to a
// context section it is not skipped with it.
func TestMustStayWork(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "testdata", "corpus", "must-stay-work.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var n int
	for _, h := range strings.Split(string(raw), "\n") {
		h = strings.TrimSpace(h)
		if h == "" || strings.HasPrefix(h, "#") {
			continue
		}
		n++
		plans := map[string]int{
			fmt.Sprintf("# Plan\n\n## Summary\nWhy we do it.\n\n## %s\n- first change\n- second change\n", h):   2,
			fmt.Sprintf("# Plan\n\n## %s\nOne paragraph that describes the work.\n\n## Other\n- a bullet\n", h): 2,
			fmt.Sprintf("# Plan\n\n## Tasks\n### %s\n- the first step\n- the second step\n", h):                 2,
		}
		for src, want := range plans {
			if got := len(Parse([]byte(src)).Items); got != want {
				t.Errorf("%q: %d items, want %d in\n%s", h, got, want, src)
			}
		}
	}
	if n < 40 {
		t.Errorf("must-stay-work.txt has %d headings, want at least 40", n)
	}
}
