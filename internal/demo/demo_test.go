package demo

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/planls/planls/lsp"
)

// TestMain lets the test binary act as `planls serve` for tests that need
// a real child process over stdio (the demo).
func TestMain(m *testing.M) {
	if os.Getenv("PLANLS_TEST_SERVE") == "1" {
		err := lsp.Run(context.Background(), os.Stdin, os.Stdout, slog.New(slog.NewTextHandler(os.Stderr, nil)))
		if err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestDemoOutput(t *testing.T) {
	t.Setenv("PLANLS_TEST_SERVE", "1")
	var out, errb bytes.Buffer
	err := Demo(t.Context(), Options{Plan: basicPlan(t), Server: []string{os.Args[0]}, Out: &out, Stderr: &errb,
		Evidence: "go test ./internal/ratelimit: ok"})
	if err != nil {
		t.Fatalf("demo: %v\n%s\nserver stderr:\n%s", err, out.String(), errb.String())
	}
	got := out.String()
	for _, want := range []string{
		"initialize: planls dev, positions in utf-16, commands: planls.complete, planls.defer, planls.start, planls.reopen, planls.approve, planls.todo\n",
		"Before approval:\n  PLAN.md:1:1  plan \"Add per-client rate limiting to the ingest API\" is not approved: approve it to track its 7 items\n",
		"Code action \"Approve plan\" → planls.approve\n",
		"After approval: 7 open plan items\n  PLAN.md:8:1  open plan item #1 (pending): Add internal/ratelimit with a token bucket keyed by API key\n",
		"Code actions on line 8:\n  Complete #1…  (planls.complete)\n  Defer #1…  (planls.defer)\n  Start #1  (planls.start)\n",
		"planls.complete with evidence \"go test ./internal/ratelimit: ok\":\n",
		"After: 6 open plan items\n  PLAN.md:11:1  open plan item #2 (pending): ",
		"\nok: ",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q\n--- output:\n%s", want, got)
		}
	}
	if n := len(regexp.MustCompile(`(?m)^  PLAN\.md:\d+:\d+  open plan item #\d+ \(pending\): `).FindAllString(got, -1)); n != 7+6 {
		t.Errorf("%d open-item lines, want 13", n)
	}
}

// A server that dies makes the demo fail (non-zero exit in the CLI).
func TestDemoFailsWithBrokenServer(t *testing.T) {
	falseBin, err := exec.LookPath("false")
	if err != nil {
		t.Skip("no false(1)")
	}
	var out bytes.Buffer
	err = Demo(t.Context(), Options{Plan: []byte("# P\n- a\n"), Server: []string{falseBin}, Out: &out, Timeout: 5e8})
	if err == nil {
		t.Fatal("demo against a dead server succeeded")
	}
	if errors.Is(err, context.Canceled) {
		t.Fatalf("unexpected cancel: %v", err)
	}
}

// A plan without items fails clearly instead of waiting: the server
// refuses to approve a plan with nothing to track.
func TestDemoPlanWithoutItems(t *testing.T) {
	t.Setenv("PLANLS_TEST_SERVE", "1")
	var out bytes.Buffer
	err := Demo(t.Context(), Options{Plan: []byte("# Just a title\n\nSome prose.\n"), Server: []string{os.Args[0]}, Out: &out})
	if err == nil || !strings.Contains(err.Error(), "has nothing planls tracks as work") {
		t.Errorf("demo of an empty plan: %v\n%s", err, out.String())
	}
}

func basicPlan(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/basic.md")
	if err != nil {
		t.Fatal(err)
	}
	return b
}
