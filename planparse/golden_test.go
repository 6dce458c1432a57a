package planparse

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite golden files in ../testdata/planparse")

// goldenPlan is the stable, reviewable form of a Plan: ranges are shown as
// the source text they cover, so a golden reads like the plan itself.
type goldenPlan struct {
	Title     string          `json:"title"`
	TitleText string          `json:"titleText,omitempty"`
	Headings  []goldenHeading `json:"headings,omitempty"`
	Items     []goldenItem    `json:"items"`
	Problems  []goldenProblem `json:"problems,omitempty"`
}

type goldenHeading struct {
	Level   int    `json:"level"`
	Text    string `json:"text"`
	Skipped bool   `json:"skipped,omitempty"`
	Range   string `json:"range"`
}

type goldenItem struct {
	Scope    []string `json:"scope,omitempty"`
	Group    string   `json:"group"`
	Subject  string   `json:"subject"`
	PlanText string   `json:"planText,omitempty"`
	Checkbox string   `json:"checkbox,omitempty"`
	Section  bool     `json:"section,omitempty"`
	Line     string   `json:"line"`
	Block    string   `json:"block"`
}

type goldenProblem struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Text    string `json:"text"`
}

// rangeText is the source text of r with line endings shown as "\n", so that
// LF, CRLF and lone-CR variants of one input render alike.
func rangeText(src []byte, r Range) string {
	s := string(src[r.Start:r.End])
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\r", "\n")
}

func toGolden(src []byte, p *Plan) goldenPlan {
	g := goldenPlan{Title: p.Title, TitleText: rangeText(src, p.TitleRange), Items: []goldenItem{}}
	for _, h := range p.Headings {
		g.Headings = append(g.Headings, goldenHeading{h.Level, h.Text, h.Skipped, rangeText(src, h.Range)})
	}
	for _, it := range p.Items {
		cb := map[Checkbox]string{NoCheckbox: "", Unchecked: "unchecked", Checked: "checked"}[it.Checkbox]
		g.Items = append(g.Items, goldenItem{it.Scope, it.Group, it.Subject, it.PlanText, cb, it.Section,
			rangeText(src, it.Line), rangeText(src, it.Block)})
	}
	for _, pr := range p.Problems {
		g.Problems = append(g.Problems, goldenProblem{pr.Code, pr.Message, rangeText(src, pr.Range)})
	}
	return g
}

func marshalGolden(t *testing.T, g goldenPlan) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(g); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// lineEndingVariants returns src with every "\n" turned into "\r\n" and into
// "\r" (rule 8: all three are line endings).
func lineEndingVariants(src []byte) map[string][]byte {
	return map[string][]byte{
		"CRLF": bytes.ReplaceAll(src, []byte("\n"), []byte("\r\n")),
		"CR":   bytes.ReplaceAll(src, []byte("\n"), []byte("\r")),
	}
}

// checkInvariants checks what must hold for every plan: ranges inside the
// input and on rune boundaries, Line and SubjectRange within Block, the
// subject being the text at SubjectRange.
func checkInvariants(t *testing.T, src []byte, p *Plan) {
	t.Helper()
	check := func(what string, r Range) {
		if r.Start < 0 || r.End > len(src) || r.Start > r.End {
			t.Fatalf("%s range %v outside input of %d bytes", what, r, len(src))
		}
		if splitsRune(src, r.Start) || splitsRune(src, r.End) {
			t.Fatalf("%s range %v splits a UTF-8 sequence", what, r)
		}
	}
	within := func(what string, in, out Range) {
		if in.Start < out.Start || in.End > out.End {
			t.Fatalf("%s %v not within %v", what, in, out)
		}
	}
	check("title", p.TitleRange)
	for _, h := range p.Headings {
		check("heading", h.Range)
	}
	for i, it := range p.Items {
		check("block", it.Block)
		check("line", it.Line)
		check("subject", it.SubjectRange)
		within("line", it.Line, it.Block)
		within("subject", it.SubjectRange, it.Block)
		if got := string(src[it.SubjectRange.Start:it.SubjectRange.End]); got != it.Subject && !strings.ContainsAny(got, "\r\n") {
			t.Fatalf("item %d: subject %q but SubjectRange holds %q", i, it.Subject, got)
		}
		if it.Subject == "" {
			t.Fatalf("item %d has an empty subject", i)
		}
	}
	for _, pr := range p.Problems {
		check("problem", pr.Range)
	}
}

// splitsRune reports whether offset o falls inside a valid multi-byte UTF-8
// sequence of src.
func splitsRune(src []byte, o int) bool {
	for s := o - 1; s >= 0 && s > o-4; s-- {
		c := src[s]
		if c < 0x80 {
			return false
		}
		if c >= 0xC0 {
			n := 2
			if c >= 0xE0 {
				n = 3
			}
			if c >= 0xF0 {
				n = 4
			}
			if s+n <= o || s+n > len(src) {
				return false
			}
			for k := s + 1; k < s+n; k++ {
				if src[k]&0xC0 != 0x80 {
					return false
				}
			}
			return true
		}
	}
	return false
}

func TestGoldenFixtures(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "planparse", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no fixtures")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var input, want []byte
			wantAt := -1
			for i, f := range ar.Files {
				switch f.Name {
				case "input.md":
					input = f.Data
				case "want.json":
					want, wantAt = f.Data, i
				}
			}
			if input == nil {
				t.Fatal("fixture has no input.md")
			}
			plan := Parse(input)
			checkInvariants(t, input, plan)
			got := marshalGolden(t, toGolden(input, plan))
			if *update {
				if wantAt < 0 {
					ar.Files = append(ar.Files, txtar.File{Name: "want.json"})
					wantAt = len(ar.Files) - 1
				}
				ar.Files[wantAt].Data = got
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if !bytes.Equal(got, want) {
				t.Errorf("plan differs from want.json (run go test -update to accept):\n--- got\n%s--- want\n%s", got, want)
			}
			for name, v := range lineEndingVariants(input) {
				vp := Parse(v)
				checkInvariants(t, v, vp)
				if vg := marshalGolden(t, toGolden(v, vp)); !bytes.Equal(vg, got) {
					t.Errorf("%s variant differs from the LF plan:\n--- %s\n%s--- LF\n%s", name, name, vg, got)
				}
			}
		})
	}
}
