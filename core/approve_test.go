package core

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/planls/planls/planparse"
)

// rPlans are the R vectors' markdown as planparse would read it, built by
// hand so these tests do not depend on the parser.
var rPlans = map[string]*planparse.Plan{
	"R01": handPlan("Add widgets",
		item(scope("Work"), "A", ""), item(scope("Work"), "B", "- detail b"), item(scope("Work"), "C", ""),
		item(scope("Verification"), "D", "")),
	"R02": handPlan("Add widgets v2",
		item(scope("Work"), "A", ""), item(scope("Work"), "B", "- detail b changed"), item(scope("Checks"), "D", "")),
	"R04": handPlan("W", item(scope("W"), "same", ""), item(scope("W"), "same", ""), item(scope("W"), "same", "")),
	"R05": handPlan("Nothing actionable"), // "## Summary" is a context section: no items
}

// rPlanls is the planls result of each R vector (docs/PLAN-FORMAT.md
// "Approval and re-approval"), which differs from testdata/core/vectors.json on purpose:
//   - R01/R02: unchanged items KEEP their id and everything on them (status,
//     evidence, reason, owner, activeForm, blockedBy); rpiv renumbers them
//     and drops in_progress, owner and activeForm.
//   - R02: old items that left the plan are tombstoned (kept as history),
//     not removed; edges to them are dropped as in rpiv.
//   - R04: identical items pair up by order: the k-th new "same"
//     keeps the k-th old one and the third is new (rpiv lets the last old
//     duplicate win for every new one; planls used to carry none).
var rPlanls = map[string]struct {
	text  string
	tasks string
	next  int
}{
	"R01": {`Approved plan "Add widgets": 4 plan items (4 kept, 0 new, 0 removed)`,
		`[{"id":1,"subject":"A","status":"completed","source":"plan","planGroup":"Work","evidence":"ev-a"},{"id":2,"subject":"B","status":"deferred","source":"plan","planGroup":"Work","planText":"- detail b","reason":"why-b"},{"id":3,"subject":"C","status":"in_progress","source":"plan","planGroup":"Work","activeForm":"doing c","owner":"me"},{"id":4,"subject":"D","status":"pending","source":"plan","planGroup":"Verification"},{"id":5,"subject":"agent","status":"pending","blockedBy":[3,4]}]`, 6},
	"R02": {`Approved plan "Add widgets v2": 3 plan items (1 kept, 2 new, 3 removed)`,
		`[{"id":1,"subject":"A","status":"completed","source":"plan","planGroup":"Work","evidence":"ev-a"},{"id":2,"subject":"B","status":"deleted","source":"plan","planGroup":"Work","planText":"- detail b","reason":"why-b"},{"id":3,"subject":"C","status":"deleted","source":"plan","planGroup":"Work","activeForm":"doing c","owner":"me"},{"id":4,"subject":"D","status":"deleted","source":"plan","planGroup":"Verification"},{"id":5,"subject":"agent","status":"pending"},{"id":6,"subject":"B","status":"pending","source":"plan","planGroup":"Work","planText":"- detail b changed"},{"id":7,"subject":"D","status":"pending","source":"plan","planGroup":"Checks"}]`, 8},
	"R04": {`Approved plan "W": 3 plan items (2 kept, 1 new, 0 removed)`,
		`[{"id":1,"subject":"same","status":"completed","source":"plan","planGroup":"W","evidence":"first"},{"id":2,"subject":"same","status":"deferred","source":"plan","planGroup":"W","reason":"second"},{"id":3,"subject":"same","status":"pending","source":"plan","planGroup":"W"}]`, 4},
	"R05": {`Approved plan "Nothing actionable": 0 plan items (0 kept, 0 new, 0 removed)`,
		`[{"id":1,"subject":"mine","status":"pending"}]`, 2},
}

func TestRVectors(t *testing.T) {
	v := loadVectors(t)
	for _, rv := range v.R {
		t.Run(rv.ID, func(t *testing.T) {
			if rPlans[rv.ID] == nil {
				t.Fatalf("no hand-built plan for %s", rv.ID)
			}
			// The same result whether the plan is built by hand or parsed.
			for _, src := range []struct {
				name string
				plan *planparse.Plan
			}{{"hand", rPlans[rv.ID]}, {"parse", planparse.Parse([]byte(rv.MD))}} {
				t.Run(src.name, func(t *testing.T) { checkRVector(t, v, rv, src.plan) })
			}
		})
	}
}

