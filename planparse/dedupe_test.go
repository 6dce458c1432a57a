package planparse

import (
	"strings"
	"testing"
	"unicode"
)

// TestDedupeKeyOnePass: the one-pass key is the subject with emphasis
// removed, lowered, and only its letters and digits kept, on ASCII,
// non-ASCII (a capital whose lower case is two runes), emphasis and
// invalid UTF-8.
func TestDedupeKeyOnePass(t *testing.T) {
	three := func(s string) string {
		return strings.Map(func(r rune) rune {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				return r
			}
			return -1
		}, strings.ToLower(removeEmphasis(s)))
	}
	for _, s := range []string{"", "Step 1.2: **Add** the `cache`_now_", "İstanbul ÀÉ ΣΑΣ Ⅻ ２３ 中文_x", "a\xffb\xe4\xb8c", "  ~~Done~~ (v2) ", "Ǆ ǅ ǆ ẞ ß"} {
		if got, want := dedupeKey(s), three(s); got != want {
			t.Errorf("dedupeKey(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestTrimSpace: trimSpace is strings.TrimFunc(s, jsSpace), its shortcut
// for ends that are plain ASCII included.
func TestTrimSpace(t *testing.T) {
	for _, s := range []string{"", "a", " a", "a ", "\ta\n", "\u00a0x\u00a0", "\ufeffx", "x\u0085", "\u0085", "\x01a\x7f", "é", " é ", "\u3000中\u3000", "\xff", "a\v"} {
		if got, want := trimSpace(s), strings.TrimFunc(s, jsSpace); got != want {
			t.Errorf("trimSpace(%q) = %q, want %q", s, got, want)
		}
	}
}
