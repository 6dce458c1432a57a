package planparse

import "strings"

// restatedSteps returns the keys (stepKey) of the plain list entries that
// step headings restate, when two of the plan's heading items or more do:
// "## Steps" numbering "Add the cache type" and "Wire it in", then
// "### 1. Add the cache type" and "### 2. Wire it in" with the details of
// each. The same work stated twice counts once, at its first statement,
// the list; the headings are its details. One heading that happens to say
// what one bullet says is no restatement, so it stays. It returns nil when
// fewer than two headings match.
func restatedSteps(items []Item) map[string]bool {
	// The headings are few and the list may hold a thousand entries: a
	// list entry is keyed only when its prefix meets a heading's.
	var heads keySet
	for i := range items {
		if it := &items[i]; it.Section {
			heads.add(stepKey(it.Subject))
		}
	}
	if len(heads.keys) < 2 {
		return nil
	}
	out := map[string]bool{}
	for i := range items {
		if it := &items[i]; !it.Section && it.Checkbox == NoCheckbox && heads.mayHold(it.Subject, true) {
			if k := stepKey(it.Subject); heads.keys[k] {
				out[k] = true
			}
		}
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// stepKey is dedupeKey of s without the step number it starts with
// ("1. Add the cache" and "Add the cache" have one key).
func stepKey(s string) string {
	return strings.TrimLeft(dedupeKey(s), "0123456789")
}
