package lsp

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/planls/planls/core"
)

// pullCaps is a client that answers workspace/configuration (LSP 3.6).
func pullCaps() map[string]any {
	return map[string]any{"workspace": map[string]any{"configuration": true}}
}

// logTB records the server's log lines, which reach the test through Log,
// so a test can wait for what the server did when nothing goes to the client
// (a dropped answer, a timeout).
type logTB struct {
	testing.TB
	mu      sync.Mutex
	lines   []string
	changed chan struct{}
}

func newLogTB(t testing.TB) *logTB { return &logTB{TB: t, changed: make(chan struct{})} }

func (l *logTB) Log(args ...any) {
	l.TB.Log(args...)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprint(args...))
	close(l.changed)
	l.changed = make(chan struct{})
}

// count is the number of log lines holding substr.
func (l *logTB) count(substr string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, line := range l.lines {
		if strings.Contains(line, substr) {
			n++
		}
	}
	return n
}

// waitLog waits until n log lines hold substr.
func (l *logTB) waitLog(substr string, n int) {
	l.Helper()
	deadline := time.After(waitTimeout)
	for {
		l.mu.Lock()
		ch := l.changed
		l.mu.Unlock()
		if l.count(substr) >= n {
			return
		}
		select {
		case <-ch:
		case <-deadline:
			l.Fatalf("timed out waiting for %d log lines with %q", n, substr)
		}
	}
}

// answerFunc answers the nth (1-based) workspace/configuration request.
type answerFunc func(n int, items []protocol.ConfigurationItem) (any, error)

// pullEnv starts a session whose client answers workspace/configuration with
// answer and every other request with null, then initializes it with cfg.
func pullEnv(t *testing.T, cfg envConfig, answer answerFunc) (*env, *logTB) {
	t.Helper()
	lt := newLogTB(t)
	e := newEnv(lt, envConfig{opts: cfg.opts, noInit: true})
	var mu sync.Mutex
	n := 0
	e.mu.Lock()
	e.answer = func(method string, params json.RawMessage) (any, error) {
		if method != "workspace/configuration" {
			return nil, nil
		}
		var p protocol.ConfigurationParams
		if err := json.Unmarshal(params, &p); err != nil {
			t.Errorf("workspace/configuration params %s: %v", params, err)
		}
		mu.Lock()
		n++
		k := n
		mu.Unlock()
		return answer(k, p.Items)
	}
	e.mu.Unlock()
	if cfg.caps == nil {
		cfg.caps = pullCaps()
	}
	e.initialize(cfg)
	return e, lt
}

// same answers every item with v.
func same(v any) answerFunc {
	return func(_ int, items []protocol.ConfigurationItem) (any, error) {
		out := make([]any, len(items))
		for i := range out {
			out[i] = v
		}
		return out, nil
	}
}

// configReqs are the workspace/configuration requests sent so far.
func (e *env) configReqs() []protocol.ConfigurationParams {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []protocol.ConfigurationParams
	for _, r := range e.reqs {
		if r.method == "workspace/configuration" {
			var p protocol.ConfigurationParams
			if err := json.Unmarshal(r.params, &p); err != nil {
				e.t.Errorf("bad workspace/configuration params %s", r.params)
			}
			out = append(out, p)
		}
	}
	return out
}

// allSeverity reports whether ds holds want diagnostics of code, each of
// severity sev.
func allSeverity(ds []protocol.Diagnostic, code string, want int, sev protocol.DiagnosticSeverity) bool {
	n := 0
	for _, d := range ds {
		if d.Code != code {
			continue
		}
		if d.Severity != sev {
			return false
		}
		n++
	}
	return n == want
}

// approvedRoot is a temp folder holding an approved copy of basic.md (7
// open items).
func approvedRoot(t *testing.T) (root, planURI string) {
	t.Helper()
	root, plan := workspace(t, basicPlan(t))
	cliApprove(t, root)
	return root, uriOf(plan)
}

