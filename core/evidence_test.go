package core

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// refString renders a reference compactly for the table below.
func refString(r EvidenceRef) string {
	switch r.Kind {
	case RefCommit:
		return "commit " + r.Commit
	case RefFile:
		s := "file " + r.Path
		if r.Line > 0 {
			s += fmt.Sprintf(" line %d", r.Line)
		}
		if r.EndLine > 0 {
			s += fmt.Sprintf("-%d", r.EndLine)
		}
		return s
	case RefTest:
		if r.Path != "" {
			return "test " + r.Path + " " + r.Test
		}
		return "test " + r.Test
	case RefCommand:
		return fmt.Sprintf("command %q result %q exit %d", r.Command, r.Result, r.Exit)
	case RefURL:
		return "url " + r.URL
	}
	return "?"
}

func TestParseEvidence(t *testing.T) {
	tests := []struct {
		evidence string
		want     []string
	}{
		// Weak: nothing checkable.
		{"done", nil},
		{"ok", nil},
		{"fixed", nil},
		{"works now", nil},
		{"Fixed it, works now; tested manually and/or by hand.", nil},
		{"完成了，已经可以用了", nil},
		{"erledigt, funktioniert jetzt", nil},
		{"see PR #42", nil},
		{"v1.2.3 released, e.g. on 2026-01-01 at 10:30", nil},
		{"Node.js upgraded", nil},
		{"defaced 1234567 rows", nil}, // all-letter and all-digit hex without "commit" before
		{"ran ./... locally", nil},

		// Commits.
		{"abc1234", []string{"commit abc1234"}},
		{"commit 1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b", []string{"commit 1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b"}},
		{"landed in ABC1234F.", []string{"commit abc1234f"}},
		{"commit deadbeef", []string{"commit deadbeef"}},
		{"commit: 1234567", []string{"commit 1234567"}},
		{"`deadbeef`", []string{"commit deadbeef"}},
		{"abc123 is too short", nil},
		{"提交abc1234f，测试通过", []string{"commit abc1234f"}},
		{"コミット 9f8e7d6 で修正", []string{"commit 9f8e7d6"}},
		{"исправлено в 4e5f6a7b", []string{"commit 4e5f6a7b"}},

		// Files.
		{"internal/ratelimit/bucket_test.go", []string{"file internal/ratelimit/bucket_test.go"}},
		{"see core/evidence.go:42.", []string{"file core/evidence.go line 42"}},
		{"core/evidence.go:42:7", []string{"file core/evidence.go line 42"}},
		{"docs/AGENTS.md#L10-L20", []string{"file docs/AGENTS.md line 10-20"}},
		{"lsp/hover.go:10-20", []string{"file lsp/hover.go line 10-20"}},
		{"README.md updated", []string{"file README.md"}},
		{"Makefile", []string{"file Makefile"}},
		{"./scripts/", []string{"file ./scripts/"}},
		{"`docs/Design Notes.md`", []string{"file docs/Design Notes.md"}},
		{"`docs/Design Notes.md:3`", []string{"file docs/Design Notes.md line 3"}},
		{`C:\Users\Me\proj\main.go:12`, []string{`file C:\Users\Me\proj\main.go line 12`}},
		{"`C:\\Users\\Me\\My Project\\main.go`", []string{`file C:\Users\Me\My Project\main.go`}},
		{`internal\rate\bucket.go`, []string{`file internal\rate\bucket.go`}},
		{"`editors/nvim`", []string{"file editors/nvim"}},
		{"文档见 `docs/设计.md`", []string{"file docs/设计.md"}},

		// Tests.
		{"TestParseEvidence passes", []string{"test TestParseEvidence"}},
		{"TestParse/empty_input", []string{"test TestParse/empty_input"}},
		{"pkg/foo_test.go:TestBar", []string{"test pkg/foo_test.go TestBar"}},
		{"`core/evidence_test.go::TestParseEvidence`", []string{"test core/evidence_test.go TestParseEvidence"}},
		{"BenchmarkVerify, FuzzParse", []string{"test BenchmarkVerify", "test FuzzParse"}},
		{"Testing is fun", nil},

		// Commands.
		{"`go test ./...` passes", []string{`command "go test ./..." result "passes" exit 0`}},
		{"`go test ./...`: ok", []string{`command "go test ./..." result "ok" exit 0`}},
		{"`npm test` → 42 passed, 0 failed", []string{`command "npm test" result "42 passed, 0 failed" exit 0`}},
		{"`make lint` fails with 3 errors", []string{`command "make lint" result "fails with 3 errors" exit -1`}},
		{"`./scripts/check.sh --fast` exits 2", []string{`command "./scripts/check.sh --fast" result "exits 2" exit 2`}},
		{"`make`", []string{`command "make" result "" exit 0`}},
		{"``go test -run 'Test`x`' ./core`` passes", []string{"command \"go test -run 'Test`x`' ./core\" result \"passes\" exit 0"}},
		{"npm test: 42 passed", []string{`command "npm test" result "42 passed" exit 0`}},
		{"go build ok", []string{`command "go build" result "ok" exit 0`}},
		{"make test passes.", []string{`command "make test" result "passes" exit 0`}},
		{"go is great", nil},
		{"make coffee", nil},
		{"go test ./...", []string{`command "go test ./..." result "" exit 0`}},
		{"ran it; npm test", []string{`command "npm test" result "" exit 0`}},
		{"go test -race ./core.", []string{`command "go test -race ./core" result "" exit 0`}},
		{"vitest: 3 passed", []string{`command "vitest" result "3 passed" exit 0`}},
		{"go test ./parse: ok", []string{`command "go test ./parse" result "ok" exit 0`}},
		{"Fixed. go vet ./... → clean", []string{`command "go vet ./..." result "clean" exit 0`}},
		{"`go test ./...` 通过。", []string{`command "go test ./..." result "通过" exit 0`}},
		{"`ParseEvidence`", nil}, // an identifier, not a command
		{"`x`", nil},

		// URLs.
		{"https://github.com/planls/planls/pull/12", []string{"url https://github.com/planls/planls/pull/12"}},
		{"(see https://example.com/a_(b)).", []string{"url https://example.com/a_(b)"}},
		{"CI: https://ci.example.com/run/7.", []string{"url https://ci.example.com/run/7"}},

		// Several at once, in order.
		{"abc1234: `go test ./core` passes, core/evidence_test.go:TestParseEvidence",
			[]string{"commit abc1234", `command "go test ./core" result "passes" exit 0`, "test core/evidence_test.go TestParseEvidence"}},
		{"Commit 0f1e2d3 fixes lsp/hover.go:88; see https://x.test/1",
			[]string{"commit 0f1e2d3", "file lsp/hover.go line 88", "url https://x.test/1"}},
	}
	for _, tc := range tests {
		var got []string
		for _, r := range ParseEvidence(tc.evidence) {
			got = append(got, refString(r))
			if tc.evidence[r.Start:r.End] != r.Text {
				t.Errorf("%q: ref %s: Text %q is not evidence[%d:%d]", tc.evidence, refString(r), r.Text, r.Start, r.End)
			}
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseEvidence(%q)\n got %q\nwant %q", tc.evidence, got, tc.want)
		}
		if weak := WeakEvidence(tc.evidence); weak != (tc.want == nil) {
			t.Errorf("WeakEvidence(%q) = %v", tc.evidence, weak)
		}
	}
}

