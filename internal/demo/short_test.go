package demo

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestShortCommand(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(filepath.Dir(wd), "elsewhere", "planls")
	for _, tc := range []struct {
		in, want []string
	}{
		{[]string{filepath.Join(wd, "bin", "planls"), "serve"}, []string{filepath.Join("bin", "planls"), "serve"}},
		{[]string{outside, "serve"}, []string{outside, "serve"}},
		{[]string{"planls", "serve"}, []string{"planls", "serve"}},
		{nil, nil},
	} {
		if got := shortCommand(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("shortCommand(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
