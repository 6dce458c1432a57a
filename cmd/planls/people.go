package main

import (
	"strings"

	"github.com/planls/planls/core"
)

// The todo tool's texts are the seed's, written for the agent that called
// it; a person reads them from the CLI. forPeople rewords the two that
// speak to the wrong reader, line by line (a batch's "[i] " prefix kept);
// --json output, MCP and pi keep the seed's text byte for byte.
//
//   - a plan item's deferral asks the agent to tell the user ("Tell the user
//     this plan item is descoped and why: <reason>"): the user is reading
//     it, so it becomes "Updated #3 (pending → deferred), reason: <reason>";
//   - the list header "Plan: <title>" of a title that already starts with
//     "Plan:" (as Claude Code's plans do) says it once.
func forPeople(text string) string {
	if !strings.Contains(text, deferralMarker) && !strings.Contains(text, "Plan: Plan:") {
		return text
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		prefix := ""
		if rest, ok := strings.CutPrefix(l, "["); ok && strings.HasPrefix(l, "[") {
			if n, after, found := strings.Cut(rest, "] "); found && isDigits(n) {
				prefix, l = "["+n+"] ", after
			}
		}
		if strings.HasPrefix(l, "Updated #") {
			l = strings.Replace(l, deferralMarker, "), reason: ", 1)
		}
		if strings.HasPrefix(l, "Plan: ") {
			l = "Plan: " + core.PlanLabel(strings.TrimPrefix(l, "Plan: "))
		}
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n")
}

func isDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}