func checkRVector(t *testing.T, v *vectorFile, rv rVector, plan *planparse.Plan) {
	init := rv.Init
	if string(init) == `"R_INIT"` {
		init = v.RInit
	}
	st := stateFromVector(t, init)
	before := snapshot(t, st)
	want := rPlanls[rv.ID]
	res := Approve(st, plan, []byte(rv.MD), "PLAN.md", testOpts())
	if snapshot(t, st) != before {
		t.Fatal("Approve mutated its input")
	}
	if res.Changed != rv.Changed || res.Envelope.Text() != want.text {
		t.Fatalf("changed %v text %q, want %v %q", res.Changed, res.Envelope.Text(), rv.Changed, want.text)
	}
	var wantTasks any
	if err := json.Unmarshal([]byte(want.tasks), &wantTasks); err != nil {
		t.Fatal(err)
	}
	if got := rpivView(t, res.State.Tasks); !jsonEqual(t, got, wantTasks) {
		t.Fatalf("tasks:\n got  %s\n want %s", mustJSON(t, got), want.tasks)
	}
	if res.State.NextID != want.next {
		t.Fatalf("nextId %d, want %d", res.State.NextID, want.next)
	}
	var final struct {
		Plan struct{ Title string } `json:"plan"`
	}
	_ = json.Unmarshal(rv.Final, &final)
	p := res.State.Plan
	if p == nil || p.Title != final.Plan.Title || p.ID != PlanID([]byte(rv.MD)) || p.Path != "PLAN.md" {
		t.Fatalf("plan %+v, want title %q", p, final.Plan.Title)
	}
	// Approving the same content again is a no-op (R03's rule, keyed by
	// content hash in planls).
	again := Approve(res.State, plan, []byte(rv.MD), "PLAN.md", testOpts())
	if again.Changed || again.State != res.State || again.Envelope.IsError() {
		t.Fatalf("re-approval of the same content changed the state: %s", again.Envelope.Text())
	}
}

func TestApproveKeepsEverythingOnUnchangedItems(t *testing.T) {
	st := planAState(t)
	st, _ = mustCall(t, st, `{"action":"update","id":1,"status":"in_progress","activeForm":"adding","owner":"me","metadata":{"k":1}}`)
	st, _ = mustCall(t, st, `{"action":"create","subject":"helper"}`)
	st, _ = mustCall(t, st, `{"action":"update","id":1,"addBlockedBy":[4]}`)
	st, _ = mustCall(t, st, `{"action":"update","id":4,"addBlockedBy":[2]}`)
	kept := st.Tasks[0]

	// Wire beta's planText changes; the others are unchanged.
	plan := handPlan("Add widgets",
		item(scope("Work"), "Add the Widget", ""),
		item(scope("Work"), "Wire beta", "- flag --beta=2"),
		item(scope("Verification"), "make test passes", ""),
	)
	res := Approve(st, plan, []byte("changed"), "PLAN.md", testOpts())
	if res.Envelope.Text() != `Approved plan "Add widgets": 3 plan items (2 kept, 1 new, 1 removed)` {
		t.Fatalf("text %q", res.Envelope.Text())
	}
	got := res.State.task(1)
	if got.Version != kept.Version || got.Owner == nil || *got.Owner != "me" || got.Status != InProgress ||
		!slices.Equal(got.BlockedBy, []int{4}) || got.Metadata["k"] == nil {
		t.Fatalf("kept item lost state: %+v", got)
	}
	if old := res.State.task(2); old.Status != Deleted || old.DeletedFrom != "" {
		t.Fatalf("removed item not tombstoned: %+v", old)
	}
	if agent := res.State.task(4); agent.BlockedBy != nil || agent.Version != 3 {
		t.Fatalf("edge to the removed item kept or version not bumped: %+v", agent)
	}
	if n := res.State.task(5); n == nil || n.Subject != "Wire beta" || n.Status != Pending || n.PlanOrder != 2 {
		t.Fatalf("new item: %+v", n)
	}
	// The removed plan item can't be restored by the tool.
	mustFail(t, res.State, `{"action":"restore","ids":[2]}`,
		"restore: #2 is a plan item the approved plan no longer has; approve a plan with it to bring it back")
}

