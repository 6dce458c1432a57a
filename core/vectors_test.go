package core

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/planls/planls/planparse"
)

// vectorFile is testdata/core/vectors.json: the R, O and reminder vectors
// of the rpiv-todo vectors, copied verbatim.
type vectorFile struct {
	RInit    json.RawMessage `json:"R_INIT"`
	PlanAMD  string          `json:"PLAN_A_md"`
	R        []rVector       `json:"R"`
	O        []oVector       `json:"O"`
	Reminder struct {
		State    string `json:"state"`
		Reminder string `json:"reminder"`
	} `json:"reminder"`
}

type oVector struct {
	ID    string          `json:"id"`
	Note  string          `json:"note"`
	Init  string          `json:"init"`
	Calls []oCall         `json:"calls"`
	Final json.RawMessage `json:"final"`
}

type oCall struct {
	P    json.RawMessage `json:"p"`
	Text string          `json:"text"`
}

type rVector struct {
	ID      string          `json:"id"`
	Init    json.RawMessage `json:"init"`
	PlanID  string          `json:"planId"`
	MD      string          `json:"md"`
	Changed bool            `json:"changed"`
	Final   json.RawMessage `json:"final"`
}

func loadVectors(t testing.TB) *vectorFile {
	t.Helper()
	b, err := os.ReadFile("../testdata/core/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var v vectorFile
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	if len(v.O) == 0 || len(v.R) == 0 {
		t.Fatal("vectors.json has no O or R vectors")
	}
	return &v
}

// planlsText holds the vector texts where planls differs on purpose from the
// stored rpiv code, with the reason.
var planlsText = map[string]map[int]string{
	// Batches: each op's text describes that op at its own
	// point, so the defer prints its reason `later` (rpiv prints an empty one).
	"O17": {0: "Applied 2 ops\n[0] Updated #2 (pending → deferred). Tell the user this plan item is descoped and why: later\n[1] Updated #2 (deferred → pending)\nPlan: Add widgets -- 3/3 plan items open"},
}

// wantNotices are the UI notifications per vector and call (testdata/core/vectors.json: the
// one notification is O04's deferral of #2; O17's defer-then-reopen is not a
// net deferral, so planls sends none where rpiv warns).
var wantNotices = map[string]map[int][]Notice{
	"O04": {5: {{Level: "warning", Text: "Plan item deferred: #2 Wire beta -- needs a design call"}}},
	"O16": {1: {{Level: "warning", Text: "Plan item deferred: #3 make test passes -- CI is down"}}},
}

func runOVector(t *testing.T, v *vectorFile, ov oVector) *State {
	t.Helper()
	var st *State
	switch ov.Init {
	case "EMPTY":
		st = Empty()
	case "PLAN_A":
		st = planAState(t)
	default:
		t.Fatalf("unknown init %q", ov.Init)
	}
	for i, c := range ov.Calls {
		before := snapshot(t, st)
		res := call(st, c.P, testOpts())
		want := c.Text
		if w, ok := planlsText[ov.ID][i]; ok {
			want = w
		}
		if got := res.Envelope.Text(); got != want {
			t.Fatalf("call %d %s:\n got  %q\n want %q", i, c.P, got, want)
		}
		if snapshot(t, st) != before {
			t.Fatalf("call %d mutated its input state", i)
		}
		if strings.HasPrefix(want, "Error: ") {
			if res.Envelope.Details.Error != strings.TrimPrefix(want, "Error: ") || res.Changed || res.State != st {
				t.Fatalf("call %d: rejected call: details.error %q, changed %v", i, res.Envelope.Details.Error, res.Changed)
			}
		} else if res.Envelope.Details.Error != "" {
			t.Fatalf("call %d: details.error set on success", i)
		}
		wantAction := "batch"
		var p map[string]json.RawMessage
		_ = json.Unmarshal(c.P, &p)
		if a, ok := p["action"]; ok && p["ops"] == nil {
			_ = json.Unmarshal(a, &wantAction)
		}
		if res.Envelope.Details.Action != wantAction {
			t.Fatalf("call %d: details.action %q, want %q", i, res.Envelope.Details.Action, wantAction)
		}
		// The vectors hold the seed's notices; weak-evidence warnings and
		// the completed-final advice are planls's own (evidence_notice_test.go,
		// reopen_test.go).
		if !jsonEqual(t, seedNotices(res.Notices), wantNotices[ov.ID][i]) {
			t.Fatalf("call %d: notices %v, want %v", i, res.Notices, wantNotices[ov.ID][i])
		}
		if !jsonEqual(t, res.Envelope.Details.Tasks, res.State.Tasks) || res.Envelope.Details.NextID != res.State.NextID {
			t.Fatalf("call %d: details is not the post-call snapshot", i)
		}
		st = res.State
	}
	var final struct {
		Tasks  []map[string]any `json:"tasks"`
		NextID int              `json:"nextId"`
		Plan   *struct {
			Title string `json:"title"`
		} `json:"plan"`
	}
	if err := json.Unmarshal(ov.Final, &final); err != nil {
		t.Fatal(err)
	}
	if got := rpivView(t, st.Tasks); !jsonEqual(t, got, final.Tasks) {
		t.Fatalf("final tasks:\n got  %s\n want %s", mustJSON(t, got), mustJSON(t, final.Tasks))
	}
	if st.NextID != final.NextID {
		t.Fatalf("final nextId %d, want %d", st.NextID, final.NextID)
	}
	// Plan ids differ on purpose: planls's is the markdown's sha256, rpiv's the
	// caller's UUID ("p1").
	if (final.Plan == nil) != (st.Plan == nil) || (final.Plan != nil && final.Plan.Title != st.Plan.Title) {
		t.Fatalf("final plan %+v, want %+v", st.Plan, final.Plan)
	}
	return st
}

func TestOVectors(t *testing.T) {
	v := loadVectors(t)
	for _, ov := range v.O {
		t.Run(ov.ID, func(t *testing.T) { runOVector(t, v, ov) })
	}
}

func TestReminderVector(t *testing.T) {
	v := loadVectors(t)
	if v.Reminder.State != "O16.final" {
		t.Fatalf("reminder vector is for %q", v.Reminder.State)
	}
	for _, ov := range v.O {
		if ov.ID == "O16" {
			st := runOVector(t, v, ov)
			if got := Reminder(st, nil); got != v.Reminder.Reminder {
				t.Fatalf("reminder:\n got  %q\n want %q", got, v.Reminder.Reminder)
			}
			return
		}
	}
	t.Fatal("no O16 vector")
}

func TestPlanAFixture(t *testing.T) {
	st := planAState(t)
	want := `[{"id":1,"subject":"Add the Widget","status":"pending","source":"plan","planGroup":"Work"},{"id":2,"subject":"Wire beta","status":"pending","source":"plan","planGroup":"Work","planText":"- flag --beta"},{"id":3,"subject":"make test passes","status":"pending","source":"plan","planGroup":"Verification"}]`
	var w any
	_ = json.Unmarshal([]byte(want), &w)
	if !jsonEqual(t, rpivView(t, st.Tasks), w) || st.NextID != 4 || st.Plan.Title != "Add widgets" {
		t.Fatalf("PLAN_A: %s nextId %d", mustJSON(t, rpivView(t, st.Tasks)), st.NextID)
	}
	if st.Plan.ID != PlanID([]byte(planAMarkdown)) || st.Plan.Path != "PLAN.md" || !st.Plan.ApprovedAt.Equal(testNow) {
		t.Fatalf("plan ref %+v", st.Plan)
	}
}

// PLAN_A through the real parser gives the same plan items as the
// hand-built plan the O vectors start from.
func TestPlanAParsed(t *testing.T) {
	parsed := Approve(Empty(), planparse.Parse([]byte(planAMarkdown)), []byte(planAMarkdown), "PLAN.md", testOpts()).State
	hand := planAState(t)
	// The hand-built plan has no source ranges, so every line of the text is
	// outside its items there: the records of that text differ.
	parsed.Plan.Outside, hand.Plan.Outside = "", ""
	if !jsonEqual(t, parsed, hand) {
		t.Fatalf("parsed %s\nhand %s", mustJSON(t, parsed), mustJSON(t, hand))
	}
}

// seedNotices are the seed's notices among ns: planls's own (weak evidence,
// completed-final) dropped, a deferral's cut to the seed's level and text.
func seedNotices(ns []Notice) []Notice {
	var out []Notice
	for _, n := range ns {
		switch n.Code {
		case WeakEvidenceCode, CompletedFinalCode:
		case DeferredCode:
			// The seed's notice is its level and text; the rest is planls's
			// (deferral_notice_test.go).
			out = append(out, Notice{Level: n.Level, Text: n.Text})
		default:
			out = append(out, n)
		}
	}
	return out
}
