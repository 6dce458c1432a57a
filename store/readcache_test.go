package store

import (
	"fmt"
	"os"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/planls/planls/core"
)

// oneTask is the encoded state of one task with the given subject; subjects
// of equal length give files of equal size.
func oneTask(t testing.TB, subject string) []byte {
	t.Helper()
	st := core.Empty()
	st.Revision = 1
	st.NextID = 2
	st.Tasks = []core.Task{{ID: 1, Subject: subject, Status: core.Pending, Version: 1, CreatedAt: fixedTime, UpdatedAt: fixedTime}}
	data, err := encodeState(st)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// readStep changes the state file (unless write and remove are unset), then
// reads through the store and checks the answer against a fresh
// decodeState of the same bytes and the store's decode count so far.
type readStep struct {
	write   []byte // new content of state.json
	remove  bool   // delete state.json
	decodes int64  // decodeState runs since the store was opened
}

func TestReadCache(t *testing.T) {
	a, b := oneTask(t, "aaaa"), oneTask(t, "bbbb")
	if len(a) != len(b) {
		t.Fatalf("fixtures differ in size: %d, %d", len(a), len(b))
	}
	corrupt := a[:len(a)/2]
	dupIDs := []byte(`{"version":1,"nextId":3,"tasks":[{"id":1,"subject":"x","status":"pending","version":1,"createdAt":"2026-01-02T03:04:05Z","updatedAt":"2026-01-02T03:04:05Z"},{"id":1,"subject":"y","status":"pending","version":1,"createdAt":"2026-01-02T03:04:05Z","updatedAt":"2026-01-02T03:04:05Z"}]}`)
	tests := []struct {
		name  string
		steps []readStep
	}{
		{"unchanged file is decoded once", []readStep{{write: a, decodes: 1}, {decodes: 1}, {decodes: 1}}},
		{"same-size rewrite with the same mtime is seen", []readStep{{write: a, decodes: 1}, {write: b, decodes: 2}, {decodes: 2}}},
		{"rewrite with identical bytes stays cached", []readStep{{write: a, decodes: 1}, {write: a, decodes: 1}}},
		{"one more newline is a new decode", []readStep{{write: a, decodes: 1}, {write: append(append([]byte{}, a...), '\n'), decodes: 2}}},
		{"truncated file after a good one is an error every time", []readStep{
			{write: a, decodes: 1}, {write: corrupt, decodes: 2}, {decodes: 3}, {write: a, decodes: 3}}},
		{"invalid state after a good one is an error every time", []readStep{
			{write: a, decodes: 1}, {write: dupIDs, decodes: 2}, {decodes: 3}}},
		{"empty file after a good one", []readStep{{write: a, decodes: 1}, {write: []byte{}, decodes: 2}, {decodes: 3}}},
		{"missing file after a good one is the empty state", []readStep{{write: a, decodes: 1}, {remove: true, decodes: 1}, {write: a, decodes: 1}}},
		{"one entry: going back to older bytes decodes again", []readStep{
			{write: a, decodes: 1}, {write: b, decodes: 2}, {write: a, decodes: 3}}},
	}
	mtime := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Open(t.TempDir(), "test")
			if err := os.MkdirAll(s.Dir(), 0o755); err != nil {
				t.Fatal(err)
			}
			for i, step := range tt.steps {
				switch {
				case step.remove:
					if err := os.Remove(s.StatePath()); err != nil {
						t.Fatal(err)
					}
				case step.write != nil:
					if err := os.WriteFile(s.StatePath(), step.write, 0o644); err != nil {
						t.Fatal(err)
					}
					// Same mtime for every version: only the bytes tell them apart.
					if err := os.Chtimes(s.StatePath(), mtime, mtime); err != nil {
						t.Fatal(err)
					}
				}
				want, wantErr := core.Empty(), error(nil)
				if data, err := os.ReadFile(s.StatePath()); err == nil {
					want, wantErr = decodeState(s.StatePath(), data)
				}
				got, err := s.Read()
				switch {
				case wantErr != nil:
					if err == nil || err.Error() != wantErr.Error() {
						t.Fatalf("step %d: error %v, want %v (state %v)", i, err, wantErr, got)
					}
					if got != nil {
						t.Fatalf("step %d: a state came with the error", i)
					}
				case err != nil:
					t.Fatalf("step %d: %v", i, err)
				case !reflect.DeepEqual(got, want):
					t.Fatalf("step %d: read\n%+v\nwant\n%+v", i, got, want)
				}
				if n := s.cache.decodes.Load(); n != step.decodes {
					t.Fatalf("step %d: %d decodes, want %d", i, n, step.decodes)
				}
			}
		})
	}
}