// The settings pulled after initialized set the severity of open items; the
// request has one item per folder, scoped to its URI, section "planls".
func TestPullAtStart(t *testing.T) {
	root, u := approvedRoot(t)
	e, _ := pullEnv(t, envConfig{folders: []string{root}}, same(map[string]any{"severity": "warning"}))
	e.waitDiags(u, "warning open items", func(d []protocol.Diagnostic) bool {
		return allSeverity(d, core.RuleOpen, 7, protocol.DiagnosticSeverityWarning)
	})
	reqs := e.configReqs()
	if len(reqs) != 1 || len(reqs[0].Items) != 1 || reqs[0].Items[0] != (protocol.ConfigurationItem{ScopeURI: protocol.URI(uriOf(root)), Section: "planls"}) {
		t.Errorf("requests %+v, want one item {%s planls}", reqs, uriOf(root))
	}
}

// Pull clients send didChangeConfiguration with null or empty settings to
// mean "ask me": each one re-pulls, and the new answer is published.
func TestDidChangeConfigurationRepulls(t *testing.T) {
	root, u := approvedRoot(t)
	sevs := []string{"warning", "error", "hint", "warning"}
	e, _ := pullEnv(t, envConfig{folders: []string{root}}, func(n int, items []protocol.ConfigurationItem) (any, error) {
		return []any{map[string]any{"severity": sevs[min(n, len(sevs))-1]}}, nil
	})
	want := []protocol.DiagnosticSeverity{protocol.DiagnosticSeverityWarning, protocol.DiagnosticSeverityError,
		protocol.DiagnosticSeverityHint, protocol.DiagnosticSeverityWarning}
	e.waitDiags(u, "first pull", func(d []protocol.Diagnostic) bool { return allSeverity(d, core.RuleOpen, 7, want[0]) })
	payloads := []any{
		map[string]any{"settings": nil},
		map[string]any{"settings": map[string]any{}},
		map[string]any{},
	}
	for i, p := range payloads {
		e.notify("workspace/didChangeConfiguration", p)
		e.waitDiags(u, fmt.Sprintf("pull after %v", p), func(d []protocol.Diagnostic) bool {
			return allSeverity(d, core.RuleOpen, 7, want[i+1])
		})
	}
	if n := len(e.configReqs()); n != 4 {
		t.Errorf("%d workspace/configuration requests, want 4", n)
	}
}

// Each folder gets its own answer: severity for one, planFiles for the
// other; the client-side watchers cover the globs of both.
func TestPullPerFolder(t *testing.T) {
	a, ua := approvedRoot(t)
	b := t.TempDir()
	rollout := filepath.Join(b, "plans", "rollout.md")
	writeFile(t, rollout, "# Roll out\n\n## Steps\n- Enable in staging\n- Enable in production\n")
	answers := map[string]any{
		uriOf(a): map[string]any{"severity": "error"},
		uriOf(b): map[string]any{"planFiles": []string{"plans/*.md"}, "severity": "hint"},
	}
	caps := pullCaps()
	caps["workspace"].(map[string]any)["didChangeWatchedFiles"] = map[string]any{"dynamicRegistration": true}
	e, _ := pullEnv(t, envConfig{folders: []string{a, b}, caps: caps}, func(_ int, items []protocol.ConfigurationItem) (any, error) {
		out := make([]any, len(items))
		for i, it := range items {
			out[i] = answers[string(it.ScopeURI)]
		}
		return out, nil
	})
	e.waitDiags(ua, "errors in A", func(d []protocol.Diagnostic) bool {
		return allSeverity(d, core.RuleOpen, 7, protocol.DiagnosticSeverityError)
	})
	e.waitDiags(uriOf(rollout), "B's plan found by its planFiles", func(d []protocol.Diagnostic) bool {
		return countCode(d, core.RuleNotApproved) == 1
	})
	if reqs := e.configReqs(); len(reqs) == 0 || len(reqs[0].Items) != 2 ||
		reqs[0].Items[0].ScopeURI != protocol.URI(uriOf(a)) || reqs[0].Items[1].ScopeURI != protocol.URI(uriOf(b)) {
		t.Errorf("requests %+v, want the first with A then B", reqs)
	}
	var pb planResult
	e.call("planls/plan", map[string]any{"uri": uriOf(b)}, &pb)
	if pb.PlanURI != uriOf(rollout) || pb.Title != "Roll out" {
		t.Errorf("B's plan %+v", pb)
	}
	// B's severity must not leak into A, nor A's planFiles into B.
	if d, _ := e.lastDiags(ua); !allSeverity(d, core.RuleOpen, 7, protocol.DiagnosticSeverityError) {
		t.Errorf("A: %+v", d)
	}
	e.waitFor("registration with B's globs", func() bool {
		for _, r := range e.reqs {
			if r.method == "client/registerCapability" && strings.Contains(string(r.params), `"**/plans/*.md"`) &&
				strings.Contains(string(r.params), `"**/PLAN.md"`) {
				return true
			}
		}
		return false
	})
}