func TestApproveAmbiguity(t *testing.T) {
	tests := []struct {
		name     string
		old, new []planparse.Item
		kept     int
	}{
		{"unique on both sides", []planparse.Item{item(scope("G"), "a", "")}, []planparse.Item{item(scope("G"), "a", "")}, 1},
		// Identical bullets pair up by order: the first new one
		// keeps the first old one.
		{"new side duplicated", []planparse.Item{item(scope("G"), "a", "")}, []planparse.Item{item(scope("G"), "a", ""), item(scope("G"), "a", "")}, 1},
		{"old side duplicated", []planparse.Item{item(scope("G"), "a", ""), item(scope("G"), "a", "")}, []planparse.Item{item(scope("G"), "a", "")}, 1},
		{"both duplicated", []planparse.Item{item(scope("G"), "a", ""), item(scope("G"), "a", "")}, []planparse.Item{item(scope("G"), "a", ""), item(scope("G"), "a", "")}, 2},
		// What a reader cannot see never changes an item.
		{"NFD vs NFC", []planparse.Item{item(scope("Café"), "résumé", "naïve")}, []planparse.Item{item(scope("Cafe\u0301"), "re\u0301sume\u0301", "nai\u0308ve")}, 1},
		{"variation selector", []planparse.Item{item(nil, "ship \u2764\ufe0f", "")}, []planparse.Item{item(nil, "ship \u2764", "")}, 1},
		{"BOM in text", []planparse.Item{item(nil, "\ufeffstart", "")}, []planparse.Item{item(nil, "start", "")}, 1},
		{"visible accent differs", []planparse.Item{item(nil, "resume", "")}, []planparse.Item{item(nil, "résumé", "")}, 0},
		{"full scope differs", []planparse.Item{item(scope("A", "G"), "a", "")}, []planparse.Item{item(scope("B", "G"), "a", "")}, 0},
		{"planText differs", []planparse.Item{item(scope("G"), "a", "x")}, []planparse.Item{item(scope("G"), "a", "x y")}, 0},
		// White space ending a line shows nothing.
		{"trailing white space", []planparse.Item{item(scope("G"), "a", "- x\n- y")}, []planparse.Item{item(scope("G"), "a ", "- x  \n- y\t")}, 1},
		{"subject differs in case", []planparse.Item{item(nil, "a", "")}, []planparse.Item{item(nil, "A", "")}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := Approve(Empty(), handPlan("T", tt.old...), []byte("old"), "PLAN.md", testOpts()).State
			res := Approve(st, handPlan("T", tt.new...), []byte("new"), "PLAN.md", testOpts())
			kept := 0
			for _, task := range res.State.Tasks {
				if task.Status != Deleted && task.ID <= len(tt.old) {
					kept++
				}
			}
			if kept != tt.kept {
				t.Fatalf("kept %d, want %d: %s", kept, tt.kept, res.Envelope.Text())
			}
		})
	}
}

func TestApproveSkipsBlankSubjectsAndNilPlan(t *testing.T) {
	res := Approve(Empty(), handPlan("T", item(nil, "  ", ""), item(nil, "real", "")), []byte("x"), "PLAN.md", testOpts())
	if len(res.State.Tasks) != 1 || res.State.Tasks[0].Subject != "real" {
		t.Fatalf("tasks %+v", res.State.Tasks)
	}
	res = Approve(nil, nil, nil, "", testOpts())
	if !res.Changed || res.State.Plan == nil || res.State.Plan.Title != "plan" {
		t.Fatalf("nil plan: %+v", res.State.Plan)
	}
}

func TestPlanID(t *testing.T) {
	if got := PlanID([]byte("abc")); got != "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Fatal(got)
	}
}

