package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/tools/txtar"

	"github.com/planls/planls/core"
	"github.com/planls/planls/store"
)

func TestToolsList(t *testing.T) {
	cs := connect(t, Options{Root: newProject(t)})
	res, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 1 || res.Tools[0].Name != "todo" {
		t.Fatalf("want the one tool todo, got %+v", res.Tools)
	}
	tool := res.Tools[0]
	for _, rule := range []string{`{"action":"list"}`, "exactly one item in_progress", "evidence", "deferred", "never deleted", "confirm_delete_all"} {
		if !strings.Contains(tool.Description, rule) {
			t.Errorf("description does not tell the agent %q", rule)
		}
	}
	schema, _ := json.Marshal(tool.InputSchema)
	var s struct {
		Type       string                    `json:"type"`
		Required   []string                  `json:"required"`
		Properties map[string]map[string]any `json:"properties"`
	}
	if err := json.Unmarshal(schema, &s); err != nil {
		t.Fatal(err)
	}
	if s.Type != "object" || len(s.Required) != 0 {
		t.Errorf("schema type %q required %v; want an object requiring nothing (action or ops)", s.Type, s.Required)
	}
	seed000 := []string{"action", "ops", "id", "subject", "blockedBy", "description", "activeForm", "owner", "metadata",
		"evidence", "reason", "addBlockedBy", "removeBlockedBy", "status", "includeDeleted"}
	seed003 := []string{"todo_id", "ids", "content", "title", "priority", "due_at", "note", "item_status", "due_before",
		"search", "query", "limit", "cursor", "owner_timezone", "client_mutation_id", "expected_version",
		"confirm_delete_all", "project_id"}
	for _, f := range append(seed000, seed003...) {
		if _, ok := s.Properties[f]; !ok {
			t.Errorf("input schema lacks %q", f)
		}
	}
	actions, _ := s.Properties["action"]["enum"].([]any)
	for _, a := range []string{"create", "update", "complete", "list", "get", "delete", "clear", "delete_all", "restore"} {
		if !slices.Contains(actions, any(a)) {
			t.Errorf("action enum lacks %q: %v", a, actions)
		}
	}
	items, _ := s.Properties["ops"]["items"].(map[string]any)
	opProps, _ := items["properties"].(map[string]any)
	if _, ok := opProps["evidence"]; !ok {
		t.Errorf("ops items do not describe an op's fields: %v", items)
	}
}

// TestSeedVectors replays rpiv-todo's tool-call vectors (testdata/mcp/o*.txtar,
// copied from testdata/core/vectors.json) through a real MCP client: the texts must
// come back exactly, and rejections as isError results.
func TestSeedVectors(t *testing.T) {
	files, err := filepath.Glob("../testdata/mcp/o*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no vectors: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			cs := connect(t, Options{Root: newProject(t)})
			for i := 0; i+1 < len(ar.Files); i += 2 {
				c, w := ar.Files[i], ar.Files[i+1]
				if !strings.HasSuffix(c.Name, ".call") || w.Name != strings.TrimSuffix(c.Name, ".call")+".want" {
					t.Fatalf("bad pair %s, %s", c.Name, w.Name)
				}
				args := strings.TrimSpace(string(c.Data))
				want := strings.TrimSuffix(string(w.Data), "\n")
				got := call(t, cs, args)
				if got.Text != want {
					t.Errorf("%s %s:\n got %q\nwant %q", c.Name, args, got.Text, want)
				}
				if wantErr := strings.HasPrefix(want, "Error: "); got.IsError != wantErr {
					t.Errorf("%s: isError %v, want %v", c.Name, got.IsError, wantErr)
				}
			}
		})
	}
}

