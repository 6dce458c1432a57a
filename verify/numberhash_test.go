package verify

import (
	"strconv"
	"strings"
	"testing"
)

// allDigits reports whether s is digits only.
func allDigits(s string) bool {
	return strings.Trim(s, "0123456789") == ""
}

// A commit whose abbreviated id is all digits verifies when evidence names
// it alone (real git: commits are made until one's 7-digit id is, about 1
// in 27); a number that is no commit stays weak evidence, and so does one
// a branch is named after (its tip's id does not start with it).
func TestAllDigitCommitIDs(t *testing.T) {
	g := newGitRepo(t)
	var id string
	for i := 0; i < 2000 && id == ""; i++ {
		c := g.commit("Step "+strconv.Itoa(i), "step.txt", strconv.Itoa(i)+"\n")
		if allDigits(c[:7]) {
			id = c
		}
	}
	if id == "" {
		t.Fatal("no commit with an all-digit 7-character id in 2000")
	}
	g.git("branch", "20261201")
	for _, tc := range []struct {
		name, evidence string
		want           State
		weak           bool
	}{
		{"7 digits", id[:7], Verified, false},
		{"7 digits in a sentence", "landed in " + id[:7] + ".", Verified, false},
		{"more digits", id[:7] + strings.TrimRight(id[7:12], "abcdef"), Verified, false},
		{"a number", "fixed 9876543 bugs", Unverifiable, true},
		{"a branch named like a date", "20261201", Unverifiable, true},
	} {
		res := verifyOne(t, g.dir, tc.evidence, Options{Plan: "PLAN.md"})
		if res.State != tc.want || res.Weak != tc.weak {
			t.Errorf("%s (%q): %s weak=%v (%s), want %s weak=%v", tc.name, tc.evidence, res.State, res.Weak, res.Reason, tc.want, tc.weak)
		}
		if tc.want == Verified && (len(res.Checks) == 0 || res.Checks[0].Commit == nil || res.Checks[0].Commit.ID != id) {
			t.Errorf("%s: checks %+v do not name commit %s", tc.name, res.Checks, id)
		}
	}
}
