package mcp

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestStdioStringArguments covers string arguments over the real binary: a client
// that sends every argument as a string (even ops as a JSON array in a
// string, or the whole arguments object as a string) can complete work;
// what is ambiguous is still refused with the type error.
func TestStdioStringArguments(t *testing.T) {
	root := newProject(t)
	p := startMCP(t, root, cleanEnv(), "--root", root)
	p.send(fmt.Sprintf(initMsg, "1"), initializedMsg)
	if m, _ := p.next(10 * time.Second); string(m.ID) != "1" {
		t.Fatalf("init reply %s", m.ID)
	}
	calls := []struct{ args, want string }{
		{`{"action":"create","subject":"a"}`, "Created #1: a (pending)"},
		{`{"action":"create","subject":"b","blockedBy":["1"]}`, "Created #2: b (pending)"},
		{`{"action":"complete","id":"1","evidence":"go test ./... ok"}`, "Updated #1 (pending → completed)"},
		{`{"action":"update","id":"2","status":"deleted"}`, "Updated #2 (pending → deleted)"},
		{`{"action":"list","limit":"5","includeDeleted":"true","fields":"evidence"}`, "[completed] #1 a\n    evidence: go test ./... ok\n[deleted] #2 b"}, // #1 is done: no ⛓
		{`{"ops":"[{\"action\":\"restore\",\"ids\":[\"2\"]},{\"action\":\"get\",\"id\":\"2\"}]"}`, "Applied 2 ops\n[0] Restored 1 task: #2 (pending)\n[1] #2 [pending] b\n  blockedBy: #1"},
		{`"{\"action\":\"get\",\"id\":\"1\"}"`, "#1 [completed] a\n  blocks: #2\n  evidence: go test ./... ok"},
		{`{"action":"get","id":"one"}`, "Error: id must be an integer"},
		{`{"action":"list","includeDeleted":"yes"}`, "Error: includeDeleted must be true or false"},
	}
	for i, c := range calls {
		p.send(callMsg(10+i, c.args))
		m, _ := p.next(10 * time.Second)
		if text, _ := toolText(t, m); text != c.want {
			t.Fatalf("%s:\n got  %q\n want %q", c.args, text, c.want)
		}
	}
	if st := readState(t, root); len(st.Tasks) != 2 || st.Tasks[0].Status != "completed" || st.Tasks[1].Status != "pending" {
		t.Fatalf("state on disk %+v", st.Tasks)
	}
}

// TestStdioInitializeParamsType: an initialize whose protocolVersion is not
// a string gets -32602 Invalid params (the SDK alone answers code 0), and
// the session goes on to a good initialize.
func TestStdioInitializeParamsType(t *testing.T) {
	root := newProject(t)
	p := startMCP(t, root, cleanEnv(), "--root", root)
	p.send(strings.Replace(fmt.Sprintf(initMsg, "1"), `"2025-06-18"`, `20250618`, 1))
	m, _ := p.next(10 * time.Second)
	if m.Error == nil || string(m.ID) != "1" || m.Error.Code != -32602 ||
		m.Error.Message != "Invalid params: initialize: protocolVersion must be a string, not number" {
		t.Fatalf("reply %s %+v", m.ID, m.Error)
	}
	p.send(fmt.Sprintf(initMsg, "2"), initializedMsg, callMsg(3, `{"action":"list"}`))
	if m, _ := p.next(10 * time.Second); string(m.ID) != "2" || m.Error != nil {
		t.Fatalf("second initialize: %s %+v", m.ID, m.Error)
	}
	if m, _ := p.next(10 * time.Second); string(m.ID) != "3" {
		t.Fatalf("call after initialize: %s", m.ID)
	}
}