func TestReadOnlyToolListing(t *testing.T) {
	for _, ro := range []bool{false, true} {
		res, err := connect(t, Options{Root: newProject(t), ReadOnly: ro}).ListTools(t.Context(), nil)
		if err != nil {
			t.Fatal(err)
		}
		tool := res.Tools[0]
		if got := strings.HasPrefix(tool.Description, readOnlyNote); got != ro {
			t.Errorf("read-only %v: description starts with the read-only note: %v", ro, got)
		}
		if tool.Annotations == nil || tool.Annotations.ReadOnlyHint != ro || tool.Annotations.DestructiveHint == nil || *tool.Annotations.DestructiveHint == ro {
			t.Errorf("read-only %v: annotations %+v", ro, tool.Annotations)
		}
	}
}

func TestEmptyArgumentsIsToolError(t *testing.T) {
	cs := connect(t, Options{Root: newProject(t)})
	res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: toolName})
	if err != nil {
		t.Fatalf("protocol error for a call without arguments: %v", err)
	}
	got := decodeResult(t, res)
	if !got.IsError || got.Text != "Error: action required (or pass ops)" {
		t.Fatalf("got %+v", got)
	}
}

func TestCompleteAction(t *testing.T) {
	root := newProject(t)
	cs := connect(t, Options{Root: root})
	call(t, cs, `{"action":"create","subject":"a"}`)
	call(t, cs, `{"action":"create","subject":"b"}`)
	if got := call(t, cs, `{"action":"complete","id":1}`); !got.IsError || !strings.Contains(got.Text, "evidence required") {
		t.Fatalf("complete without evidence: %+v", got)
	}
	if got := call(t, cs, `{"action":"complete","id":1,"evidence":"go test ./... ok"}`); got.IsError {
		t.Fatalf("complete: %s", got.Text)
	}
	if got := call(t, cs, `{"action":"complete","todo_id":"2","evidence":"manual check"}`); got.IsError {
		t.Fatalf("complete by todo_id: %s", got.Text)
	}
	st := readState(t, root)
	for id, ev := range map[int]string{1: "go test ./... ok", 2: "manual check"} {
		if task := taskByID(t, st, id); task.Status != core.Completed || task.Evidence != ev {
			t.Errorf("#%d: %s %q", id, task.Status, task.Evidence)
		}
	}
}

func TestIdempotentRetry(t *testing.T) {
	root := newProject(t)
	cs := connect(t, Options{Root: root})
	create := `{"action":"create","content":"Review the MCP scope matrix","client_mutation_id":"task-review-scope-001","due_at":"2026-08-25T09:00:00Z"}`
	first := call(t, cs, create)
	if first.IsError || first.Text != "Created #1: Review the MCP scope matrix (pending)" {
		t.Fatalf("create: %+v", first)
	}
	again := call(t, cs, create)
	if again.IsError || again.Text != first.Text {
		t.Fatalf("retry answered %q, want the first result %q", again.Text, first.Text)
	}
	update := `{"action":"update","id":1,"status":"in_progress","client_mutation_id":"start-1"}`
	u1 := call(t, cs, update)
	u2 := call(t, cs, update)
	if u1.IsError || u1.Text != "Updated #1 (pending → in_progress)" || u2.Text != u1.Text {
		t.Fatalf("update then retry: %q, %q", u1.Text, u2.Text)
	}
	st := readState(t, root)
	if st.NextID != 2 || len(st.Tasks) != 1 {
		t.Fatalf("retries applied twice: nextId %d, %d tasks", st.NextID, len(st.Tasks))
	}
	if task := taskByID(t, st, 1); task.DueAt != "2026-08-25T09:00:00Z" || task.Status != core.InProgress {
		t.Fatalf("task %+v", task)
	}
}

