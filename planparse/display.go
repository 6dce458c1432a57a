package planparse

import "strings"

// Display is an item's subject as people read it (issue 10): the whole
// first paragraph, so a hard-wrapped bullet is never cut mid-sentence, with
// inline markup rendered as plain text (link and image text kept, URLs,
// emphasis markers and HTML dropped, code span text kept). subject and
// planText are an Item's (or a plan item task's) verbatim fields, which stay
// as they are in the state file and in the matching key. The result is one
// line.
func Display(subject, planText string) string {
	text := subject
	if planText != "" {
		var b strings.Builder
		b.WriteString(subject)
		for _, line := range strings.Split(planText, "\n") {
			if !continuesParagraph(line) {
				break
			}
			b.WriteByte(' ')
			b.WriteString(trimSpace(line))
		}
		text = b.String()
	}
	if p := plainTitle(text); p != "" {
		return p
	}
	return trimSpace(subject)
}

// continuesParagraph reports whether a planText line (dedented) is a
// continuation line of the subject's paragraph: not blank, and not the
// start of another block (a list item, fence, quote, table row, heading,
// or an indented block).
func continuesParagraph(line string) bool {
	if isBlank([]byte(line)) || indent([]byte(line)) >= 4 {
		return false
	}
	t := strings.TrimLeft(line, " \t")
	if isMarkerLine([]byte(t)) || isATXLine([]byte(t)) || isThematicBreak([]byte(t)) {
		return false
	}
	switch t[0] {
	case '>', '|', '<':
		return false
	}
	return !strings.HasPrefix(t, "```") && !strings.HasPrefix(t, "~~~")
}
