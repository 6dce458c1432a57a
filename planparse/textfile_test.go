package planparse

import "testing"

func TestCapitals(t *testing.T) {
	for _, c := range []struct {
		in   string
		want bool
	}{
		{"POSSIBLE MAJOR DEVELOPMENTS", true},
		{"SOME OTHER SUGGESTIONS: not all may be sensible.", false},
		{"TODO", true},
		{"CI", false}, // too short to be a label by its case alone
		{"R 3.1.2", false},
		{"rotate the API keys", false},
		{"", false},
	} {
		if got := capitals(c.in); got != c.want {
			t.Errorf("capitals(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}
