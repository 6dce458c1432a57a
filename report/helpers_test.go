package report

import (
	"encoding/json"
	"time"

	"github.com/planls/planls/core"
	"github.com/planls/planls/store"
	"github.com/planls/planls/verify"
)

// t0 is the fixtures' first approval.
var t0 = time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)

// journalBuilder builds a history from steps applied to a set of plan items:
// each step is the tasks a change leaves changed (by id), so the test
// reads like the journal it stands for.
type journalBuilder struct {
	cur    map[int]*core.Task
	events []store.HistoryEntry
	plan   *core.PlanRef
}

func newHistory() *journalBuilder { return &journalBuilder{cur: map[int]*core.Task{}} }

// approve creates (or keeps) the plan items named by subject, in order,
// and tombstones the live ones not named.
func (h *journalBuilder) approve(at time.Time, title string, subjects map[int]string, groups map[int]string, result string) {
	h.plan = &core.PlanRef{ID: "sha256:" + title, Title: title, Path: "PLAN.md", ApprovedAt: at}
	ev := store.HistoryEntry{Time: at, Actor: "cli", Kind: "approve", Result: result}
	for id := 1; id <= 100; id++ {
		t := h.cur[id]
		if _, ok := subjects[id]; !ok && t != nil && t.Status != core.Deleted {
			n := *t
			n.Status = core.Deleted
			ev.Changes = append(ev.Changes, store.TaskChange{ID: id, Subject: n.Subject, From: t.Status, To: n.Status, Task: &n})
			h.cur[id] = &n
		}
	}
	for id := 1; id <= 100; id++ {
		s, ok := subjects[id]
		if !ok || h.cur[id] != nil {
			continue
		}
		t := &core.Task{ID: id, Subject: s, Status: core.Pending, Source: "plan", PlanGroup: groups[id], CreatedAt: at, UpdatedAt: at}
		ev.Changes = append(ev.Changes, store.TaskChange{ID: id, Subject: s, To: t.Status, Task: t})
		h.cur[id] = t
	}
	h.push(ev)
}

// set changes task id with f at time at, as one call by actor.
func (h *journalBuilder) set(at time.Time, actor string, id int, f func(*core.Task)) {
	before := h.cur[id]
	n := *before
	f(&n)
	n.UpdatedAt = at
	n.Version++
	h.cur[id] = &n
	h.push(store.HistoryEntry{Time: at, Actor: actor, Kind: "call", Changes: []store.TaskChange{{ID: id, Subject: n.Subject, From: before.Status, To: n.Status, Task: &n}}})
}

func (h *journalBuilder) push(ev store.HistoryEntry) {
	ev.Revision = int64(len(h.events) + 1)
	h.events = append(h.events, ev)
}

func complete(evidence string) func(*core.Task) {
	return func(t *core.Task) { t.Status, t.Evidence, t.Reason = core.Completed, evidence, "" }
}

func deferWith(reason string) func(*core.Task) {
	return func(t *core.Task) { t.Status, t.Reason, t.Evidence = core.Deferred, reason, "" }
}

func status(s core.Status) func(*core.Task) { return func(t *core.Task) { t.Status = s } }