// With file watching by fsnotify, the directories of a folder's pulled
// planFiles are watched: a plan created there later is found.
func TestPulledPlanFilesAreWatched(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "plans"), 0o755); err != nil {
		t.Fatal(err)
	}
	e, lt := pullEnv(t, envConfig{folders: []string{root}}, same(map[string]any{"planFiles": []string{"plans/*.md"}}))
	lt.waitLog("settings pulled", 1)
	e.barrier()
	plan := filepath.Join(root, "plans", "later.md")
	writeFile(t, plan, "# Later\n\n## G\n- one\n")
	e.waitDiags(uriOf(plan), "plan created under the pulled glob", func(d []protocol.Diagnostic) bool {
		return countCode(d, core.RuleNotApproved) == 1
	})
}

// A folder added later is pulled on its own.
func TestPullAddedFolder(t *testing.T) {
	a, ua := approvedRoot(t)
	b, ub := approvedRoot(t)
	e, _ := pullEnv(t, envConfig{folders: []string{a}}, func(_ int, items []protocol.ConfigurationItem) (any, error) {
		out := make([]any, len(items))
		for i, it := range items {
			if string(it.ScopeURI) == uriOf(b) {
				out[i] = map[string]any{"severity": "error"}
			}
		}
		return out, nil
	})
	e.waitDiags(ua, "A", func(d []protocol.Diagnostic) bool {
		return allSeverity(d, core.RuleOpen, 7, protocol.DiagnosticSeverityInformation)
	})
	e.waitFor("the pull at start", func() bool { return e.reqCount("workspace/configuration") == 1 })
	e.notify("workspace/didChangeWorkspaceFolders", map[string]any{"event": map[string]any{
		"added": []any{map[string]any{"uri": uriOf(b), "name": "b"}}, "removed": []any{}}})
	e.waitDiags(ub, "B pulled", func(d []protocol.Diagnostic) bool {
		return allSeverity(d, core.RuleOpen, 7, protocol.DiagnosticSeverityError)
	})
	reqs := e.configReqs()
	if len(reqs) != 2 || len(reqs[1].Items) != 1 || reqs[1].Items[0].ScopeURI != protocol.URI(uriOf(b)) {
		t.Errorf("requests %+v, want the second for B only", reqs)
	}
	if d, _ := e.lastDiags(ua); !allSeverity(d, core.RuleOpen, 7, protocol.DiagnosticSeverityInformation) {
		t.Errorf("A changed by B's settings: %+v", d)
	}
}

// Pulled values win over pushed ones for the keys they set; pushed keys the
// answers leave out still apply, and a later push does not undo a pull.
func TestPulledOverPushed(t *testing.T) {
	root, u := approvedRoot(t)
	cli(t, root, `{"action":"update","id":1,"status":"completed","evidence":"done"}`)
	push := map[string]any{"settings": map[string]any{"planls": map[string]any{"severity": "warning", "fadeClosed": true}}}
	e, _ := pullEnv(t, envConfig{folders: []string{root}, initOpt: push}, same(map[string]any{"severity": "error"}))
	e.waitDiags(u, "pulled severity, pushed fadeClosed", func(d []protocol.Diagnostic) bool {
		return allSeverity(d, core.RuleOpen, 6, protocol.DiagnosticSeverityError) && countCode(d, codeClosed) == 1
	})
	e.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"planls": map[string]any{"severity": "hint", "fadeClosed": false}}})
	e.waitDiags(u, "fadeClosed pushed off", func(d []protocol.Diagnostic) bool { return countCode(d, codeClosed) == 0 })
	if d, _ := e.lastDiags(u); !allSeverity(d, core.RuleOpen, 6, protocol.DiagnosticSeverityError) {
		t.Errorf("a push overrode the pulled severity: %s", codes(d))
	}
}

