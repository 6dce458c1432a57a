// Package plangen generates deterministic PLAN.md documents for benchmarks
// across the repository: headings and groups, context sections, lead-ins,
// nested lists, code blocks, tables, task boxes and non-ASCII text, in the
// proportions of real plans.
package plangen

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Generate returns a plan with exactly items plan items (top-level bullets of
// work sections, plus prose-only sections, as planparse counts them) and no
// empty or duplicate items. The same (items, seed) always gives the same
// bytes. Context sections and lead-in lists are added on top, so the document
// also exercises skipping. Sizes: about 90 bytes per item (10k items ≈ 0.9 MB).
// items ≤ 0 gives a plan with a title only.
func Generate(items int, seed int64) []byte {
	r := rand.New(rand.NewPCG(uint64(seed), 0x706c616e6c73))
	g := &gen{r: r}
	g.b.Grow(items*110 + 64)
	fmt.Fprintf(&g.b, "# %s plan %d\n\n", pick(r, titles), seed)
	g.b.WriteString("Generated plan for benchmarks. It mixes every construct planparse reads.\n\n")
	g.b.WriteString("## Notes\n- context bullet, skipped\n- another one\n\n")
	n := 0
	for n < items {
		n += g.section(n, items-n)
	}
	return []byte(g.b.String())
}

type gen struct {
	r        *rand.Rand
	b        strings.Builder
	sections int
}

var (
	titles   = []string{"Rate limiting", "Offline mode", "Billing v2", "多语言支持", "Migración", "Поиск"}
	verbs    = []string{"Add", "Wire", "Remove", "Refactor", "Test", "Document", "Migrate", "Measure"}
	objects  = []string{"the `alpha` module", "**beta** handlers", "the token bucket", "`config.yaml` loading", "the outbox queue", "метрики запросов", "缓存层", "the 🚀 launch checklist", "Café strings (NFC é)"}
	groups   = []string{"Work", "Storage", "Sync", "Release", "Rollout", "Backend, phase %d", "Endpoints, round %d", "Поиск", "部署"}
	contexts = []string{"Risks", "Open questions", "Assumptions and defaults", "Notes", "Not adopted", "Alternatives considered"}
)

func pick(r *rand.Rand, s []string) string { return s[r.IntN(len(s))] }

// section writes one "##" section with up to left plan items and returns how
// many it wrote (at least 1 when left > 0).
func (g *gen) section(done, left int) int {
	g.sections++
	r := g.r
	if g.sections%7 == 0 {
		// A context section: its bullets are not plan items.
		fmt.Fprintf(&g.b, "## %s\n- context %d, skipped\n  - with a child\n\n", pick(r, contexts), g.sections)
	}
	name := pick(r, groups)
	if strings.Contains(name, "%d") {
		name = fmt.Sprintf(name, g.sections)
	}
	fmt.Fprintf(&g.b, "## %s %d\n", name, g.sections)
	if g.sections%11 == 0 {
		// A prose-only section is one item.
		g.b.WriteString("Run the migration in production, then watch the dashboards for an hour.\n\n")
		g.table()
		return 1
	}
	if r.IntN(3) == 0 {
		g.b.WriteString("Intro prose for this group, with `code` and **emphasis**.\n\n")
	}
	want := min(left, 5+r.IntN(16))
	for i := 0; i < want; i++ {
		if i > 0 && i%9 == 0 {
			fmt.Fprintf(&g.b, "### Part %d\n", i/9)
		}
		g.item(done + i)
	}
	if r.IntN(4) == 0 {
		g.b.WriteString("Not adopted:\n- a rejected idea, skipped\n")
	}
	g.b.WriteByte('\n')
	return want
}

// item writes one plan item numbered n (the number keeps subjects unique).
func (g *gen) item(n int) {
	r := g.r
	marker := "- "
	switch r.IntN(10) {
	case 0:
		marker = "1. "
	case 1:
		marker = "* "
	case 2:
		marker = "- [ ] "
	case 3:
		marker = "- [x] "
	}
	fmt.Fprintf(&g.b, "%s%s %s (#%d)\n", marker, pick(r, verbs), pick(r, objects), n)
	indent := "  " // content column of "- ", "* " and task items
	if marker == "1. " {
		indent = "   "
	}
	switch r.IntN(5) {
	case 0:
		fmt.Fprintf(&g.b, "%s- detail one\n%s  - deeper detail\n%s- detail two\n", indent, indent, indent)
	case 1:
		fmt.Fprintf(&g.b, "%s```go\n%sfunc f%d() error { return nil }\n%s```\n", indent, indent, n, indent)
	case 2:
		fmt.Fprintf(&g.b, "%scontinuation line with trailing spaces  \n%sand a second line that explains why\n", indent, indent)
	case 3:
		fmt.Fprintf(&g.b, "\n%s| key | value |\n%s|-----|-------|\n%s| n   | %d |\n", indent, indent, indent, n)
	}
}

func (g *gen) table() {
	g.b.WriteString("| step | owner |\n|------|-------|\n| 1 | ops |\n| 2 | dev |\n\n")
}
