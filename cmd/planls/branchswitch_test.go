package main

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// lspDiag is one published diagnostic, as much as these tests read.
type lspDiag struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// diagWatcher collects planls serve's publishDiagnostics for one URI.
type diagWatcher struct {
	p   *rpcPeer
	uri string
}

// waitDiags waits until the latest publish for the URI satisfies ok and
// returns it with the time it was read.
func (w diagWatcher) waitDiags(t *testing.T, what string, ok func([]lspDiag) bool) ([]lspDiag, time.Time) {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		select {
		case n := <-w.p.notes:
			if n.Method != "textDocument/publishDiagnostics" {
				continue
			}
			var p struct {
				URI         string    `json:"uri"`
				Diagnostics []lspDiag `json:"diagnostics"`
			}
			if json.Unmarshal(n.Params, &p) != nil || p.URI != w.uri {
				continue
			}
			if ok(p.Diagnostics) {
				return p.Diagnostics, time.Now()
			}
		case <-deadline:
			t.Fatalf("no diagnostics for %s in 30s", what)
		}
	}
}

// messages are the diagnostics' messages, sorted.
func messages(ds []lspDiag) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Code+": "+d.Message)
	}
	sort.Strings(out)
	return out
}

// TestBranchSwitchUnderServer: with the plan open in an editor, `git
// checkout` of a branch whose PLAN.md and .planls/ differ gives that
// branch's diagnostics (the editor reloads the changed file, as VS Code and
// Neovim's autoread do), the server writes nothing of the old branch over
// the new one, a command after the switch works on the new branch's state,
// and switching back shows the first branch's items again.
func TestBranchSwitchUnderServer(t *testing.T) {
	root := t.TempDir()
	git(t, root, "init", "-q", "-b", "main")
	planA := "# Alpha\n\n- Alpha one\n- Alpha two\n"
	planB := "# Beta\n\n- Beta one\n- Beta two\n- Beta three\n"
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("PLAN.md", planA)
	planls(t, root, "approve")
	planls(t, root, "todo", "complete", "1", "--evidence", "PLAN.md:3")
	git(t, root, "add", "-A")
	git(t, root, "commit", "-q", "-m", "alpha")
	git(t, root, "checkout", "-q", "-b", "beta")
	write("PLAN.md", planB)
	planls(t, root, "approve")
	planls(t, root, "todo", "start", "4") // Beta two: #1 and #2 are alpha's tombstones now
	git(t, root, "add", "-A")
	git(t, root, "commit", "-q", "-m", "beta")
	git(t, root, "checkout", "-q", "main")

	p := startPeer(t, root, "serve")
	p.initialize(root)
	plan := filepath.Join(root, "PLAN.md")
	u := (&url.URL{Scheme: "file", Path: plan}).String()
	w := diagWatcher{p, u}
	version := 1
	open := func(text string) {
		q, _ := json.Marshal(text)
		p.send(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"` + u + `","languageId":"markdown","version":1,"text":` + string(q) + `}}}`)
	}
	reload := func() { // the editor reads the file the checkout replaced
		version++
		text, _ := os.ReadFile(plan)
		q, _ := json.Marshal(string(text))
		p.send(fmt.Sprintf(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":%q,"version":%d},"contentChanges":[{"text":%s}]}}`, u, version, q))
	}
	isAlpha := func(ds []lspDiag) bool {
		m := strings.Join(messages(ds), "\n")
		return strings.Contains(m, "#2 (pending): Alpha two") && !strings.Contains(m, "Beta") && !strings.Contains(m, "drift")
	}
	isBeta := func(ds []lspDiag) bool {
		m := strings.Join(messages(ds), "\n")
		return strings.Contains(m, "#3 (pending): Beta one") && strings.Contains(m, "#4 in progress: Beta two") &&
			strings.Contains(m, "#5 (pending): Beta three") && !strings.Contains(m, "Alpha") && !strings.Contains(m, "drift")
	}
	open(planA)
	w.waitDiags(t, "alpha", isAlpha)

	var worst time.Duration
	for round := 0; round < 3; round++ {
		for _, to := range []struct {
			branch string
			ok     func([]lspDiag) bool
		}{{"beta", isBeta}, {"main", isAlpha}} {
			start := time.Now()
			git(t, root, "checkout", "-q", to.branch)
			reload()
			_, at := w.waitDiags(t, to.branch, to.ok)
			if d := at.Sub(start); d > worst {
				worst = d
			}
			// Nothing the server did wrote the old branch's state over the
			// checked-out one.
			if st := git(t, root, "status", "--porcelain", "--", ".planls"); st != "" {
				t.Fatalf("after checkout %s, .planls differs from the branch:\n%s", to.branch, st)
			}
		}
	}
	t.Logf("slowest switch to the other branch's diagnostics: %s", worst)

	// A command after the switch changes the checked-out branch's state.
	git(t, root, "checkout", "-q", "beta")
	reload()
	w.waitDiags(t, "beta before the command", isBeta)
	p.send(`{"jsonrpc":"2.0","id":"start","method":"workspace/executeCommand","params":{"command":"planls.start","arguments":[{"id":3,"uri":"` + u + `"}]}}`)
	if m := p.next(); string(m.ID) != `"start"` || m.Error != nil {
		t.Fatalf("planls.start: %s", m.raw)
	}
	st := readState(t, root)
	var got []string
	for _, task := range st.Tasks {
		got = append(got, fmt.Sprintf("#%d %s %s", task.ID, task.Status, task.Subject))
	}
	want := "#1 deleted Alpha one|#2 deleted Alpha two|#3 in_progress Beta one|#4 in_progress Beta two|#5 pending Beta three"
	if st.Plan == nil || st.Plan.Title != "Beta" || strings.Join(got, "|") != want {
		t.Fatalf("state after the command on beta: plan %+v, tasks %v", st.Plan, got)
	}
	git(t, root, "stash", "-q")
	git(t, root, "checkout", "-q", "main")
	reload()
	w.waitDiags(t, "alpha after the command on beta", isAlpha)
	if st := git(t, root, "status", "--porcelain", "--", ".planls"); st != "" {
		t.Fatalf("main's .planls changed:\n%s", st)
	}
}
