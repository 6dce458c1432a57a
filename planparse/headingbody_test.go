package planparse

import (
	"slices"
	"testing"
)

// A heading that names work by its form keeps the prose under it as the
// item's plan text, so that an agent's `todo get` shows what to do; a plain
// heading's prose-only item keeps none (the seed's vectors P05, P17–P19).
func TestHeadingBodyIsPlanText(t *testing.T) {
	tests := []struct {
		name, md string
		items    []string
	}{
		{"file heading with one line",
			"# Plan\n\n## Proposed Changes\n\n#### [MODIFY] [store.go](file:///srv/store.go)\nCache the last read page.\n" +
				"#### [NEW] [cache.go](file:///srv/cache.go)\nAn LRU of 64 pages.\n",
			[]string{
				"[MODIFY] [store.go](file:///srv/store.go) / [MODIFY] [store.go](file:///srv/store.go) [\nCache the last read page.]",
				"[NEW] [cache.go](file:///srv/cache.go) / [NEW] [cache.go](file:///srv/cache.go) [\nAn LRU of 64 pages.]",
			}},
		{"phase heading written as prose",
			"# Plan\n\n## Phase 1: Import\n\nRead the old export and write one row per order.\n\n## Phase 2: Switch\n\nPoint the app at the new table.\n",
			[]string{
				"Phase 1: Import / Phase 1: Import [\nRead the old export and write one row per order.]",
				"Phase 2: Switch / Phase 2: Switch [\nPoint the app at the new table.]",
			}},
		{"plain heading keeps none",
			"# Plan\n\n## Migrate the orders table\n\nRun the migration in staging first.\n",
			[]string{"Migrate the orders table / Migrate the orders table"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := []byte(tc.md)
			items, _ := short(src, Parse(src))
			if !slices.Equal(items, tc.items) {
				t.Errorf("items:\n got %q\nwant %q", items, tc.items)
			}
		})
	}
}
