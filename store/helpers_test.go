package store

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/planls/planls/core"
)

// The store's own tests drive commits with these stand-ins for core.Call so
// that the lock, atomic replace and journal are tested on their own; the
// command-line tests run the real core through the real binary.

var fixedTime = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// fakeCreate appends a pending task with the next id, as create does.
func fakeCreate(subject string) func(*core.State) core.Result {
	return func(st *core.State) core.Result {
		next := *st
		id := st.NextID
		next.Tasks = append(slices.Clone(st.Tasks), core.Task{ID: id, Subject: subject, Status: core.Pending, Version: 1, CreatedAt: fixedTime, UpdatedAt: fixedTime})
		next.NextID++
		return core.Result{State: &next, Changed: true, Envelope: textEnvelope(fmt.Sprintf("Created #%d: %s (pending)", id, subject))}
	}
}

// fakeBump changes task id's owner (a change that does not grow the state).
func fakeBump(id int) func(*core.State) core.Result {
	return func(st *core.State) core.Result {
		next := *st
		next.Tasks = slices.Clone(st.Tasks)
		for i := range next.Tasks {
			if next.Tasks[i].ID == id {
				o := strconv.Itoa(next.Tasks[i].Version)
				next.Tasks[i].Owner = &o
				next.Tasks[i].Version++
			}
		}
		return core.Result{State: &next, Changed: true, Envelope: textEnvelope(fmt.Sprintf("Updated #%d", id))}
	}
}

// noChange answers like a read (list, get) or a rejection.
func noChange(st *core.State) core.Result {
	return core.Result{State: st, Envelope: textEnvelope("No tasks")}
}

func textEnvelope(s string) core.Envelope {
	return core.Envelope{Content: []core.Content{{Type: "text", Text: s}}}
}

func params(s string) json.RawMessage { return json.RawMessage(s) }

// mustRead reads the state or fails the test.
func mustRead(t testing.TB, s *Store) *core.State {
	t.Helper()
	st, err := s.Read()
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// stateBytes is the state file's content.
func stateBytes(t testing.TB, s *Store) []byte {
	t.Helper()
	b, err := os.ReadFile(s.StatePath())
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// seed writes n tasks through commits.
func seed(t testing.TB, s *Store, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		if _, err := s.update(context.Background(), "call", params(`{"action":"create"}`), fakeCreate(fmt.Sprintf("task %d", i+1))); err != nil {
			t.Fatal(err)
		}
	}
}

// symlinksResolve is false where filepath.EvalSymlinks cannot follow the
// links os.Symlink makes (Wine: wine_windows_test.go).
var symlinksResolve = true
