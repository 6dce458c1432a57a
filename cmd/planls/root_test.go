package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// A command's runtime failure is exit 2 without a usage hint; a code a
// command chose is kept.
func TestWrapRunE(t *testing.T) {
	root := &cobra.Command{Use: "x", SilenceErrors: true, SilenceUsage: true}
	root.AddCommand(
		&cobra.Command{Use: "boom", RunE: func(*cobra.Command, []string) error { return errors.New("boom") }},
		&cobra.Command{Use: "one", RunE: func(*cobra.Command, []string) error { return silentExit(exitRejected) }},
		&cobra.Command{Use: "ok", RunE: func(*cobra.Command, []string) error { return nil }},
	)
	wrapRunE(root)
	for _, tc := range []struct {
		arg  string
		code int
	}{{"boom", exitError}, {"one", exitRejected}, {"ok", exitOK}} {
		root.SetArgs([]string{tc.arg})
		err := root.Execute()
		var ee *exitErr
		switch {
		case tc.code == exitOK && err != nil:
			t.Errorf("%s: %v", tc.arg, err)
		case tc.code != exitOK && (!errors.As(err, &ee) || ee.code != tc.code):
			t.Errorf("%s: %v, want exit %d", tc.arg, err, tc.code)
		}
	}
}

func TestRunIOUsageHint(t *testing.T) {
	var out, errw bytes.Buffer
	if code := runIO([]string{"nope"}, strings.NewReader(""), &out, &errw); code != exitError {
		t.Errorf("exit %d", code)
	}
	if want := "Error: unknown command \"nope\" for \"planls\"\nRun 'planls --help' for usage.\n"; errw.String() != want || out.Len() != 0 {
		t.Errorf("stderr %q stdout %q", errw.String(), out.String())
	}
}

// check --help names every rule its formats emit (the SARIF rules), so a
// user can look any finding up.
func TestCheckHelpNamesEveryRule(t *testing.T) {
	help := newCheckCmd().Long
	for _, r := range sarifRules() {
		if !strings.Contains(help, r.ID) {
			t.Errorf("check --help does not name rule %s", r.ID)
		}
	}
	for _, s := range []string{"ticked", "fails verification"} {
		if !strings.Contains(help, s) {
			t.Errorf("check --help's hook paragraph does not say it blocks when evidence %q", s)
		}
	}
}
