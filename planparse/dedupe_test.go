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

// TestKeyPrefix: the prefix read without the key is the prefix of the
// key, for dedupeKey and for stepKey (the step number left out), so a
// set's prefixes never rule out a key it holds; and the keys of these
// subjects, which differ in their first 8 bytes, have different prefixes.
func TestKeyPrefix(t *testing.T) {
	subjects := []string{"", "Step 1.2: **Add** the `cache`_now_", "İstanbul ÀÉ ΣΑΣ Ⅻ ２３ 中文_x", "a\xffb\xe4\xb8c",
		"  ~~Done~~ (v2) ", "Ǆ ǅ ǆ ẞ ß", "1. Add the cache", "12) 3 ways", "Add the cache", "１. full-width one"}
	seen := map[uint64]string{}
	for _, s := range subjects {
		if got, want := keyPrefix(s, false), keyPrefix(dedupeKey(s), false); got != want {
			t.Errorf("keyPrefix(%q) = %x, the key %q has %x", s, got, dedupeKey(s), want)
		}
		if got, want := keyPrefix(s, true), keyPrefix(stepKey(s), false); got != want {
			t.Errorf("keyPrefix(%q, step) = %x, the step key %q has %x", s, got, stepKey(s), want)
		}
		for _, k := range []string{dedupeKey(s), stepKey(s)} {
			if other, ok := seen[keyPrefix(k, false)]; ok && other != k {
				t.Errorf("keys %q and %q have one prefix", k, other)
			}
			seen[keyPrefix(k, false)] = k
		}
	}
	var set keySet
	set.add(stepKey("1. Add the cache"))
	if !set.mayHold("Add the cache", true) || !set.mayHold("**2.** add THE cache", true) || set.mayHold("Add a cache", true) {
		t.Error("keySet.mayHold: a step key in the set was ruled out, or another let in")
	}
	set.add("")
	if len(set.keys) != 1 {
		t.Errorf("keySet.add(\"\") added the empty key: %v", set.keys)
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
