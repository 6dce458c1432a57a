package planparse

import (
	"strings"
	"unicode/utf8"
)

// contextLabels are rpiv-todo's context labels (the seed's plan items),
// lower case. A heading or lead-in
// matching one of them is context, not work.
var contextLabels = []string{
	"summary", "overview", "context", "background", "findings",
	"key findings", "not adopted", "non-goals", "out of scope", "assumptions",
	"risks", "open questions", "notes", "references", "alternatives",
	"alternatives considered", "rejected", "decision", "decisions", "scope",
	"diagnosis", "current state", "constraints", "default", "defaults",
	"goal", "goals", "success criteria", "intent", "compatibility",
	"rationale", "approved",
}

// isContextLabel reports whether text (a heading's text or a paragraph line)
// is one of rpiv's context labels, by rpiv's matching rule (the seed
// §3): delete every '*', '_' and backtick, then one leading number such as
// "2.", "2)" or "2.1" followed by white space, trim, and require the result to
// start with a label, ignoring ASCII case, followed by a word boundary (a
// character other than an ASCII letter, digit or '_', or the end).
func isContextLabel(text string) bool { return seedLabel(text) != "" }

// seedLabel returns the longest of rpiv's context labels that text starts
// with by isContextLabel's rule, or "".
func seedLabel(text string) string {
	s := stripLabelNumber(removeEmphasis(text))
	best := ""
	for _, l := range contextLabels {
		if len(s) < len(l) || !asciiEqualFold(s[:len(l)], l) || len(l) <= len(best) {
			continue
		}
		if len(s) == len(l) || !isWordByte(s[len(l)]) {
			best = l
		}
	}
	return best
}

// isLeadIn reports whether a paragraph line is a lead-in that skips the list
// after it (docs/PLAN-FORMAT.md): after removing emphasis markers it is a
// context label and ends with ':' (white space after the colon allowed). So
// "Not adopted:", "**Not adopted:**" and "*Not adopted*:" all are.
func isLeadIn(line string) bool {
	s := trimSpace(removeEmphasis(line))
	return strings.HasSuffix(s, ":") && isContextLabel(s)
}

// removeEmphasis deletes every '*', '_' and backtick, then trims white space.
func removeEmphasis(s string) string {
	if strings.ContainsAny(s, "*_`") {
		s = strings.Map(func(r rune) rune {
			if r == '*' || r == '_' || r == '`' {
				return -1
			}
			return r
		}, s)
	}
	return trimSpace(s)
}

// stripLabelNumber deletes one leading number matching rpiv's
// ^\d+(\.\d+)*[.)]?\s+ and trims the rest.
func stripLabelNumber(s string) string {
	i := digits(s, 0)
	if i == 0 {
		return s
	}
	for i < len(s) && s[i] == '.' {
		j := digits(s, i+1)
		if j == i+1 {
			break
		}
		i = j
	}
	if i < len(s) && (s[i] == '.' || s[i] == ')') {
		i++
	}
	if r, _ := utf8.DecodeRuneInString(s[i:]); !jsSpace(r) {
		return s // no white space after the number: it is part of the text
	}
	return trimSpace(s[i:])
}

// asciiEqualFold compares ignoring ASCII case only, as a JavaScript /i regex
// without the u flag does for these ASCII labels.
func asciiEqualFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

func digits(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
