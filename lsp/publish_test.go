package lsp

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// Each change of state or buffer alters exactly the diagnostics it should,
// and the others stay byte for byte what they were.
func TestDiagnosticsFollowEachChange(t *testing.T) {
	src := "# P\n\n## Work\n- Alpha task\n- Bravo task\n- Charlie task\n- Delta task\n"
	root := t.TempDir()
	plan := filepath.Join(root, "PLAN.md")
	writeFile(t, plan, src)
	cliApprove(t, root)
	opts := testOptions()
	opts.noFSWatch = true
	e := newEnv(t, envConfig{folders: []string{root}, opts: opts})
	u := e.open(plan, src)
	base := e.waitDiags(u, "open", func(d []protocol.Diagnostic) bool { return countCode(d, codeOpen) == 4 })
	save := func() {
		e.notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": u}})
		e.barrier()
	}
	// only checks that got differs from base exactly at the diagnostics of
	// task id, which want describes as "code: message".
	only := func(step string, id int, want ...string) {
		t.Helper()
		got, _ := e.lastDiags(u)
		var mine []string
		var others, baseOthers []string
		for _, d := range got {
			if i, _ := dataOf(d.Data); i == id {
				mine = append(mine, d.Code.(string)+": "+d.Message)
			} else {
				others = append(others, diagString(t, d))
			}
		}
		for _, d := range base {
			if i, _ := dataOf(d.Data); i != id {
				baseOthers = append(baseOthers, diagString(t, d))
			}
		}
		if strings.Join(mine, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: diagnostics of #%d\n got %q\nwant %q", step, id, mine, want)
		}
		if strings.Join(others, "\n") != strings.Join(baseOthers, "\n") {
			t.Errorf("%s: other diagnostics changed\n got %s\nwant %s", step, others, baseOthers)
		}
	}

	cli(t, root, `{"action":"update","id":3,"status":"in_progress"}`)
	save()
	only("in progress", 3, "in-progress: plan item #3 in progress: Charlie task")

	cli(t, root, `{"action":"update","id":3,"status":"pending"}`)
	save()
	only("pending again", 3, "open-item: open plan item #3 (pending): Charlie task")

	cli(t, root, `{"action":"update","id":2,"status":"in_progress"}`)
	save()
	only("another item", 2, "in-progress: plan item #2 in progress: Bravo task")
	cli(t, root, `{"action":"update","id":2,"status":"pending"}`)
	save()
	only("back", 2, "open-item: open plan item #2 (pending): Bravo task")

	// A buffer edit of one item's text: its drift warning comes and goes;
	// its status message keeps the approved subject.
	e.change(u, 2, strings.Replace(src, "Delta task", "Delta task, reworded", 1))
	e.barrier()
	only("reworded", 4,
		"plan-drift: plan item #4 differs from the approved plan: re-approve to track the new text",
		"open-item: open plan item #4 (pending): Delta task")
	e.change(u, 3, src)
	e.barrier()
	only("restored", 4, "open-item: open plan item #4 (pending): Delta task")
}

func diagString(t *testing.T, d protocol.Diagnostic) string {
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A list with the same meaning as the last one sent for its URI is not
// sent again; any other is, including a return to one sent earlier.
func TestPublishSkipsOnlyTheSameList(t *testing.T) {
	src := "# P\n\n## Work\n- Alpha task\n- Bravo task\n"
	root := t.TempDir()
	plan := filepath.Join(root, "PLAN.md")
	writeFile(t, plan, src)
	cliApprove(t, root)
	opts := testOptions()
	opts.noFSWatch = true
	e := newEnv(t, envConfig{folders: []string{root}, opts: opts})
	u := e.open(plan, src)
	e.waitDiags(u, "open", func(d []protocol.Diagnostic) bool { return countCode(d, codeOpen) == 2 })
	e.barrier() // the folder's first publish (from disk) may have been the one seen
	sent := func() int {
		n := 0
		for _, no := range e.notesOf("textDocument/publishDiagnostics") {
			var p protocol.PublishDiagnosticsParams
			if err := json.Unmarshal(no.params, &p); err != nil {
				t.Fatal(err)
			}
			if string(p.URI) == u {
				n++
			}
		}
		return n
	}
	steps := []struct {
		text string
		sent bool
	}{
		{src, false},        // the same text: the same list
		{src + "\n", false}, // another text, the same list
		{strings.Replace(src, "Bravo", "Bravo!", 1), true}, // a drift warning
		{src, true}, // back to the first list
		{src, false},
	}
	for i, st := range steps {
		before := sent()
		e.change(u, i+2, st.text)
		e.barrier()
		if got := sent() > before; got != st.sent {
			t.Errorf("step %d: published = %v, want %v", i, got, st.sent)
		}
	}
}
