package core

import (
	"reflect"
	"slices"
	"testing"
)

// clear keeps the seed's texts, ids and snapshot, and is undone by a
// restore without ids: every task it dropped comes back as it was (a
// tombstone stays one), under a new id where its own is taken since, with
// its edges renumbered alike.
func TestClearIsRestorable(t *testing.T) {
	st := Empty()
	for _, c := range []string{
		`{"action":"create","subject":"a"}`,
		`{"action":"create","subject":"b","blockedBy":[1]}`,
		`{"action":"update","id":1,"status":"completed","evidence":"TestA passes"}`,
		`{"action":"create","subject":"c"}`,
		`{"action":"update","id":3,"status":"deferred","reason":"later"}`,
		`{"action":"create","subject":"d"}`,
		`{"action":"delete","id":4}`,
	} {
		st, _ = mustCall(t, st, c)
	}
	before := slices.Clone(st.Tasks)
	st, res := mustCall(t, st, `{"action":"clear"}`)
	if res.Envelope.Text() != "Cleared 4 tasks" || len(st.Tasks) != 0 || st.NextID != 1 || len(res.Envelope.Details.Tasks) != 0 {
		t.Fatalf("clear: %q, tasks %v, nextId %d", res.Envelope.Text(), st.Tasks, st.NextID)
	}
	if !reflect.DeepEqual(st.Cleared, before) {
		t.Fatalf("cleared archive %+v", st.Cleared)
	}
	// The seed's ids: after a clear the counter starts again.
	st, res = mustCall(t, st, `{"action":"create","subject":"new"}`)
	if res.Envelope.Text() != "Created #1: new (pending)" {
		t.Fatalf("create after clear: %q", res.Envelope.Text())
	}
	mustFail(t, st, `{"action":"restore","ids":[2]}`, "restore: #2 was cleared: restore without ids brings back everything the last clear dropped")
	st, res = mustCall(t, st, `{"action":"restore"}`)
	if want := "Restored 4 cleared tasks: #2 (pending), #3 (deferred), #4 (deleted), #5 (completed); #1 comes back as #5 (#1 is taken)"; res.Envelope.Text() != want {
		t.Fatalf("restore:\n got  %q\n want %q", res.Envelope.Text(), want)
	}
	if st.NextID != 6 || st.Cleared != nil || !slices.Equal(res.Envelope.Details.IDs, []int{2, 3, 4, 5}) {
		t.Fatalf("nextId %d, cleared %v, ids %v", st.NextID, st.Cleared, res.Envelope.Details.IDs)
	}
	if a := st.task(5); a.Subject != "a" || a.Evidence != "TestA passes" || a.Status != Completed {
		t.Errorf("#1 came back as %+v", a)
	}
	if b := st.task(2); !slices.Equal(b.BlockedBy, []int{5}) {
		t.Errorf("b's edge to a: %v", b.BlockedBy)
	}
	if c := st.task(3); c.Reason != "later" {
		t.Errorf("c lost its reason: %+v", c)
	}
	if errs, warnings := Validate(st); errs != nil || warnings != nil {
		t.Fatalf("%v %v", errs, warnings)
	}
	mustFail(t, st, `{"action":"restore"}`, "ids required for restore (there is no delete_all or clear to undo)")
}

// restore without ids undoes the last bulk removal first: a delete_all
// after a clear is undone before the clear.
func TestRestoreUndoesDeleteAllBeforeClear(t *testing.T) {
	st := planAState(t)
	st, _ = mustCall(t, st, `{"action":"create","subject":"old"}`)
	st, _ = mustCall(t, st, `{"action":"clear"}`)
	st, _ = mustCall(t, st, `{"action":"create","subject":"newer"}`)
	st, _ = mustCall(t, st, `{"action":"delete_all","confirm_delete_all":true}`)
	st, res := mustCall(t, st, `{"action":"restore"}`)
	if res.Envelope.Text() != "Restored 1 task: #5 (pending)" {
		t.Fatalf("first restore: %q", res.Envelope.Text())
	}
	_, res = mustCall(t, st, `{"action":"restore"}`)
	if res.Envelope.Text() != "Restored 1 cleared task: #4 (pending)" {
		t.Fatalf("second restore: %q", res.Envelope.Text())
	}
}

// Both branches of a merge cleared: the merged archive holds both.
func TestMergeKeepsBothClears(t *testing.T) {
	base := Empty()
	base, _ = mustCall(t, base, `{"action":"create","subject":"shared"}`)
	ours, _ := mustCall(t, base, `{"action":"create","subject":"ours"}`)
	ours, _ = mustCall(t, ours, `{"action":"clear"}`)
	theirs, _ := mustCall(t, base, `{"action":"create","subject":"theirs"}`)
	theirs, _ = mustCall(t, theirs, `{"action":"clear"}`)
	got := Merge(base, ours, theirs, MergeOptions{}).State.Cleared
	var subjects []string
	for _, c := range got {
		subjects = append(subjects, c.Subject)
	}
	if !slices.Equal(subjects, []string{"shared", "ours", "theirs"}) {
		t.Fatalf("merged archive %v", subjects)
	}
	if one := Merge(base, ours, base, MergeOptions{}).State.Cleared; !reflect.DeepEqual(one, ours.Cleared) {
		t.Fatalf("one side's clear: %v", one)
	}
}
