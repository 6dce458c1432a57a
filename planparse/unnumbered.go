package planparse

import (
	"strings"
	"unicode/utf8"
)

// Unnumbered is a heading's text without the number that places it in a
// sequence, as written: "3. Convert the configs" → "Convert the configs",
// "Step 2: Add the parser" → "Add the parser", "Phase 2 – Rollout" →
// "Rollout"; text itself when it starts with no such number, or when
// nothing follows the number ("Phase 2"). The number is where the heading
// stands, not what it asks for, so inserting a step and renumbering the
// ones after it leaves their identity alone. The words that take a number
// are the reader's task and group words ("step", "task", "phase", "stage",
// ...). It allocates nothing: item keys are made at every keystroke.
func Unnumbered(text string) string {
	n := digits(text, 0)
	switch {
	case n > 3:
		return text // "2024 roadmap": a year, not a place in a sequence
	case n > 0:
		return trimNumber(text)
	}
	i := 0
	for i < len(text) && strings.IndexByte("*_` \t", text[i]) >= 0 {
		i++
	}
	j := i
	for j < len(text) && text[j] != ' ' && text[j] != '\t' && (text[j] < '0' || text[j] > '9') {
		j++
	}
	if j == i || !numberWord(text[i:j]) {
		return text
	}
	k := j
	for k < len(text) && strings.IndexByte(" \t#.-_", text[k]) >= 0 {
		k++
	}
	if d := digits(text, k); d > k {
		for d < len(text) && text[d] == '.' && digits(text, d+1) > d+1 {
			d = digits(text, d+1)
		}
		rest := strings.TrimLeft(text[d:], "*_` \t")
		for {
			r, size := utf8.DecodeRuneInString(rest)
			if size == 0 || !strings.ContainsRune(":：.)—–-", r) {
				break
			}
			rest = strings.TrimLeft(rest[size:], "*_` \t")
		}
		if rest != "" && rest != text[d:] || rest != "" && d < len(text) && text[d] == ' ' {
			return rest
		}
	}
	return text
}

// numberWord reports whether w is one of the reader's task or group words
// ("Step", "PHASE"), compared without regard to case.
func numberWord(w string) bool {
	for _, list := range [][]string{unitWords, groupWords} {
		for _, u := range list {
			if strings.EqualFold(w, u) {
				return true
			}
		}
	}
	return false
}