// A client that answers badly or not at all never stalls the session and
// never changes the settings: the pushed severity (warning) stays.
func TestPullBadAnswers(t *testing.T) {
	block := make(chan struct{})
	t.Cleanup(func() { close(block) })
	tests := []struct {
		name    string
		answer  answerFunc
		timeout time.Duration
		log     string
	}{
		{"error", func(int, []protocol.ConfigurationItem) (any, error) {
			return nil, jsonrpc2.NewError(jsonrpc2.InternalError, "no settings here")
		}, 0, "workspace/configuration failed; settings kept"},
		{"method not found", func(int, []protocol.ConfigurationItem) (any, error) {
			return nil, jsonrpc2.NewError(jsonrpc2.MethodNotFound, "method not found")
		}, 0, "workspace/configuration failed; settings kept"},
		{"fewer items", func(int, []protocol.ConfigurationItem) (any, error) {
			return []any{map[string]any{"severity": "error"}}, nil
		}, 0, "wrong number of items"},
		{"more items", func(_ int, items []protocol.ConfigurationItem) (any, error) {
			return make([]any, len(items)+1), nil
		}, 0, "wrong number of items"},
		{"null result", func(int, []protocol.ConfigurationItem) (any, error) { return nil, nil }, 0, "wrong number of items"},
		{"not a list", func(int, []protocol.ConfigurationItem) (any, error) {
			return map[string]any{"severity": "error"}, nil
		}, 0, "workspace/configuration failed; settings kept"},
		{"never answers", func(int, []protocol.ConfigurationItem) (any, error) {
			<-block
			return nil, errors.New("too late")
		}, 300 * time.Millisecond, "context deadline exceeded"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, ua := approvedRoot(t)
			b, ub := approvedRoot(t)
			opts := testOptions()
			if tt.timeout > 0 {
				opts.callTimeout = tt.timeout
			}
			push := map[string]any{"settings": map[string]any{"planls": map[string]any{"severity": "warning"}}}
			e, lt := pullEnv(t, envConfig{opts: opts, folders: []string{a, b}, initOpt: push}, tt.answer)
			for _, u := range []string{ua, ub} {
				e.waitDiags(u, "pushed severity", func(d []protocol.Diagnostic) bool {
					return allSeverity(d, core.RuleOpen, 7, protocol.DiagnosticSeverityWarning)
				})
			}
			e.barrier() // the server answers while the pull is unanswered
			lt.waitLog(tt.log, 1)
			e.barrier()
			for _, u := range []string{ua, ub} {
				if d, _ := e.lastDiags(u); !allSeverity(d, core.RuleOpen, 7, protocol.DiagnosticSeverityWarning) {
					t.Errorf("%s: settings changed: %s", u, codes(d))
				}
			}
			if lt.count("settings pulled") != 0 {
				t.Error("a bad answer was applied")
			}
		})
	}
}

// When two pulls race, the later request's answer wins even if the earlier
// one arrives last.
func TestPullStaleAnswerDropped(t *testing.T) {
	root, u := approvedRoot(t)
	release, first := make(chan struct{}), make(chan struct{})
	var once sync.Once
	t.Cleanup(func() { once.Do(func() { close(release) }) })
	e, lt := pullEnv(t, envConfig{folders: []string{root}}, func(n int, items []protocol.ConfigurationItem) (any, error) {
		if n == 1 {
			close(first)
			<-release
			return []any{map[string]any{"severity": "hint"}}, nil
		}
		return []any{map[string]any{"severity": "error"}}, nil
	})
	// Waiting for the answer to start, not for the request to arrive, makes
	// sure the first request is the one counted first.
	select {
	case <-first:
	case <-time.After(waitTimeout):
		t.Fatal("no first pull")
	}
	e.notify("workspace/didChangeConfiguration", map[string]any{"settings": nil})
	e.waitDiags(u, "second answer applied", func(d []protocol.Diagnostic) bool {
		return allSeverity(d, core.RuleOpen, 7, protocol.DiagnosticSeverityError)
	})
	once.Do(func() { close(release) })
	lt.waitLog("stale workspace/configuration answer dropped", 1)
	e.barrier()
	if d, _ := e.lastDiags(u); !allSeverity(d, core.RuleOpen, 7, protocol.DiagnosticSeverityError) {
		t.Errorf("the stale answer won: %s", codes(d))
	}
}