func TestExpectedVersion(t *testing.T) {
	root := newProject(t)
	cs := connect(t, Options{Root: root})
	call(t, cs, `{"action":"create","subject":"a"}`)
	v := taskByID(t, readState(t, root), 1).Version
	if v < 1 {
		t.Fatalf("a new task has version %d, want a positive version", v)
	}
	ok := call(t, cs, fmt.Sprintf(`{"action":"update","id":1,"note":"first","expected_version":%d}`, v))
	if ok.IsError {
		t.Fatalf("update at the current version: %s", ok.Text)
	}
	before, _ := os.ReadFile(filepath.Join(root, ".planls", "state.json"))
	stale := call(t, cs, fmt.Sprintf(`{"action":"update","id":1,"note":"second","expected_version":%d}`, v))
	if !stale.IsError || !strings.Contains(stale.Text, "version") {
		t.Fatalf("stale expected_version accepted: %+v", stale)
	}
	after, _ := os.ReadFile(filepath.Join(root, ".planls", "state.json"))
	if string(before) != string(after) {
		t.Fatal("a rejected update changed the state file")
	}
	if task := taskByID(t, readState(t, root), 1); task.Note != "first" || task.Version != v+1 {
		t.Fatalf("task after conflict: note %q version %d", task.Note, task.Version)
	}
}

func TestDeleteAllAndRestore(t *testing.T) {
	root := newProject(t)
	cs := connect(t, Options{Root: root})
	call(t, cs, `{"action":"create","subject":"a"}`)
	call(t, cs, `{"action":"create","subject":"b"}`)
	call(t, cs, `{"action":"update","id":2,"status":"in_progress"}`)
	for _, args := range []string{`{"action":"delete_all"}`, `{"action":"delete_all","confirm_delete_all":false}`} {
		if got := call(t, cs, args); !got.IsError || !strings.Contains(got.Text, "confirm_delete_all") {
			t.Fatalf("%s: %+v", args, got)
		}
	}
	if got := call(t, cs, `{"action":"list"}`); got.Text != "[pending] #1 a\n[in_progress] #2 b" {
		t.Fatalf("unconfirmed delete_all changed the list: %q", got.Text)
	}
	if got := call(t, cs, `{"action":"delete_all","confirm_delete_all":true}`); got.IsError {
		t.Fatalf("confirmed delete_all: %s", got.Text)
	}
	if got := call(t, cs, `{"action":"list"}`); got.Text != "No tasks" {
		t.Fatalf("after delete_all list is %q", got.Text)
	}
	if got := call(t, cs, `{"action":"restore"}`); got.IsError {
		t.Fatalf("restore: %s", got.Text)
	}
	if got := call(t, cs, `{"action":"list"}`); got.Text != "[pending] #1 a\n[in_progress] #2 b" {
		t.Fatalf("restore did not bring back the tasks with their status: %q", got.Text)
	}
}

func TestRestoreByIDs(t *testing.T) {
	cs := connect(t, Options{Root: newProject(t)})
	call(t, cs, `{"action":"create","subject":"a"}`)
	call(t, cs, `{"action":"create","subject":"b"}`)
	call(t, cs, `{"action":"delete_all","confirm_delete_all":true}`)
	if got := call(t, cs, `{"action":"restore","ids":[2]}`); got.IsError {
		t.Fatalf("restore ids: %s", got.Text)
	}
	if got := call(t, cs, `{"action":"list"}`); got.Text != "[pending] #2 b" {
		t.Fatalf("list after restoring #2: %q", got.Text)
	}
}

func TestNoDeleteAll(t *testing.T) {
	root := newProject(t)
	cs := connect(t, Options{Root: root, NoDeleteAll: true})
	call(t, cs, `{"action":"create","subject":"a"}`)
	if got := call(t, cs, `{"action":"delete_all","confirm_delete_all":true}`); !got.IsError {
		t.Fatalf("--no-delete-all allowed delete_all: %s", got.Text)
	}
	if task := taskByID(t, readState(t, root), 1); task.Status != core.Pending {
		t.Fatalf("task is %s", task.Status)
	}
}

