package planparse

import "strings"

// Display is an item's subject as people read it: the whole
// first paragraph, so a hard-wrapped bullet is never cut mid-sentence, with
// inline markup rendered as plain text (link and image text kept, URLs,
// emphasis markers and HTML dropped, code span text kept). subject and
// planText are an Item's (or a plan item task's) verbatim fields, which stay
// as they are in the state file and in the matching key. The result is one
// line.
func Display(subject, planText string) string {
	return Displays([][2]string{{subject, planText}})[0]
}

// Displays is Display of each (subject, planText) pair, in order, from one
// inline parse: what an editor shows for every item of a plan at once.
func Displays(pairs [][2]string) []string {
	texts := make([]string, len(pairs))
	for i, p := range pairs {
		texts[i] = firstParagraph(p[0], p[1])
	}
	out := plainTitles(texts)
	for i, p := range out {
		if p == "" {
			out[i] = trimSpace(pairs[i][0])
		}
	}
	return out
}

// firstParagraph is subject with the planText lines that continue its
// paragraph, joined by spaces.
func firstParagraph(subject, planText string) string {
	if planText == "" {
		return subject
	}
	var b strings.Builder
	b.WriteString(subject)
	for line := range strings.Lines(planText) {
		line = strings.TrimSuffix(line, "\n")
		if !continuesParagraph(line) {
			break
		}
		b.WriteByte(' ')
		b.WriteString(trimSpace(line))
	}
	return b.String()
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
