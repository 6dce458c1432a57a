package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/planls/planls/core"
	"github.com/planls/planls/internal/gitclone"
	"github.com/planls/planls/store"
)

// A deferral notice is dropped only when the text carries the same item's
// deferral with the same reason.
func TestRedundantNotice(t *testing.T) {
	const say = "Tell the user this plan item is descoped and why: "
	notice := func(s string) core.Notice { return core.Notice{Level: "warning", Text: s} }
	for _, tc := range []struct {
		name, text string
		n          core.Notice
		want       bool
	}{
		{"single", "Updated #3 (pending → deferred). " + say + "CI is down",
			notice("Plan item deferred: #3 tests pass -- CI is down"), true},
		{"batch line", "Applied 2 ops\n[0] Updated #3 (pending → deferred). " + say + "x -- y\n[1] Created #4: z (pending)",
			notice("Plan item deferred: #3 a -- b -- x -- y"), true},
		{"other reason", "Applied 2 ops\n[0] Updated #3 (pending → deferred). " + say + "a\n[1] Updated #3",
			notice("Plan item deferred: #3 s -- b"), false},
		{"other item", "Updated #13 (pending → deferred). " + say + "r",
			notice("Plan item deferred: #3 s -- r"), false},
		{"no deferral line", "Updated #3", notice("Plan item deferred: #3 s -- r"), false},
		{"other notice", "Updated #3 (pending → deferred). " + say + "r", notice("something else -- r"), false},
		{"bad id", "Updated #x (pending → deferred). " + say + "r", notice("Plan item deferred: #x s -- r"), false},
	} {
		if got := redundantNotice(tc.text, tc.n); got != tc.want {
			t.Errorf("%s: redundantNotice = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// A quoted word reads back as itself in a POSIX shell.
func TestShellQuote(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"MTphNGMx", "MTphNGMx"},
		{"a=b,c/d.e:f@g+h%-_", "a=b,c/d.e:f@g+h%-_"},
		{"", "''"},
		{"two words", "'two words'"},
		{"it's", `'it'\''s'`},
		{"$HOME;rm", "'$HOME;rm'"},
	} {
		got := gitclone.ShellQuote(tc.in)
		if got != tc.want {
			t.Errorf("gitclone.ShellQuote(%q) = %q, want %q", tc.in, got, tc.want)
			continue
		}
		out, err := exec.Command("sh", "-c", "printf %s "+got).Output()
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != tc.in {
			t.Errorf("sh reads %q back as %q", got, out)
		}
	}
}

// The repair named depends on whether the state file is there; other
// errors get none.
func TestStateRepair(t *testing.T) {
	dir := t.TempDir()
	present := filepath.Join(dir, "state.json")
	if err := os.WriteFile(present, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{&store.StateError{Path: present, Line: 1, Col: 2, Msg: "truncated"}, repairDamaged},
		{fmt.Errorf("read: %w", &store.StateError{Path: present, Msg: "x"}), repairDamaged},
		{&store.StateError{Path: filepath.Join(dir, "gone.json"), Msg: "missing"}, repairMissing},
		{errors.New("lock held"), ""},
	} {
		if got := stateRepair(tc.err); got != tc.want {
			t.Errorf("stateRepair(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
	if got := stateHint(errors.New("x")); got != "" {
		t.Errorf("stateHint of a plain error = %q", got)
	}
}