func TestReadOnly(t *testing.T) {
	root := newProject(t)
	rw := connect(t, Options{Root: root})
	call(t, rw, `{"action":"create","subject":"a"}`)
	statePath := filepath.Join(root, ".planls", "state.json")
	before, err := os.ReadFile(statePath)
	if err != nil {
		t.Fatal(err)
	}
	ro := connect(t, Options{Root: root, ReadOnly: true})
	if got := call(t, ro, `{"action":"list"}`); got.IsError || got.Text != "[pending] #1 a" {
		t.Fatalf("read-only list: %+v", got)
	}
	if got := call(t, ro, `{"action":"get","id":1}`); got.IsError || !strings.HasPrefix(got.Text, "#1 [pending] a") {
		t.Fatalf("read-only get: %+v", got)
	}
	for _, args := range []string{
		`{"action":"create","subject":"b"}`,
		`{"action":"update","id":1,"status":"in_progress"}`,
		`{"action":"complete","id":1,"evidence":"x"}`,
		`{"action":"delete","id":1}`,
		`{"action":"clear"}`,
		`{"action":"delete_all","confirm_delete_all":true}`,
		`{"action":"restore"}`,
		`{"ops":[{"action":"list"},{"action":"create","subject":"c"}]}`,
	} {
		got := call(t, ro, args)
		if !got.IsError || !strings.Contains(strings.ToLower(got.Text), "read-only") {
			t.Errorf("read-only server answered %s with %q; want an authorization error naming read-only", args, got.Text)
		}
	}
	after, _ := os.ReadFile(statePath)
	if string(before) != string(after) {
		t.Fatal("read-only server changed the state file")
	}
}

func TestReadOnlyNeverCreatesState(t *testing.T) {
	root := newProject(t)
	ro := connect(t, Options{Root: root, ReadOnly: true})
	call(t, ro, `{"action":"create","subject":"b"}`)
	call(t, ro, `{"action":"list"}`)
	if _, err := os.Stat(filepath.Join(root, ".planls")); !os.IsNotExist(err) {
		t.Fatalf("read-only server created .planls: %v", err)
	}
}

func TestProjectID(t *testing.T) {
	root := newProject(t)
	id := store.ProjectID(root)
	if id == "" {
		t.Fatal("store.ProjectID returned nothing")
	}
	cs := connect(t, Options{Root: root})
	if got := call(t, cs, fmt.Sprintf(`{"action":"create","subject":"a","project_id":%q}`, id)); got.IsError {
		t.Fatalf("matching project_id refused: %s", got.Text)
	}
	other := newProject(t)
	got := call(t, cs, fmt.Sprintf(`{"action":"create","subject":"b","project_id":%q}`, store.ProjectID(other)))
	if !got.IsError || !strings.Contains(got.Text, "project_id") {
		t.Fatalf("foreign project_id: %+v", got)
	}
	if got := call(t, cs, `{"action":"list","project_id":"nope"}`); !got.IsError {
		t.Fatalf("unknown project_id on list: %+v", got)
	}
	if st := readState(t, root); len(st.Tasks) != 1 {
		t.Fatalf("%d tasks; a refused call changed the state", len(st.Tasks))
	}
}