func TestWeakEvidenceBlank(t *testing.T) {
	for _, s := range []string{"", "  ", "\n\t"} {
		if WeakEvidence(s) {
			t.Errorf("WeakEvidence(%q) = true: blank evidence is missing, not weak", s)
		}
	}
}

func TestWeakEvidenceMessage(t *testing.T) {
	got := WeakEvidenceMessage(3, "done\nreally")
	want := `plan item #3 is completed with weak evidence "done really": it names no commit, file, test, command with its result or URL that can be checked`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// FuzzParseEvidence holds the parser to its contract on any input: no
// panic, references in order, each Text the bytes it covers.
func FuzzParseEvidence(f *testing.F) {
	for _, s := range []string{"abc1234", "`go test` ok", "a/b.go:1", "``x`", "https://x/(", "提交abc1234f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		last := -1
		for _, r := range ParseEvidence(s) {
			if r.Start < last || r.End > len(s) || r.Start >= r.End || s[r.Start:r.End] != r.Text {
				t.Fatalf("bad ref %+v in %q", r, s)
			}
			last = r.Start
			if strings.TrimSpace(r.Text) == "" {
				t.Fatalf("empty ref %+v in %q", r, s)
			}
		}
	})
}

// BenchmarkWeakEvidence is the per-item cost of the weak-evidence check on
// typical evidence strings (the language server runs it for every
// completed item of the plan on each rebuild of its diagnostics).
func BenchmarkWeakEvidence(b *testing.B) {
	samples := []string{"done", "abc1234: `go test ./...` passes", "npm test: 42 passed",
		"see internal/ratelimit/bucket.go:42 and TestBucketRefill", "works now, tested manually on staging"}
	for b.Loop() {
		for _, s := range samples {
			WeakEvidence(s)
		}
	}
}

// BenchmarkParseEvidenceHuge: 200 KB of evidence made of unclosed backtick
// runs of growing length and all-letter hex words, the inputs that made an
// earlier version quadratic. It must stay linear (tens of ms here).
func BenchmarkParseEvidenceHuge(b *testing.B) {
	var s strings.Builder
	for i := 1; s.Len() < 100_000; i++ {
		s.WriteString(strings.Repeat("`", i) + " x ")
	}
	for s.Len() < 200_000 {
		s.WriteString("deadbeef ")
	}
	ev := s.String()
	for b.Loop() {
		ParseEvidence(ev)
	}
}

// Candidates are the unmixed hex tokens ParseEvidence leaves out (a
// number, a word), each as the commit it would be; a token another
// reference takes, one glued to a non-CJK word, or one the word commit
// already announces is no candidate.
func TestParseEvidenceCandidates(t *testing.T) {
	for _, tc := range []struct {
		evidence string
		refs     int
		cands    []string
	}{
		{"1234567", 0, []string{"1234567"}},
		{"landed in 1234567, see parse.go:3", 1, []string{"1234567"}},
		{"deadbee and 20261201", 0, []string{"deadbee", "20261201"}},
		{"commit 1234567", 1, nil},
		{"abc1234", 1, nil},
		{"fixed 42 bugs", 0, nil},
		{"parse.go:1234567", 1, nil},
		{"`1234567`", 1, nil},
		{"é1234567", 0, nil},
	} {
		refs, cands := ParseEvidenceCandidates(tc.evidence)
		var got []string
		for _, c := range cands {
			if c.Kind != RefCommit || tc.evidence[c.Start:c.End] != c.Text || c.Commit != strings.ToLower(c.Text) {
				t.Errorf("%q: candidate %+v", tc.evidence, c)
			}
			got = append(got, c.Commit)
		}
		if len(refs) != tc.refs || !slices.Equal(got, tc.cands) {
			t.Errorf("%q: %d refs, candidates %q; want %d, %q", tc.evidence, len(refs), got, tc.refs, tc.cands)
		}
		if !reflect.DeepEqual(refs, ParseEvidence(tc.evidence)) {
			t.Errorf("%q: refs differ from ParseEvidence", tc.evidence)
		}
	}
}
