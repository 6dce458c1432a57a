package planparse

import "testing"

func TestSentenceCount(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
	}{
		{"", 0},
		{"Fix the login redirect", 1},
		{"Fix the login redirect.", 1},
		{"Both came from support. Sam has the details.", 2},
		{"Both came from support. Sam has the details", 2},
		{"See e.g. the docs for the flags", 1},
		{"Is it safe? Yes, behind the flag!", 2},
		{"version 2.4.1 ships today", 1},
		{"考え直すことにした。以下の要素が必要だ。", 2},
		{"誰に向けて書いているかを明確にしておく", 1},
		{"   ", 0},
	} {
		if got := sentenceCount(c.in); got != c.want {
			t.Errorf("sentenceCount(%q) = %d, want %d", c.in, got, c.want)
		}
	}
}