// bigState writes a valid state of n pending tasks straight to disk, as a
// long-lived project would have.
func bigState(t testing.TB, root string, n int) {
	t.Helper()
	st := core.Empty()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for i := 1; i <= n; i++ {
		st.Tasks = append(st.Tasks, core.Task{ID: i, Subject: fmt.Sprintf("task number %d with a longer subject line", i),
			Status: core.Pending, Version: 1, CreatedAt: at, UpdatedAt: at})
	}
	st.NextID = n + 1
	st.Revision = 1
	b, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, ".planls"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".planls", "state.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// rowIDs returns the ids of list rows ("[pending] #12 ...") in text order.
func rowIDs(text string) []int {
	var ids []int
	for _, line := range strings.Split(text, "\n") {
		var status string
		var id int
		if _, err := fmt.Sscanf(line, "[%s #%d", &status, &id); err == nil {
			ids = append(ids, id)
		}
	}
	return ids
}

func TestPagingLargeState(t *testing.T) {
	root := newProject(t)
	bigState(t, root, 3000)
	cs := connect(t, Options{Root: root})
	const maxResult = 32 << 10
	seen := map[int]bool{}
	cursor := ""
	for page := 0; page < 3; page++ {
		args := `{"action":"list"}`
		if cursor != "" {
			args = fmt.Sprintf(`{"action":"list","cursor":%q}`, cursor)
		}
		got := call(t, cs, args)
		if got.IsError {
			t.Fatalf("page %d: %s", page, got.Text)
		}
		if len(got.Raw) > maxResult {
			t.Fatalf("page %d is %d bytes, want at most %d", page, len(got.Raw), maxResult)
		}
		ids := rowIDs(got.Text)
		if len(ids) != 20 {
			t.Fatalf("page %d has %d rows, want the default 20:\n%s", page, len(ids), got.Text)
		}
		for _, id := range ids {
			if seen[id] {
				t.Fatalf("#%d on two pages", id)
			}
			seen[id] = true
		}
		if got.Details.Total == nil || *got.Details.Total != 3000 || got.Details.NextCursor == "" {
			t.Fatalf("page %d: total %v nextCursor %q", page, got.Details.Total, got.Details.NextCursor)
		}
		if !got.Details.TasksTrimmed || got.Details.TasksInState != 3000 || len(got.Details.Tasks) != 20 {
			t.Fatalf("page %d: details.tasks %d rows, trimmed %v of %d", page, len(got.Details.Tasks), got.Details.TasksTrimmed, got.Details.TasksInState)
		}
		for i, task := range got.Details.Tasks {
			if task.ID != ids[i] {
				t.Fatalf("details.tasks[%d] is #%d, the page shows #%d", i, task.ID, ids[i])
			}
		}
		cursor = got.Details.NextCursor
	}
	if got := call(t, cs, `{"action":"list","limit":5}`); len(rowIDs(got.Text)) != 5 {
		t.Fatalf("limit 5 gave:\n%s", got.Text)
	}
	// The largest page core allows stays within the page budget: fewer
	// rows, and the cursor goes on after the last one.
	got200 := call(t, cs, `{"action":"list","limit":200}`)
	n200 := len(rowIDs(got200.Text))
	if got200.IsError || n200 >= 200 || n200 < 50 || len(got200.Raw) > pageBytes || got200.Details.NextCursor == "" {
		t.Fatalf("limit 200: %d rows, %d bytes", n200, len(got200.Raw))
	}
	if !strings.Contains(got200.Text, fmt.Sprintf("(1-%d of 3000 shown;", n200)) || fmt.Sprint(got200.Details.Params) != "map[action:list limit:200]" {
		t.Fatalf("limit 200 page: params %s, text ends %q", got200.Details.Params, got200.Text[len(got200.Text)-80:])
	}
	if got := call(t, cs, `{"action":"list","limit":100000}`); !got.IsError {
		t.Fatalf("an unbounded page was served: %d bytes", len(got.Raw))
	}
	got := call(t, cs, `{"action":"update","id":2999,"status":"in_progress"}`)
	if got.IsError || len(got.Raw) > maxResult {
		t.Fatalf("update in a large state: %d bytes, %s", len(got.Raw), got.Text)
	}
	if len(got.Details.Tasks) != 1 || got.Details.Tasks[0].ID != 2999 || got.Details.Tasks[0].Status != core.InProgress {
		t.Fatalf("update's details.tasks: %+v", got.Details.Tasks)
	}
	if got.Details.NextID != 3001 {
		t.Fatalf("nextId %d", got.Details.NextID)
	}
	// Bulk changes of the whole state answer in bounded size too.
	for _, args := range []string{
		`{"action":"get","id":1500}`,
		`{"action":"delete_all","confirm_delete_all":true}`,
		`{"action":"list","includeDeleted":true,"item_status":"all"}`,
		`{"action":"restore"}`,
		`{"action":"clear"}`,
	} {
		got := call(t, cs, args)
		if got.IsError || len(got.Raw) > 4*maxResult || len(got.Details.Tasks) > maxDetailRows {
			t.Errorf("%s: %d bytes, %d detail rows: %.200s", args, len(got.Raw), len(got.Details.Tasks), got.Text)
		}
		t.Logf("%s: %d bytes", args, len(got.Raw))
	}
}

func TestSmallStateCarriesAffectedTasks(t *testing.T) {
	cs := connect(t, Options{Root: newProject(t)})
	call(t, cs, `{"action":"create","subject":"a"}`)
	got := call(t, cs, `{"action":"create","subject":"b"}`)
	if !got.Details.TasksTrimmed || got.Details.TasksInState != 2 || len(got.Details.Tasks) != 1 ||
		got.Details.Tasks[0].Subject != "b" || got.Details.Action != "create" || got.Details.NextID != 3 {
		t.Fatalf("details %+v", got.Details)
	}
}

func TestCorruptStateIsToolErrorAndKept(t *testing.T) {
	root := newProject(t)
	path := filepath.Join(root, ".planls", "state.json")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	corrupt := []byte("{\"version\":1,\"tasks\":[{\"id\":1,")
	if err := os.WriteFile(path, corrupt, 0o644); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, Options{Root: root})
	for _, args := range []string{`{"action":"list"}`, `{"action":"create","subject":"a"}`} {
		got := call(t, cs, args)
		if !got.IsError || !strings.Contains(got.Text, "state.json") {
			t.Errorf("%s on a corrupt state: %+v", args, got)
		}
	}
	if b, _ := os.ReadFile(path); string(b) != string(corrupt) {
		t.Fatal("the corrupt state file was overwritten")
	}
}

