package core

import "testing"

// A deferral's notice keeps the seed's text for agents and carries, for a
// person, the subject as they read it: no markdown, no lead-in colon.
func TestDeferralNotice(t *testing.T) {
	plan := handPlan("Limits",
		item(nil, "Read limits from `config.yaml`:", "```yaml\nratelimit: {}\n```"),
		item(nil, "Export **metrics**", ""),
	)
	src := []byte("# Limits\n\n- Read limits from `config.yaml`:\n\n  ```yaml\n  ratelimit: {}\n  ```\n- Export **metrics**\n")
	st := Approve(Empty(), plan, src, "PLAN.md", testOpts()).State
	_, res := mustCall(t, st, `{"action":"update","id":1,"status":"deferred","reason":"needs a load rig"}`)
	want := Notice{Level: "warning", Code: DeferredCode, ID: 1,
		Text:  "Plan item deferred: #1 Read limits from `config.yaml`: -- needs a load rig",
		Plain: "Deferred #1 Read limits from config.yaml, reason: needs a load rig"}
	if len(res.Notices) != 1 || res.Notices[0] != want {
		t.Fatalf("notices %+v, want %+v", res.Notices, want)
	}
	for _, tc := range []struct{ subject, reason, want string }{
		{"Export **metrics**", "later", "Deferred #2 Export metrics, reason: later"},
		{"Ship it", "a\x1b[2Jb", "Deferred #2 Ship it, reason: a [2Jb"},
	} {
		task := &Task{ID: 2, Subject: tc.subject, Reason: tc.reason}
		if got := DeferralForPeople(task); got != tc.want {
			t.Errorf("DeferralForPeople(%q, %q) = %q, want %q", tc.subject, tc.reason, got, tc.want)
		}
	}
}
