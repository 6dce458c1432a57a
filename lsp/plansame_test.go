package lsp

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/planls/planls/verify"
)

// TestSamePlanSeesEveryField: samePlan, which decides planls/stateChanged,
// tells two answers apart that differ in any one field of the answer, of
// a group or of an item (an evidence reference's commit and the answer's
// revision, which counts these changes, aside), so a field added to
// planls/plan cannot be left out of it.
func TestSamePlanSeesEveryField(t *testing.T) {
	base := func() *planResult {
		return &planResult{Root: "file:///r", PlanURI: "file:///r/PLAN.md", Exists: true, Title: "T", Open: 1, Total: 2,
			Groups: []planGroup{{Name: "G", Items: []planItem{{ID: 1, Subject: "s", Status: "completed", BlockedBy: []int{2},
				Evidence: "e", Range: &protocol.Range{}, Verify: &itemVerify{State: "verified"},
				EvidenceRefs: []evidenceRef{{Kind: "file", Text: "a.go"}}}}}}}
	}
	if !samePlan(base(), base()) {
		t.Fatal("equal answers differ")
	}
	changed := func(v reflect.Value) {
		switch v.Kind() {
		case reflect.String:
			v.SetString(v.String() + "x")
		case reflect.Int, reflect.Int64:
			v.SetInt(v.Int() + 1)
		case reflect.Bool:
			v.SetBool(!v.Bool())
		case reflect.Slice:
			v.Set(reflect.Append(v, reflect.New(v.Type().Elem()).Elem()))
		case reflect.Ptr:
			switch v.Interface().(type) {
			case *protocol.Range:
				v.Set(reflect.ValueOf(&protocol.Range{End: protocol.Position{Line: 9}}))
			case *itemVerify:
				v.Set(reflect.ValueOf(&itemVerify{State: "failed"}))
			default:
				t.Fatalf("no change for a %s", v.Type())
			}
		default:
			t.Fatalf("no change for a %s", v.Kind())
		}
	}
	check := func(what string, field func(*planResult) reflect.Value) {
		for i := 0; i < field(base()).NumField(); i++ {
			a := base()
			name := field(a).Type().Field(i).Name
			if what == "planResult" && (name == "Groups" || name == "Revision") || what == "evidenceRef" && name == "Commit" {
				continue
			}
			changed(field(a).Field(i))
			if samePlan(base(), a) {
				t.Errorf("%s.%s changed, samePlan says the same", what, name)
			}
		}
	}
	check("planResult", func(r *planResult) reflect.Value { return reflect.ValueOf(r).Elem() })
	check("planGroup", func(r *planResult) reflect.Value { return reflect.ValueOf(&r.Groups[0]).Elem() })
	check("planItem", func(r *planResult) reflect.Value { return reflect.ValueOf(&r.Groups[0].Items[0]).Elem() })
	check("evidenceRef", func(r *planResult) reflect.Value {
		return reflect.ValueOf(&r.Groups[0].Items[0].EvidenceRefs[0]).Elem()
	})
	a := base()
	a.Groups[0].Items[0].EvidenceRefs[0].Commit = &verify.Commit{}
	if !samePlan(base(), a) {
		t.Error("a reference's commit alone changed the answer")
	}
}

// TestPlanJSONIsEncodingJSON: planls/plan's encoder writes the bytes
// encoding/json writes for the answer, hostile text included (HTML
// characters, control characters, U+2028, invalid UTF-8) and a commit's
// date.
func TestPlanJSONIsEncodingJSON(t *testing.T) {
	odd := "a <b> & \"c\" \\ \x01\t\n \u2028\u2029 \xff\xfe é 🎉"
	res := &planResult{Root: "file:///r/" + odd, PlanURI: "file:///r/PLAN.md", Exists: true, Title: odd, Open: 1, Total: 2,
		StateError: odd, Groups: []planGroup{{Name: odd, Items: []planItem{
			{ID: 1, Subject: odd, Status: "completed", BlockedBy: []int{2, 3}, Evidence: odd, Reason: odd, Owner: odd,
				ActiveForm: odd, Drift: "same", Range: &protocol.Range{End: protocol.Position{Line: 4, Character: 7}},
				Verify: &itemVerify{State: "failed", Reason: odd, Weak: true},
				EvidenceRefs: []evidenceRef{{Kind: "commit", Text: odd, State: "verified", Detail: odd, URI: odd, Line: 3,
					Commit: &verify.Commit{ID: "abc", Subject: odd, Date: time.Date(2026, 1, 2, 3, 4, 5, 6, time.FixedZone("x", 3600)), OnHEAD: true}}}},
			{Status: "draft", BlockedBy: []int{}, EvidenceRefs: []evidenceRef{}},
		}}, {Name: "", Items: []planItem{}}}}
	want, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	if got := encodePlan(res); !bytes.Equal(got, want) {
		t.Errorf("encodePlan:\n%s\nencoding/json:\n%s", got, want)
	}
	empty := &planResult{Groups: []planGroup{}}
	want, _ = json.Marshal(empty)
	if got := encodePlan(empty); !bytes.Equal(got, want) {
		t.Errorf("empty answer: %s, want %s", got, want)
	}
}

// TestStateChangedFollowsThePlan: a keystroke sends planls/stateChanged
// when what planls/plan answers changed (an item moved or its subject
// changed: swap sees it from the items' ranges without making the answer)
// and not when it did not (another word in prose that already needs
// re-approval, no line moved). planls/plan then answers with the revision
// of the last one, which a sidebar compares to skip asking again.
func TestStateChangedFollowsThePlan(t *testing.T) {
	e, _, u := approved(t)
	text := basicPlan(t)
	steps := []struct {
		name, text string
		changed    bool
	}{
		{"a word in the summary (the plan needs re-approval)", strings.Replace(text, "everyone else.", "everyone else, often.", 1), true},
		{"another word there", strings.Replace(text, "everyone else.", "everyone else, daily.", 1), false},
		{"a line above every item", strings.Replace(text, "## Summary\n", "## Summary\nA new line.\n", 1), true},
		{"the same line count, a subject longer", strings.Replace(text, "keyed by API key\n", "keyed by the API key\n", 1), true},
		{"back to the text", text, true},
		{"again the same", text, false},
	}
	for i, st := range steps {
		before := len(e.notesOf("planls/stateChanged"))
		e.change(u, i+2, st.text)
		e.settle(u)
		notes := e.notesOf("planls/stateChanged")
		if got := len(notes) > before; got != st.changed {
			t.Errorf("%s: planls/stateChanged sent %v, want %v", st.name, got, st.changed)
		}
		var answer struct{ Revision int64 }
		e.call("planls/plan", map[string]any{}, &answer)
		last := revisionOf(t, notes[len(notes)-1])
		if answer.Revision != last || st.changed && revisionOf(t, notes[len(notes)-2]) >= last {
			t.Errorf("%s: planls/plan revision %d, planls/stateChanged %d after %d (they must rise)",
				st.name, answer.Revision, last, revisionOf(t, notes[len(notes)-2]))
		}
	}
}

func revisionOf(t *testing.T, n note) int64 {
	var p struct{ Revision int64 }
	if err := json.Unmarshal(n.params, &p); err != nil {
		t.Fatal(err)
	}
	return p.Revision
}
