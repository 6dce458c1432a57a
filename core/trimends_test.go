package core

import "testing"

func TestTrimLineEnds(t *testing.T) {
	for in, want := range map[string]string{
		"":                "",
		"a":               "a",
		"a \n b\t\n c  ":  "a\n b\n c",
		"\n x \n":         "\n x\n",
		"  \n\t\n":        "\n\n",
		"no trailing\nok": "no trailing\nok",
	} {
		if got := trimLineEnds(in); got != want {
			t.Errorf("trimLineEnds(%q) = %q, want %q", in, got, want)
		}
	}
}
