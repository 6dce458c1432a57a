package mcp

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/planls/planls/core"
)

func TestStructuredTrim(t *testing.T) {
	many := bigTasks(maxDetailRows + 1)
	for _, tc := range []struct {
		name            string
		tasks           []core.Task
		affected, shown []int
		want            []int
		trimmed         bool
	}{
		{"small state: the affected task only", many[:3], []int{2}, nil, []int{2}, true},
		{"list rows", many, nil, []int{6, 5}, []int{5, 6}, true},
		{"changed and shown, in state order", many, []int{9, 3}, []int{4}, []int{3, 4, 9}, true},
		{"unknown ids dropped", many, nil, []int{99999}, []int{}, true},
		{"bulk capped", many, ids(1, maxDetailRows+1), nil, ids(1, maxDetailRows), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := core.Result{Envelope: coreEnvelope("x", tc.tasks), Affected: tc.affected, Shown: tc.shown}
			d := structured(res)
			got := []int{}
			for _, task := range d.Tasks {
				got = append(got, task.ID)
			}
			if !slices.Equal(got, tc.want) || d.TasksTrimmed != tc.trimmed {
				t.Fatalf("tasks %v trimmed %v; want %v %v", got, d.TasksTrimmed, tc.want, tc.trimmed)
			}
			if tc.trimmed && d.TasksInState != len(tc.tasks) {
				t.Fatalf("tasksInState %d", d.TasksInState)
			}
			b, _ := json.Marshal(d)
			var back map[string]any
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			if _, ok := back["nextId"]; !ok {
				t.Fatalf("core's fields are not flattened: %s", b)
			}
		})
	}
}

func TestStructuredNilTasksIsEmptyArray(t *testing.T) {
	b, _ := json.Marshal(structured(core.Result{}))
	var back map[string]any
	_ = json.Unmarshal(b, &back)
	if tasks, ok := back["tasks"].([]any); !ok || len(tasks) != 0 {
		t.Fatalf("tasks is %v, want []", back["tasks"])
	}
}

func bigTasks(n int) []core.Task {
	ts := make([]core.Task, n)
	for i := range ts {
		ts[i] = core.Task{ID: i + 1, Subject: "t", Status: core.Pending}
	}
	return ts
}

func coreEnvelope(text string, tasks []core.Task) core.Envelope {
	return core.Envelope{Content: []core.Content{{Type: "text", Text: text}}, Details: core.Details{Tasks: tasks}}
}

func ids(from, to int) []int {
	var out []int
	for i := from; i <= to; i++ {
		out = append(out, i)
	}
	return out
}
