package core

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

// cloneFixture is a state whose every reference-typed field is set, with
// nested metadata, so a mutation through any path can be tried.
func cloneFixture() *State {
	str := func(s string) *string { return &s }
	return &State{
		Version: SchemaVersion, Revision: 7, NextID: 4,
		Plan: &PlanRef{ID: "sha256:ab", Title: "Plan", Path: "PLAN.md", ApprovedAt: testNow},
		Tasks: []Task{
			{ID: 1, Subject: "one", Status: Pending, Description: str("d"), ActiveForm: str("Doing"), Owner: str("me"),
				BlockedBy: []int{2}, Source: "plan", PlanScope: []string{"Work", "Sub"}, PlanGroup: "Sub",
				Metadata: map[string]any{"k": "v", "n": json.Number("1.50"), "list": []any{"a", map[string]any{"x": 1.0}}, "obj": map[string]any{"deep": []any{true}}},
				Version:  1, CreatedAt: testNow, UpdatedAt: testNow},
			{ID: 2, Subject: "two", Status: Completed, Evidence: "ok", Version: 2, CreatedAt: testNow, UpdatedAt: testNow},
		},
		Mutations:     []MutationKey{{Key: "k", Action: "create", Text: "Created #1", IDs: []int{1, 2}, At: testNow, Hash: "h"}},
		LastDeleteAll: []int{3},
	}
}

func TestCloneMutationsDoNotReachOriginal(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*State)
	}{
		{"top level", func(s *State) { s.Revision, s.NextID, s.Version = 99, 99, 99 }},
		{"plan", func(s *State) { s.Plan.Title = "changed" }},
		{"plan pointer", func(s *State) { s.Plan = nil }},
		{"task field", func(s *State) { s.Tasks[0].Subject = "changed" }},
		{"task status", func(s *State) { s.Tasks[1].Status = Deleted }},
		{"append task", func(s *State) { s.Tasks = append(s.Tasks[:1], Task{ID: 9}) }},
		{"description", func(s *State) { *s.Tasks[0].Description = "changed" }},
		{"active form", func(s *State) { *s.Tasks[0].ActiveForm = "changed" }},
		{"owner", func(s *State) { *s.Tasks[0].Owner = "changed" }},
		{"blockedBy", func(s *State) { s.Tasks[0].BlockedBy[0] = 5 }},
		{"planScope", func(s *State) { s.Tasks[0].PlanScope[1] = "changed" }},
		{"metadata key", func(s *State) { s.Tasks[0].Metadata["k"] = "changed" }},
		{"metadata delete", func(s *State) { delete(s.Tasks[0].Metadata, "n") }},
		{"metadata array", func(s *State) { s.Tasks[0].Metadata["list"].([]any)[0] = "changed" }},
		{"metadata object in array", func(s *State) {
			s.Tasks[0].Metadata["list"].([]any)[1].(map[string]any)["x"] = 2.0
		}},
		{"metadata nested object", func(s *State) { s.Tasks[0].Metadata["obj"].(map[string]any)["deep"].([]any)[0] = false }},
		{"mutation key", func(s *State) { s.Mutations[0].Text = "changed" }},
		{"mutation ids", func(s *State) { s.Mutations[0].IDs[1] = 9 }},
		{"lastDeleteAll", func(s *State) { s.LastDeleteAll[0] = 9 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			orig := cloneFixture()
			c := orig.Clone()
			if !reflect.DeepEqual(c, orig) {
				t.Fatalf("clone differs from original:\n%s\n%s", mustJSON(t, c), mustJSON(t, orig))
			}
			tt.mutate(c)
			if !reflect.DeepEqual(orig, cloneFixture()) {
				t.Fatalf("mutating the clone changed the original:\n%s", mustJSON(t, orig))
			}
			// And the other way: the clone does not see the original's changes.
			orig2 := cloneFixture()
			c2 := orig2.Clone()
			tt.mutate(orig2)
			if !reflect.DeepEqual(c2, cloneFixture()) {
				t.Fatalf("mutating the original changed the clone:\n%s", mustJSON(t, c2))
			}
		})
	}
}