// TestMalformedArgumentsAreToolErrors: whatever the arguments' shape, the
// answer is an isError tool result naming the problem, never a protocol
// error, and the state is untouched.
func TestMalformedArgumentsAreToolErrors(t *testing.T) {
	root := newProject(t)
	cs := connect(t, Options{Root: root})
	call(t, cs, `{"action":"create","subject":"keep me"}`)
	for _, args := range []string{`[1,2]`, `"list"`, `42`, `true`, `{"action":5}`, `{"action":"nope"}`, `{"ops":"x"}`,
		`{"ops":[1]}`, `{"action":"update","id":"one","status":"completed"}`, `{"action":"list","limit":-1}`,
		`{"action":"create","subject":"` + strings.Repeat(`\u0000\ufffd`, 100) + `","blockedBy":[1e30]}`} {
		res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: toolName, Arguments: json.RawMessage(args)})
		if err != nil {
			t.Errorf("%.60s: protocol error %v", args, err)
			continue
		}
		got := decodeResult(t, res)
		if !got.IsError || !strings.HasPrefix(got.Text, "Error: ") {
			t.Errorf("%.60s: answered %q", args, got.Text)
		}
	}
	if st := readState(t, root); len(st.Tasks) != 1 || st.Tasks[0].Subject != "keep me" {
		t.Fatalf("state changed: %+v", st.Tasks)
	}
}

// TestIdempotentRetryAcrossSessions: an agent that reconnects (a new
// server process) and retries gets the first result, not a second task.
func TestIdempotentRetryAcrossSessions(t *testing.T) {
	root := newProject(t)
	create := `{"action":"create","subject":"once","client_mutation_id":"k-1"}`
	first := call(t, connect(t, Options{Root: root}), create)
	again := call(t, connect(t, Options{Root: root}), create)
	if first.IsError || again.Text != first.Text {
		t.Fatalf("first %q, retry in a new session %q", first.Text, again.Text)
	}
	if st := readState(t, root); len(st.Tasks) != 1 {
		t.Fatalf("%d tasks after a retry in a new session", len(st.Tasks))
	}
}

