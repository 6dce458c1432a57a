package lsp

import (
	"bufio"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/planls/planls/core"
)

// Each change of state or buffer alters exactly the diagnostics it should,
// and the others stay byte for byte what they were.
func TestDiagnosticsFollowEachChange(t *testing.T) {
	src := "# P\n\n## Work\n- Alpha task\n- Bravo task\n- Charlie task\n- Delta task\n"
	e, root, u, base := openApproved(t, src, 4)
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
	e, _, u, _ := openApproved(t, src, 2)
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

// A client that stops reading gets, once it reads again, the latest
// diagnostics of a document and not one publish per change: at most one
// publish is in flight and one waits (replaced by each newer list).
//
// The client reads only once the worker has handled every message it sent
// (the reply to the last one is queued): reading earlier lets the worker,
// still behind on a loaded machine, publish the lists of the changes it
// handles while the client reads, which is right but not what is tested.
func TestSlowClientGetsLatestNotBacklog(t *testing.T) {
	src := "# P\n\n## Work\n- Alpha task\n- Bravo task\n"
	root, plan := workspace(t, src)
	cliApprove(t, root)
	u := uriOf(plan)
	symbolDone := make(chan struct{})
	opts := testOptions()
	opts.onHandled = func(method string) {
		if method == "workspace/symbol" {
			close(symbolDone)
		}
	}
	cs, _ := startServer(t, opts)
	r := &rawClient{t: t, c: cs, in: bufio.NewReader(cs)}
	r.send("", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"`+uriOf(root)+`","capabilities":{}}}`)
	r.reply(1)
	send := func(method string, params any) {
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
		r.send("", string(b))
	}
	send("initialized", map[string]any{})
	send("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "languageId": "markdown", "version": 1, "text": src}})
	const last = 31
	for v := 2; v <= last; v++ {
		text := src + "- Charlie " + strings.Repeat("x", v) + "\n" // each list differs
		send("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": u, "version": v},
			"contentChanges": []any{map[string]any{"text": text}},
		})
	}
	r.send("", `{"jsonrpc":"2.0","id":99,"method":"workspace/symbol","params":{"query":"none"}}`)
	select {
	case <-symbolDone:
	case <-time.After(waitTimeout):
		t.Fatal("the worker did not get to workspace/symbol")
	}
	var versions []float64
	for {
		m := r.next()
		if m["id"] == float64(99) {
			break
		}
		if m["method"] != "textDocument/publishDiagnostics" {
			continue
		}
		p := m["params"].(map[string]any)
		if p["uri"] == u {
			v, _ := p["version"].(float64)
			versions = append(versions, v)
		}
	}
	if len(versions) == 0 || versions[len(versions)-1] != last {
		t.Fatalf("publishes %v: the last must be of version %d", versions, last)
	}
	if len(versions) > 2 {
		t.Errorf("publishes of versions %v while the client did not read: want the one in flight and the latest", versions)
	}
}

// A plan with more than maxPublished diagnostics publishes maxPublished:
// the warnings first, then open items in order, and one summary on the
// title line. Code actions still see every item.
func TestPublishCapped(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Big plan\n\n## Work\n")
	const n = maxPublished + 5
	for i := 1; i <= n; i++ {
		if i > n-2 {
			fmt.Fprintf(&b, "- [x] ticked item %d\n", i) // open but ticked: a warning past the cap
			continue
		}
		fmt.Fprintf(&b, "- [ ] item number %d\n", i)
	}
	root, plan := workspace(t, b.String())
	cliApprove(t, root)
	opts := testOptions()
	opts.noFSWatch = true
	e := newEnv(t, envConfig{folders: []string{root}, opts: opts})
	u := e.open(plan, b.String())
	ds := e.waitDiags(u, "capped list", func(d []protocol.Diagnostic) bool { return countCode(d, codeCapped) == 1 })
	if len(ds) != maxPublished {
		t.Fatalf("%d diagnostics published, want %d", len(ds), maxPublished)
	}
	if got := countCode(ds, core.RuleTicked); got != 2 {
		t.Errorf("%d checked-not-completed warnings kept, want 2 (warnings go first)", got)
	}
	sum := ds[len(ds)-1]
	want := fmt.Sprintf("showing %d of %d planls diagnostics (%d open items): the plan sidebar and `planls status` list every item",
		maxPublished-1, n+2, n)
	if sum.Code != codeCapped || sum.Message != want || sum.Range.Start.Line != 0 || sum.Severity != protocol.DiagnosticSeverityInformation {
		t.Errorf("summary %+v\nwant message %q on line 0", sum, want)
	}
	if first := ds[0]; first.Code != core.RuleOpen || first.Range.Start.Line != 3 {
		t.Errorf("first diagnostic %v %v, want the first item's", first.Code, first.Range)
	}
	// The last item has no published diagnostic, yet its actions are there.
	if acts := e.actions(u, 3+n-3, nil); !strings.Contains(titles(acts), fmt.Sprintf("Complete #%d…", n-2)) {
		t.Errorf("actions on an item past the cap: %q", titles(acts))
	}
}

// The outbox replaces a queued message of the same key in its place and
// sends the others in order.
func TestOutboxReplacesQueued(t *testing.T) {
	o := newOutbox()
	var got []string
	rec := func(s string) func() { return func() { got = append(got, s) } }
	o.put("", rec("a"))
	o.put("k", rec("k1"))
	o.put("", rec("b"))
	o.put("k", rec("k2"))
	o.put("j", rec("j1"))
	go o.run()
	o.flush(waitTimeout)
	o.close()
	if strings.Join(got, " ") != "a k2 b j1" {
		t.Errorf("sent %q, want a k2 b j1", got)
	}
}

// openApproved approves src as PLAN.md of a new root, opens it in a server
// without fsnotify and waits until it shows that many (open) open-item
// diagnostics.
func openApproved(t *testing.T, src string, open int) (e *env, root, u string, diags []protocol.Diagnostic) {
	t.Helper()
	root = t.TempDir()
	plan := filepath.Join(root, "PLAN.md")
	writeFile(t, plan, src)
	cliApprove(t, root)
	opts := testOptions()
	opts.noFSWatch = true
	e = newEnv(t, envConfig{folders: []string{root}, opts: opts})
	u = e.open(plan, src)
	diags = e.waitDiags(u, "open", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleOpen) == open })
	return e, root, u, diags
}

// A publish's meaning (what dedupes) is the same at every version, also
// where the version's digits grow, and differs with the list; what is sent
// decodes to the list at the buffer's version.
func TestPublishMessageMeaning(t *testing.T) {
	list := []protocol.Diagnostic{{Message: `quote " and <tag>`, Source: "planls", Code: core.RuleOpen}}
	var meanings []uint64
	for _, v := range []int32{0, 9, 10, 12345} {
		s := &server{docs: map[string]*document{"k": {uri: "file:///p/PLAN.md", version: v}}}
		msg, meaning, err := s.publishMessage("file:///p/PLAN.md", list)
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			Method string                            `json:"method"`
			Params protocol.PublishDiagnosticsParams `json:"params"`
		}
		if err := json.Unmarshal(msg, &got); err != nil || got.Method != "textDocument/publishDiagnostics" ||
			got.Params.Version != uint32(v) || len(got.Params.Diagnostics) != 1 || got.Params.Diagnostics[0].Message != list[0].Message {
			t.Errorf("version %d: sent %s (%v)", v, msg, err)
		}
		meanings = append(meanings, meaning)
	}
	for _, m := range meanings[1:] {
		if m != meanings[0] {
			t.Errorf("meanings %v differ", meanings)
		}
	}
	s := &server{docs: map[string]*document{}}
	if _, other, _ := s.publishMessage("file:///p/PLAN.md", []protocol.Diagnostic{{Message: "another"}}); other == meanings[0] {
		t.Error("another list has the same meaning")
	}
}
