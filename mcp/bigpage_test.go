package mcp

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestStdioBigListPage is the page budget over the real binary: 200 tasks
// with long evidence and plan text, listed 200 at a time. Every page fits
// pageBytes (text and details together), rows are one line each
// unless fields asks for more, the cursor walks every row exactly once, and
// group filters by plan heading.
func TestStdioBigListPage(t *testing.T) {
	root := newProject(t)
	var plan strings.Builder
	plan.WriteString("# Big\n\n## Work\n")
	for i := 1; i <= 10; i++ {
		fmt.Fprintf(&plan, "- work item %d\n  %s\n", i, strings.Repeat("detail ", 40))
	}
	plan.WriteString("\n## Verification\n- make test passes\n")
	os.WriteFile(filepath.Join(root, "PLAN.md"), []byte(plan.String()), 0o644)
	cli := func(args ...string) {
		t.Helper()
		cmd := exec.Command(planlsBin(t), append([]string{"--root", root}, args...)...)
		cmd.Env = cleanEnv()
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("planls %.80q: %v\n%.2000s", args, err, out)
		}
	}
	cli("approve")
	var ops []map[string]any
	for i := 1; i <= 189; i++ {
		ops = append(ops, map[string]any{"action": "create", "subject": fmt.Sprintf("todo %d", i)})
	}
	for id := 12; id <= 200; id++ {
		ops = append(ops, map[string]any{"action": "complete", "id": id, "evidence": fmt.Sprintf("run %d: %s", id, strings.Repeat("go test ./... ok; ", 40))})
	}
	for len(ops) > 0 { // in batches small enough for one argument
		n := min(len(ops), 20)
		b, _ := json.Marshal(map[string]any{"ops": ops[:n]})
		cli("todo", "--params", string(b))
		ops = ops[n:]
	}

	p := startMCP(t, root, cleanEnv(), "--root", root)
	p.send(fmt.Sprintf(initMsg, "1"), initializedMsg)
	p.next(10 * time.Second)
	id := 10
	page := func(args string) (string, []byte, map[string]any) {
		t.Helper()
		id++
		p.send(callMsg(id, args))
		var raw []byte
		select {
		case raw = <-p.lines:
		case <-time.After(10 * time.Second):
			t.Fatal("no reply")
		}
		m := decodeLine(t, raw)
		text, isErr := toolText(t, m)
		if isErr {
			t.Fatalf("%s: %s", args, text)
		}
		var res struct {
			Meta map[string]map[string]any `json:"_meta"`
		}
		json.Unmarshal(m.Result, &res)
		return text, raw, res.Meta[DetailsKey]
	}
	rowRe := regexp.MustCompile(`(?m)^\[\w+\] #(\d+) `)
	seen := map[string]bool{}
	cursor := ""
	pages := 0
	for {
		args := `{"action":"list","limit":200,"item_status":"all"}`
		if cursor != "" {
			args = fmt.Sprintf(`{"action":"list","limit":200,"item_status":"all","cursor":%q}`, cursor)
		}
		text, raw, sc := page(args)
		pages++
		if len(raw) > pageBytes {
			t.Fatalf("page %d is %d bytes, over the %d-byte budget", pages, len(raw), pageBytes)
		}
		if strings.Contains(text, "evidence:") || strings.Contains(text, "detail detail") {
			t.Fatalf("page %d rows are not compact:\n%.400s", pages, text)
		}
		rows := rowRe.FindAllStringSubmatch(text, -1)
		if tasks, _ := sc["tasks"].([]any); len(tasks) != len(rows) {
			t.Fatalf("page %d: %d structured rows for %d text rows", pages, len(tasks), len(rows))
		}
		for _, r := range rows {
			if seen[r[1]] {
				t.Fatalf("#%s on two pages", r[1])
			}
			seen[r[1]] = true
		}
		next, _ := sc["nextCursor"].(string)
		if next == "" {
			break
		}
		cursor = next
	}
	if len(seen) != 200 {
		t.Fatalf("the pages showed %d of 200 tasks", len(seen))
	}
	// Evidence on request, still within the budget (the cursor goes on).
	text, raw, sc := page(`{"action":"list","limit":200,"item_status":"completed","fields":["evidence"]}`)
	if len(raw) > pageBytes || !strings.Contains(text, "\n    evidence: run 12: go test") || sc["nextCursor"] == "" {
		t.Fatalf("fields evidence: %d bytes, cursor %v:\n%.300s", len(raw), sc["nextCursor"], text)
	}
	// Plan text of one plan group only.
	text, _, _ = page(`{"action":"list","group":"work","fields":"planText"}`)
	rows := rowRe.FindAllStringSubmatch(text, -1)
	if len(rows) != 10 || strings.Contains(text, "make test passes") || !strings.Contains(text, "\n    detail detail") {
		t.Fatalf("group work: %d rows:\n%.500s", len(rows), text)
	}
}