// A client without workspace.configuration (or with it false) is never
// asked, whatever happens; pushed settings work as before.
func TestNoPullWithoutCapability(t *testing.T) {
	for _, caps := range []map[string]any{
		{},
		{"workspace": map[string]any{"configuration": false}},
		{"workspace": map[string]any{"configuration": map[string]any{}}},
	} {
		root, u := approvedRoot(t)
		b, _ := approvedRoot(t)
		e, _ := pullEnv(t, envConfig{folders: []string{root}, caps: caps}, func(int, []protocol.ConfigurationItem) (any, error) {
			t.Error("workspace/configuration sent")
			return nil, nil
		})
		e.notify("workspace/didChangeConfiguration", map[string]any{"settings": nil})
		e.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"planls": map[string]any{"severity": "error"}}})
		e.notify("workspace/didChangeWorkspaceFolders", map[string]any{"event": map[string]any{
			"added": []any{map[string]any{"uri": uriOf(b), "name": "b"}}, "removed": []any{}}})
		e.waitDiags(u, "pushed severity", func(d []protocol.Diagnostic) bool {
			return allSeverity(d, core.RuleOpen, 7, protocol.DiagnosticSeverityError)
		})
		e.barrier()
		if n := len(e.configReqs()); n != 0 {
			t.Errorf("caps %v: %d workspace/configuration requests", caps, n)
		}
	}
}

// A plan opened outside every workspace folder gets a folder of its own,
// and its settings are pulled too.
func TestPullImplicitFolder(t *testing.T) {
	ws := t.TempDir()
	other, _ := approvedRoot(t)
	if err := os.Mkdir(filepath.Join(other, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	e, _ := pullEnv(t, envConfig{folders: []string{ws}}, func(_ int, items []protocol.ConfigurationItem) (any, error) {
		out := make([]any, len(items))
		for i, it := range items {
			if string(it.ScopeURI) == uriOf(other) {
				out[i] = map[string]any{"severity": "hint"}
			}
		}
		return out, nil
	})
	u := e.open(filepath.Join(other, "PLAN.md"), basicPlan(t))
	e.waitDiags(u, "the implicit folder's pulled severity", func(d []protocol.Diagnostic) bool {
		return allSeverity(d, core.RuleOpen, 7, protocol.DiagnosticSeverityHint)
	})
}

// An answer that comes back after its folder was removed is dropped: the
// removed folder's cleared diagnostics stay cleared.
func TestPullRemovedFolderDropped(t *testing.T) {
	a, _ := approvedRoot(t)
	b, ub := approvedRoot(t)
	release, asked := make(chan struct{}), make(chan struct{})
	var once sync.Once
	t.Cleanup(func() { once.Do(func() { close(release) }) })
	e, lt := pullEnv(t, envConfig{folders: []string{a, b}}, func(n int, items []protocol.ConfigurationItem) (any, error) {
		close(asked)
		<-release
		return []any{nil, map[string]any{"severity": "error"}}, nil
	})
	e.waitDiags(ub, "B", func(d []protocol.Diagnostic) bool { return countCode(d, core.RuleOpen) == 7 })
	select {
	case <-asked:
	case <-time.After(waitTimeout):
		t.Fatal("no pull")
	}
	e.notify("workspace/didChangeWorkspaceFolders", map[string]any{"event": map[string]any{
		"added": []any{}, "removed": []any{map[string]any{"uri": uriOf(b), "name": "b"}}}})
	e.waitDiags(ub, "B cleared", func(d []protocol.Diagnostic) bool { return len(d) == 0 })
	once.Do(func() { close(release) })
	lt.waitLog("answer for a removed folder dropped", 1)
	e.barrier()
	if d, _ := e.lastDiags(ub); len(d) != 0 {
		t.Errorf("removed folder republished: %s", codes(d))
	}
}