func TestMatchPlan(t *testing.T) {
	st := planAState(t)
	tests := []struct {
		name    string
		items   []planparse.Item
		want    []ItemMatch
		missing []int
	}{
		{"same", planA().Items, []ItemMatch{{0, 1, Same}, {1, 2, Same}, {2, 3, Same}}, nil},
		{"one changed in place", []planparse.Item{
			item(scope("Work"), "Add the Widget", ""), item(scope("Work"), "Wire beta!", "- flag --beta"),
			item(scope("Verification"), "make test passes", "")},
			[]ItemMatch{{0, 1, Same}, {1, 2, Changed}, {2, 3, Same}}, nil},
		{"one new, one missing", []planparse.Item{
			item(scope("Work"), "Add the Widget", ""), item(scope("Verification"), "make test passes", ""),
		}, []ItemMatch{{0, 1, Same}, {1, 3, Same}}, []int{2}},
		{"an extra item", append(planA().Items, item(scope("Work"), "extra", "")),
			[]ItemMatch{{0, 1, Same}, {1, 2, Same}, {2, 3, Same}, {3, 0, New}}, nil},
		{"reordered", []planparse.Item{planA().Items[2], planA().Items[0], planA().Items[1]},
			[]ItemMatch{{0, 3, Same}, {1, 1, Same}, {2, 2, Same}}, nil},
		{"blank subject gets no entry", []planparse.Item{item(nil, " ", ""), planA().Items[0]},
			[]ItemMatch{{1, 1, Same}}, []int{2, 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, missing := MatchPlan(st, handPlan("Add widgets", tt.items...))
			if !jsonEqual(t, got, tt.want) || !jsonEqual(t, missing, tt.missing) {
				t.Fatalf("got %+v missing %v, want %+v missing %v", got, missing, tt.want, tt.missing)
			}
		})
	}
}

// Two identical bullets keep distinct tasks.
func TestMatchPlanDuplicates(t *testing.T) {
	plan := handPlan("T", item(scope("G"), "Write tests", ""), item(scope("G"), "Write tests", ""))
	st := Approve(Empty(), plan, []byte("dup"), "PLAN.md", testOpts()).State
	got, missing := MatchPlan(st, plan)
	want := []ItemMatch{{0, 1, Same}, {1, 2, Same}}
	if !jsonEqual(t, got, want) || missing != nil {
		t.Fatalf("got %+v missing %v", got, missing)
	}
}

// The same content approved from another file keeps every item but records
// the new path, so editors and `planls check` follow the file; a re-approval
// from the same path stays a no-op.
func TestApproveSameContentNewPath(t *testing.T) {
	src := []byte("# T\n\n## Work\n- one\n- two\n")
	plan := planparse.Parse(src)
	first := Approve(Empty(), plan, src, "PLAN.md", Options{})
	if !first.Changed || first.Envelope.Text() != `Approved plan "T": 2 plan items (0 kept, 2 new, 0 removed)` {
		t.Fatalf("first approval: %q", first.Envelope.Text())
	}
	again := Approve(first.State, plan, src, "PLAN.md", Options{})
	if again.Changed || again.State != first.State {
		t.Fatalf("same path must be a no-op: %q", again.Envelope.Text())
	}
	moved := Approve(first.State, plan, src, "docs/plan.md", Options{})
	if !moved.Changed || moved.State.Plan.Path != "docs/plan.md" {
		t.Fatalf("path not recorded: %+v", moved.State.Plan)
	}
	if want := `Plan "T" is already approved: 2 plan items; its file is now docs/plan.md`; moved.Envelope.Text() != want {
		t.Fatalf("text %q, want %q", moved.Envelope.Text(), want)
	}
	if first.State.Plan.Path != "PLAN.md" {
		t.Fatal("input state was mutated")
	}
	if len(moved.State.Tasks) != 2 || moved.State.Tasks[0].ID != 1 || moved.State.Tasks[1].ID != 2 {
		t.Fatalf("items changed: %+v", moved.State.Tasks)
	}
	one := planparse.Parse([]byte("# T\n- only\n"))
	if got := Approve(Empty(), one, []byte("# T\n- only\n"), "PLAN.md", Options{}).Envelope.Text(); got != `Approved plan "T": 1 plan item (0 kept, 1 new, 0 removed)` {
		t.Fatalf("singular: %q", got)
	}
}

func TestCountNoun(t *testing.T) {
	for _, tc := range []struct {
		n          int
		noun, want string
	}{
		{0, "task", "0 tasks"}, {1, "task", "1 task"}, {2, "change", "2 changes"},
		{1, "entry", "1 entry"}, {3, "journal entry", "3 journal entries"},
	} {
		if got := CountNoun(tc.n, tc.noun); got != tc.want {
			t.Errorf("CountNoun(%d, %q) = %q", tc.n, tc.noun, got)
		}
	}
}
