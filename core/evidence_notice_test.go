package core

import (
	"strings"
	"testing"
)

func weakNotices(res Result) []string {
	var out []string
	for _, n := range res.Notices {
		if n.Code == WeakEvidenceCode {
			if n.Level != "warning" {
				panic("weak-evidence notice is not a warning")
			}
			out = append(out, n.Text)
		}
	}
	return out
}

func TestWeakEvidenceNotices(t *testing.T) {
	st := planAState(t)
	// The seed's content string is unchanged; the warning is a notice.
	st, res := mustCall(t, st, `{"action":"update","id":1,"status":"completed","evidence":"done"}`)
	if got := res.Envelope.Text(); !strings.HasPrefix(got, "Updated #1 (pending → completed)") {
		t.Fatalf("text %q", got)
	}
	want := `weak-evidence: plan item #1 is completed with weak evidence "done", which names nothing planls can check. ` +
		"Good evidence names a commit (abc1234), a file (internal/x.go:42), a test (TestParse) or a command with its result " +
		"(`go test ./...` passes); record it with " + `{"action":"update","id":1,"evidence":"..."}`
	if got := weakNotices(res); len(got) != 1 || got[0] != want {
		t.Fatalf("notices %q\nwant %q", got, want)
	}
	// Plain drops only the tool's JSON way to fix it, for the CLI's own.
	if got, w := res.Notices[len(res.Notices)-1].Plain, strings.TrimSuffix(want, `; record it with {"action":"update","id":1,"evidence":"..."}`); got != w {
		t.Fatalf("plain %q\nwant %q", got, w)
	}
	// The same evidence again changes nothing and warns no more.
	st, res = mustCall(t, st, `{"action":"update","id":1,"metadata":{"k":1}}`)
	if got := weakNotices(res); got != nil {
		t.Fatalf("unrelated update warned: %q", got)
	}
	// Better evidence: no warning; weak again: a warning.
	st, res = mustCall(t, st, `{"action":"update","id":1,"evidence":"abc1234: `+"`go test ./...`"+` passes"}`)
	if got := weakNotices(res); got != nil {
		t.Fatalf("checkable evidence warned: %q", got)
	}
	st, res = mustCall(t, st, `{"action":"update","id":1,"evidence":"works now"}`)
	if got := weakNotices(res); len(got) != 1 {
		t.Fatalf("weak evidence update: %q", got)
	}
	// An agent todo, in a batch with a checkable one: one warning, named #N.
	_, res = mustCall(t, st, `{"ops":[{"action":"create","subject":"x"},{"action":"create","subject":"y"}]}`)
	st = res.State
	_, res = mustCall(t, st, `{"ops":[{"action":"complete","todo_id":"4","evidence":"fixed"},{"action":"complete","todo_id":"5","evidence":"TestY passes"}]}`)
	got := weakNotices(res)
	if len(got) != 1 || !strings.HasPrefix(got[0], `weak-evidence: #4 is completed with weak evidence "fixed"`) {
		t.Fatalf("batch notices %q", got)
	}
	// A rejected call warns nothing.
	r := call(st, []byte(`{"action":"update","id":2,"status":"completed"}`), testOpts())
	if !r.Envelope.IsError() || weakNotices(r) != nil {
		t.Fatalf("rejected call: %+v", r.Notices)
	}
}
