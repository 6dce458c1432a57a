package mcp

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/planls/planls/core"
)

func TestStructuredTrim(t *testing.T) {
	many := make([]core.Task, trimAbove+1)
	for i := range many {
		many[i] = core.Task{ID: i + 1, Subject: "t", Status: core.Pending}
	}
	for _, tc := range []struct {
		name    string
		tasks   []core.Task
		text    string
		args    string
		want    []int
		trimmed bool
	}{
		{"small state keeps all", many[:3], "No tasks", `{"action":"list"}`, []int{1, 2, 3}, false},
		{"list rows and blockers", many, "[pending] #5 t ⛓ #7,#9\n[pending] #6 t", `{"action":"list"}`, []int{5, 6, 7, 9}, true},
		{"param ids", many, "Updated #3", `{"action":"update","id":3,"addBlockedBy":[4],"removeBlockedBy":["8"]}`, []int{3, 4, 8}, true},
		{"todo_id string and restore ids", many, "Restored 2 tasks", `{"action":"restore","todo_id":"10","ids":[11,12]}`, []int{10, 11, 12}, true},
		{"batch ops", many, "Applied 2 ops", `{"ops":[{"action":"update","id":20,"status":"completed","evidence":"x"},{"action":"get","id":21}]}`, []int{20, 21}, true},
		{"unknown ids dropped", many, "#99999 not found", `{"action":"get","id":99999}`, []int{}, true},
		{"malformed params", many, "Error: x", `[1,2`, []int{}, true},
		{"bulk text capped", many, "Deleted " + mentions(1, trimAbove+1), `{"action":"delete_all"}`, ids(1, maxDetailRows), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := core.Envelope{Content: []core.Content{{Type: "text", Text: tc.text}}, Details: core.Details{Tasks: tc.tasks, NextID: len(tc.tasks) + 1}}
			d := structured(env, json.RawMessage(tc.args))
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
	b, _ := json.Marshal(structured(core.Envelope{}, nil))
	var back map[string]any
	_ = json.Unmarshal(b, &back)
	if tasks, ok := back["tasks"].([]any); !ok || len(tasks) != 0 {
		t.Fatalf("tasks is %v, want []", back["tasks"])
	}
}

func TestActionOf(t *testing.T) {
	for args, want := range map[string]string{
		`{"action":"list"}`:           "list",
		`{"ops":[{"action":"list"}]}`: "batch",
		`{}`:                          "",
		`not json`:                    "",
	} {
		if got := actionOf(json.RawMessage(args)); got != want {
			t.Errorf("actionOf(%s) = %q, want %q", args, got, want)
		}
	}
}

func TestReadsOnly(t *testing.T) {
	for args, want := range map[string]bool{
		`{"action":"list"}`:                                      true,
		`{"action":"get","id":1}`:                                true,
		`{"ops":[{"action":"list"},{"action":"get","id":2}]}`:    true,
		`{"action":"create","subject":"x"}`:                      false,
		`{"ops":[{"action":"list"},{"action":"delete","id":2}]}`: false,
		`{"action":"list","ops":[{"action":"list"}]}`:            false,
		`{"ops":[]}`:  false,
		`{"ops":[1]}`: false,
		`{"action":"delete_all","confirm_delete_all":true}`: false,
		`{}`: false,
		`[`:  false,
	} {
		if got := readsOnly(json.RawMessage(args)); got != want {
			t.Errorf("readsOnly(%s) = %v, want %v", args, got, want)
		}
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

func mentions(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "#%d, ", i)
	}
	return b.String()
}

func ids(from, to int) []int {
	var out []int
	for i := from; i <= to; i++ {
		out = append(out, i)
	}
	return out
}