// TestCloneKeepsNilAndEmpty checks that nil and empty stay distinct, since
// they encode differently ("tasks": null vs []).
func TestCloneKeepsNilAndEmpty(t *testing.T) {
	tests := []struct {
		name string
		st   *State
	}{
		{"nil state", nil},
		{"empty state", Empty()},
		{"nil tasks", &State{Version: 1, NextID: 1}},
		{"empty slices and map", &State{Tasks: []Task{{ID: 1, BlockedBy: []int{}, PlanScope: []string{}, Metadata: map[string]any{}}},
			Mutations: []MutationKey{{IDs: []int{}}}, LastDeleteAll: []int{}}},
		{"empty nested metadata", &State{Tasks: []Task{{ID: 1, Metadata: map[string]any{"a": []any{}, "o": map[string]any{}, "z": nil}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.st.Clone()
			if !reflect.DeepEqual(c, tt.st) {
				t.Fatalf("clone %#v, want %#v", c, tt.st)
			}
			if tt.st != nil && mustJSON(t, c) != mustJSON(t, tt.st) {
				t.Fatalf("clone encodes as %s, want %s", mustJSON(t, c), mustJSON(t, tt.st))
			}
		})
	}
}

// TestCloneSharesNoMemory fills every field of a State by reflection and
// checks that the clone shares no pointer, slice array or map with it, so a
// reference-typed field added to State, Task, PlanRef or MutationKey later
// fails here until Clone copies it.
func TestCloneSharesNoMemory(t *testing.T) {
	orig := new(State)
	fillValue(reflect.ValueOf(orig).Elem(), 0)
	c := orig.Clone()
	if !reflect.DeepEqual(c, orig) {
		t.Fatalf("clone differs from original:\n%s\n%s", mustJSON(t, c), mustJSON(t, orig))
	}
	assertNoShared(t, "State", reflect.ValueOf(orig).Elem(), reflect.ValueOf(c).Elem())
}

var timeType = reflect.TypeOf(time.Time{})

// fillValue sets v (and everything it reaches) to non-zero values; metadata
// interfaces get a nested object so the walk has depth to check.
func fillValue(v reflect.Value, depth int) {
	switch v.Kind() {
	case reflect.Struct:
		if v.Type() == timeType {
			v.Set(reflect.ValueOf(testNow))
			return
		}
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fillValue(v.Field(i), depth+1)
			}
		}
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fillValue(v.Elem(), depth+1)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := 0; i < 2; i++ {
			fillValue(v.Index(i), depth+1)
		}
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		k := reflect.New(v.Type().Key()).Elem()
		fillValue(k, depth+1)
		e := reflect.New(v.Type().Elem()).Elem()
		fillValue(e, depth+1)
		v.SetMapIndex(k, e)
	case reflect.Interface:
		v.Set(reflect.ValueOf(map[string]any{"arr": []any{"s", map[string]any{"n": 1.0}}}))
	case reflect.String:
		v.SetString("x")
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(depth + 1))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Float64:
		v.SetFloat(1)
	}
}

// assertNoShared fails when a and b (equal values) share mutable memory.
func assertNoShared(t *testing.T, path string, a, b reflect.Value) {
	t.Helper()
	switch a.Kind() {
	case reflect.Struct:
		if a.Type() == timeType {
			return // immutable value; its *Location is shared by design
		}
		for i := 0; i < a.NumField(); i++ {
			if a.Type().Field(i).IsExported() {
				assertNoShared(t, path+"."+a.Type().Field(i).Name, a.Field(i), b.Field(i))
			}
		}
	case reflect.Pointer:
		if !a.IsNil() && a.Pointer() == b.Pointer() {
			t.Errorf("%s: pointer shared", path)
			return
		}
		if !a.IsNil() {
			assertNoShared(t, path, a.Elem(), b.Elem())
		}
	case reflect.Slice:
		if a.Len() > 0 && a.Pointer() == b.Pointer() {
			t.Errorf("%s: slice array shared", path)
			return
		}
		for i := 0; i < a.Len(); i++ {
			assertNoShared(t, path+"[]", a.Index(i), b.Index(i))
		}
	case reflect.Map:
		if !a.IsNil() && a.Pointer() == b.Pointer() {
			t.Errorf("%s: map shared", path)
			return
		}
		for _, k := range a.MapKeys() {
			assertNoShared(t, path+"[k]", a.MapIndex(k), b.MapIndex(k))
		}
	case reflect.Interface:
		if !a.IsNil() {
			assertNoShared(t, path, a.Elem(), b.Elem())
		}
	}
}

func BenchmarkClone(b *testing.B) {
	st := cloneFixture()
	for len(st.Tasks) < 3000 {
		st.Tasks = append(st.Tasks, st.Tasks[:2]...)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = st.Clone()
	}
}