// TestReadCacheCallerOwnsState changes everything a returned state holds
// and checks that the next read, served from the cache, is untouched.
func TestReadCacheCallerOwnsState(t *testing.T) {
	s := Open(t.TempDir(), "test")
	writeState(t, s, richState(20))
	want, err := decodeState(s.StatePath(), stateBytes(t, s))
	if err != nil {
		t.Fatal(err)
	}
	for round := 0; round < 2; round++ {
		st := mustRead(t, s)
		if !reflect.DeepEqual(st, want) {
			t.Fatalf("round %d: read differs from a fresh decode", round)
		}
		st.Revision, st.NextID = 99, 99
		st.Plan.Title = "changed"
		st.Mutations[0].IDs[0] = 99
		for i := range st.Tasks {
			tk := &st.Tasks[i]
			tk.Subject = "changed"
			for _, p := range []*string{tk.Description, tk.Owner, tk.ActiveForm} {
				if p != nil {
					*p = "changed"
				}
			}
			for j := range tk.BlockedBy {
				tk.BlockedBy[j] = 99
			}
			for j := range tk.PlanScope {
				tk.PlanScope[j] = "changed"
			}
			if tags, ok := tk.Metadata["tags"].([]any); ok {
				tags[0] = "changed"
			}
			if deep, ok := tk.Metadata["deep"].(map[string]any); ok {
				deep["n"] = 99.0
			}
			if tk.Metadata != nil {
				tk.Metadata["area"] = "changed"
			}
		}
		st.Tasks = append(st.Tasks[:1], core.Task{ID: 99})
	}
	if n := s.cache.decodes.Load(); n != 1 {
		t.Fatalf("%d decodes, want 1 (the second read should be a cache hit)", n)
	}
	if st := mustRead(t, s); !reflect.DeepEqual(st, want) {
		t.Fatal("a caller's changes reached the cache")
	}
}

// TestReadCacheWritePath checks that a commit re-reads under the lock: the
// unlocked read and the locked re-read of an unchanged file cost no decode,
// and the file the commit writes is decoded by the next read.
func TestReadCacheWritePath(t *testing.T) {
	s := Open(t.TempDir(), "test")
	seed(t, s, 3)
	mustRead(t, s)
	before := s.cache.decodes.Load()
	if _, err := s.update("call", params(`{}`), fakeBump(2)); err != nil {
		t.Fatal(err)
	}
	if n := s.cache.decodes.Load(); n != before {
		t.Fatalf("commit on an unchanged file decoded %d times, want 0", n-before)
	}
	st := mustRead(t, s)
	if n := s.cache.decodes.Load(); n != before+1 {
		t.Fatalf("read after the commit decoded %d times, want 1", n-before)
	}
	if st.Tasks[1].Owner == nil || st.Tasks[1].Version != 2 {
		t.Fatalf("read after the commit misses it: %+v", st.Tasks[1])
	}
}

// TestReadCacheSeesChangeBeforeLock has another writer replace the file
// between the unlocked read and the lock: the locked re-read must see it,
// so its task survives the commit.
func TestReadCacheSeesChangeBeforeLock(t *testing.T) {
	s := Open(t.TempDir(), "test")
	seed(t, s, 1)
	other := Open(s.Root, "other")
	calls := 0
	apply := func(st *core.State) core.Result {
		calls++
		if calls == 1 {
			if _, err := other.update("call", params(`{}`), fakeCreate("from the other writer")); err != nil {
				t.Fatal(err)
			}
		}
		return fakeCreate("mine")(st)
	}
	if _, err := s.update("call", params(`{}`), apply); err != nil {
		t.Fatal(err)
	}
	st := mustRead(t, s)
	var subjects []string
	for _, tk := range st.Tasks {
		subjects = append(subjects, tk.Subject)
	}
	if want := []string{"task 1", "from the other writer", "mine"}; !reflect.DeepEqual(subjects, want) {
		t.Fatalf("tasks %q, want %q", subjects, want)
	}
}

// TestReadCacheConcurrent reads and changes returned states from several
// goroutines while commits replace the file; run with -race.
func TestReadCacheConcurrent(t *testing.T) {
	s := Open(t.TempDir(), "test")
	seed(t, s, 2)
	const readers, reads, commits = 4, 40, 10
	var wg sync.WaitGroup
	errs := make(chan error, readers+1)
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < commits; i++ {
			if _, err := s.update("call", params(`{}`), fakeCreate(fmt.Sprintf("c%d", i))); err != nil {
				errs <- err
				return
			}
		}
	}()
	for r := 0; r < readers; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < reads; i++ {
				st, err := s.Read()
				if err != nil {
					errs <- err
					return
				}
				if n := len(st.Tasks); n < 2 || n > 2+commits || st.NextID != n+1 {
					errs <- fmt.Errorf("read %d tasks with nextId %d", n, st.NextID)
					return
				}
				for j := range st.Tasks {
					st.Tasks[j].Subject = "mine"
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	st := mustRead(t, s)
	if len(st.Tasks) != 2+commits || st.Tasks[0].Subject != "task 1" {
		t.Fatalf("final state: %d tasks, first %q", len(st.Tasks), st.Tasks[0].Subject)
	}
}
