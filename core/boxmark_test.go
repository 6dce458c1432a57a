package core

import "testing"

func TestUnticked(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"- [x] Ship it", "- [ ] Ship it"},
		{"- [X] Ship it", "- [ ] Ship it"},
		{"  * [~] in progress", "  * [ ] in progress"},
		{"+ [-] dropped", "+ [ ] dropped"},
		{"12. [x] numbered", "12. [ ] numbered"},
		{"3) [>] started", "3) [ ] started"},
		{"> - [x] quoted", "> - [ ] quoted"},
		{"- [x]* optional (Kiro)", "- [ ]* optional (Kiro)"},
		{"[x] plain text line", "[ ] plain text line"},
		{"- [x]", "- [ ]"},
		{"- [x]\r", "- [ ]\r"},
		{"- [ ] open already", "- [ ] open already"},
		{"-[x] no space after the marker", "-[x] no space after the marker"},
		{"- [x]done (no space after the box)", "- [x]done (no space after the box)"},
		{"- [q] not a box mark", "- [q] not a box mark"},
		{"- text [x] mid-line", "- text [x] mid-line"},
		{"- [link](x)", "- [link](x)"},
		{"1234567890. [x] too long to be a number", "1234567890. [x] too long to be a number"},
		{"", ""},
	} {
		if got := string(unticked([]byte(c.in))); got != c.want {
			t.Errorf("unticked(%q) = %q, want %q", c.in, got, c.want)
		}
		if got := untickedLines(c.in); got != c.want {
			t.Errorf("untickedLines(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	src := "# P\n- [x] a\n  - [X] b\ntext [x]\n- [ ] c"
	want := "# P\n- [ ] a\n  - [ ] b\ntext [x]\n- [ ] c"
	if got := string(untickedText([]byte(src))); got != want {
		t.Errorf("untickedText = %q, want %q", got, want)
	}
	if got := untickedLines(src); got != want {
		t.Errorf("untickedLines = %q, want %q", got, want)
	}
}

// TestTextChangedTicks pins that a state approved before box marks were
// read as open still compares equal to its own text, and that the marks
// are the only thing ignored.
func TestTextChangedTicks(t *testing.T) {
	approved := []byte("# P\n\n- [x] a\n- [ ] b\n")
	old := &PlanRef{ID: PlanID(approved), TextID: textIDOf(approved, true, false)}
	cur := &PlanRef{ID: PlanID(approved), TextID: textID(approved)}
	for _, ref := range []*PlanRef{old, cur} {
		if TextChanged(approved, ref) {
			t.Errorf("TextChanged(approved text, %+v) = true", ref)
		}
	}
	ticked := []byte("# P\n\n- [x] a\n- [x] b\n")
	if TextChanged(ticked, cur) {
		t.Error("ticking a box changed the text")
	}
	if edited := []byte("# P\n\n- [x] a\n- [x] b!\n"); !TextChanged(edited, cur) {
		t.Error("an edit beside a tick is not a change")
	}
}