// fixture is a plan with a history: two approvals (the second adds #6 and
// drops #5), completions with each kind of evidence, a deferral and a
// reopen. hostile puts markup and script into a subject, an evidence and a
// reason.
func fixture(hostile bool) Input {
	sub3, ev2, why := "Read limits from config.yaml", "internal/ratelimit/bucket.go:42 has the bucket, CI https://ci.example.com/run/7", "needs a load rig; tracked in #42"
	if hostile {
		sub3 = "`<script>alert(\"s\")</script>` limits <img src=x onerror=alert(1)> [x](javascript:alert(0))"
		ev2 = `internal/ratelimit/bucket.go:42 https://ci.example.com/run/7 <script>alert(2)</script> [click](javascript:alert(3)) <a href="javascript:alert(4)">x</a>`
		why = `<img src=x onerror="alert(5)"> javascript:alert(6) | table | *bold*`
	}
	h := newHistory()
	subjects := map[int]string{1: "Add internal/ratelimit with a token bucket", 2: "Wire the limiter into POST /v1/ingest", 3: sub3, 4: "Unit tests for the bucket", 5: "Load test at 10x rate"}
	groups := map[int]string{1: "Important changes", 2: "Important changes", 3: "Important changes", 4: "Tests", 5: "Tests", 6: "Tests"}
	h.approve(t0, "Rate limiting", subjects, groups, `Approved plan "Rate limiting": 5 plan items (0 kept, 5 new, 0 removed)`)
	h.set(t0.Add(1*time.Hour), "lsp", 1, status(core.InProgress))
	h.set(t0.Add(2*time.Hour), "lsp", 1, complete("a1b2c3d: the bucket, `go test ./internal/ratelimit` passes"))
	h.set(t0.Add(3*time.Hour), "mcp", 2, complete(ev2))
	h.set(t0.Add(4*time.Hour), "cli", 4, complete("TestBucketRefill and https://ci.example.com/run/7"))
	// A completed item reopened as people do it (journal kind "reopen").
	h.set(t0.Add(5*time.Hour), "cli", 4, status(core.Pending))
	h.events[len(h.events)-1].Kind = "reopen"
	h.events[len(h.events)-1].Params = json.RawMessage(`{"action":"reopen","id":4,"reason":"the test was a stub","from":"completed","evidence":"TestBucketRefill and https://ci.example.com/run/7"}`)
	h.set(t0.Add(6*time.Hour), "mcp", 5, deferWith(why))
	delete(subjects, 5)
	subjects[6] = "go test ./... -race passes"
	h.approve(t0.Add(24*time.Hour), "Rate limiting", subjects, groups, `Approved plan "Rate limiting": 5 plan items (4 kept, 1 new, 1 removed)`)
	h.set(t0.Add(25*time.Hour), "cli", 6, deferWith(why))
	h.set(t0.Add(26*time.Hour), "cli", 3, complete("done"))

	st := &core.State{Version: 1, Revision: int64(len(h.events)), NextID: 7, Plan: h.plan}
	var placed []Placed
	for _, id := range []int{1, 2, 3, 4, 6} {
		t := *h.cur[id]
		st.Tasks = append(st.Tasks, t)
		placed = append(placed, Placed{Task: t, Line: 4 + 2*id})
	}
	commit := &verify.Commit{ID: "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678", Subject: "Add the bucket", Date: t0, OnHEAD: true}
	results := []verify.Result{
		checked(h.cur[1], verify.Verified,
			verify.Check{State: verify.Verified, Detail: `commit a1b2c3d4e5f6 "Add the bucket" (2026-11-02) is on HEAD`, Commit: commit},
			verify.Check{State: verify.Unverifiable, Detail: "command `go test ./internal/ratelimit`: not run (pass --run to re-run it)"}),
		checked(h.cur[2], verify.Verified,
			verify.Check{State: verify.Verified, Detail: "file internal/ratelimit/bucket.go has line 42", File: "internal/ratelimit/bucket.go"}),
		checked(h.cur[3], verify.Unverifiable),
	}
	results[2].Weak, results[2].Reason = true, "the evidence names nothing checkable (no commit, file, test, command or URL)"
	drift := []Drift{{Kind: "new", Subject: "Document the limits", Line: 30, Message: "not in the approved plan (re-approve with planls approve): Document the limits"}}
	f := Forge{Kind: "GitHub", Base: "https://github.com/acme/widgets"}
	return Input{Root: "/work/widgets", State: st, History: h.events, Items: placed, Verify: results, Drift: drift,
		Links: Links{Forge: &f, Rev: "0123456789abcdef0123456789abcdef01234567"}, Now: t0.Add(48 * time.Hour)}
}

// checked is verify's result for t: one check per reference its evidence
// names, in order, filled from the prototypes given (the rest unverifiable).
func checked(t *core.Task, state verify.State, protos ...verify.Check) verify.Result {
	res := verify.Result{TaskID: t.ID, Subject: t.Subject, State: state}
	for i, ref := range core.ParseEvidence(t.Evidence) {
		c := verify.Check{State: verify.Unverifiable, Detail: "not checked"}
		if i < len(protos) {
			c = protos[i]
		}
		c.Ref = ref
		res.Checks = append(res.Checks, c)
	}
	return res
}
