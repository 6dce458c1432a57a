package planparse

import (
	"bytes"
	"testing"
)

// FuzzParse: Parse never panics; it equals parseWhole (reparse is exact); every range lies inside the input, on UTF-8
// boundaries, with Line and SubjectRange within Block; and the CRLF and
// lone-CR variants of an LF input give the same plan with ranges over the
// same text.
func FuzzParse(f *testing.F) {
	for _, src := range corpus(f) {
		// Large seeds make the fuzzer spend its time minimizing them.
		if len(src) <= 4096 {
			f.Add(src)
		}
	}
	for _, s := range []string{"", "\xEF\xBB\xBF# t\n- a\n", "---\na: b\n---\n- x\n", "- - - - - - - - - - - - - x\ny\n",
		"> > > > > > > > > > > > - x\n", "- a\n```\n", "\x00\xff- \x80\n", "-\t[x]\tb\n\tc\n", "1)\n2.\t\n  x\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		p := Parse(src)
		checkInvariants(t, src, p)
		if !samePlan(p, parseWhole(src)) {
			t.Fatalf("segment re-parse differs from the whole-document parse")
		}
		if bytes.IndexByte(src, '\r') >= 0 {
			return
		}
		want := marshalGolden(t, toGolden(src, p))
		for name, v := range lineEndingVariants(src) {
			vp := Parse(v)
			checkInvariants(t, v, vp)
			if got := marshalGolden(t, toGolden(v, vp)); !bytes.Equal(got, want) {
				t.Fatalf("%s variant differs:\n--- %s\n%s--- LF\n%s", name, name, got, want)
			}
		}
	})
}
