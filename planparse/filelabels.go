package planparse

import "strings"

// pathLabel reports whether a paragraph is one line that only names a file
// and ends with a colon ("**src/dashboard.ts:**", "`server.ts`:"): it
// labels the list after it with the file the list changes. Such a label is
// no field of a task card (a card's fields are named "Files:", "Steps:")
// and no sentence that goes on after the list above it; the lists it
// labels are the work, as under a "[MODIFY] file" heading.
func pathLabel(ev *event) bool {
	if ev.kind != evParagraph || ev.lines != 1 {
		return false
	}
	t := trimSpace(removeEmphasis(ev.last))
	t, ok := strings.CutSuffix(t, ":")
	if !ok {
		t, ok = strings.CutSuffix(t, "：")
	}
	return ok && isPathOnly(trimSpace(t))
}