// TestPlanItemsThroughMCP: an approved plan's items are listed with the plan
// header, close only with evidence or a reason, and cannot be deleted.
func TestPlanItemsThroughMCP(t *testing.T) {
	root := newProject(t)
	plan, err := os.ReadFile("../testdata/mcp/PLAN.md")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "PLAN.md"), plan, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Open(root, "cli").Approve(context.Background(), "PLAN.md", core.Options{}, store.ApproveOptions{}); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, Options{Root: root})
	got := call(t, cs, `{"action":"list"}`)
	if !strings.HasPrefix(got.Text, "Plan: Add per-client rate limiting to the ingest API -- 7/7 plan items open\n[pending] #1 Add `internal/ratelimit` with a token bucket keyed by API key [plan: Important changes]") {
		t.Fatalf("list:\n%s", got.Text)
	}
	if got.Details.Plan == nil || got.Details.Plan.Title != "Add per-client rate limiting to the ingest API" {
		t.Fatalf("details.plan %+v", got.Details.Plan)
	}
	if got := call(t, cs, `{"action":"delete","id":1}`); !got.IsError || !strings.HasPrefix(got.Text, "Error: #1 is a plan item from the approved plan and can't be deleted: ") {
		t.Fatalf("delete plan item: %q", got.Text)
	}
	if got := call(t, cs, `{"action":"delete_all","confirm_delete_all":true}`); got.IsError {
		t.Fatalf("delete_all: %q", got.Text)
	}
	if st := readState(t, root); taskByID(t, st, 1).Status != core.Pending {
		t.Fatal("delete_all removed a plan item")
	}
	if got := call(t, cs, `{"action":"update","id":7,"status":"deferred","reason":"no load-test rig"}`); got.Text != "Updated #7 (pending → deferred). Tell the user this plan item is descoped and why: no load-test rig" {
		t.Fatalf("defer: %q", got.Text)
	}
	if got := call(t, cs, `{"action":"complete","id":6,"evidence":"go test ./... -race: ok"}`); got.IsError {
		t.Fatalf("complete: %q", got.Text)
	}
	if got := call(t, cs, `{"action":"create","subject":"  `+"`GO test ./...   -race`"+` PASSES "}`); !got.IsError || got.Text != "Error: #6 is already a plan item; update it" {
		t.Fatalf("duplicate guard: %q", got.Text)
	}
	if got := call(t, cs, `{"action":"list","status":"pending","limit":1}`); !strings.HasPrefix(got.Text, "Plan: Add per-client rate limiting to the ingest API -- 5/7 plan items open\n") {
		t.Fatalf("header after closing two: %q", got.Text)
	}
}

// TestSessionsShareOneState: several clients of one server (and of two
// servers on the same root) creating at once never lose or duplicate a task.
func TestSessionsShareOneState(t *testing.T) {
	root := newProject(t)
	sessions := []*sdk.ClientSession{
		connect(t, Options{Root: root}), connect(t, Options{Root: root}), connect(t, Options{Root: root}),
	}
	const each = 15
	errs := make(chan error, len(sessions))
	for i, cs := range sessions {
		go func() {
			for j := 0; j < each; j++ {
				res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: toolName,
					Arguments: json.RawMessage(fmt.Sprintf(`{"action":"create","subject":"s%d-%d"}`, i, j))})
				if err == nil && res.IsError {
					err = fmt.Errorf("%v", res.Content)
				}
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range sessions {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	st := readState(t, root)
	if len(st.Tasks) != len(sessions)*each || st.NextID != len(sessions)*each+1 {
		t.Fatalf("%d tasks, nextId %d", len(st.Tasks), st.NextID)
	}
	seen := map[string]bool{}
	for _, task := range st.Tasks {
		if seen[task.Subject] {
			t.Fatalf("%q created twice", task.Subject)
		}
		seen[task.Subject] = true
	}
}
