package main

import (
	"encoding/json"
	"testing"
)

// Each flag lands in the tool parameter of the same name, typed as the tool
// wants it; unset flags are absent.
func TestTodoFlagsToParams(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"create", "Write", "the", "parser"}, `{"action":"create","subject":"Write the parser"}`},
		{[]string{"create", "--subject", "x", "--description", "d", "--active-form", "xing", "--owner", "o", "--blocked-by", "1,#2", "--priority", "high", "--due-at", "2026-08-25", "--note", "n", "--owner-timezone", "Europe/Paris", "--client-mutation-id", "m1", "--project-id", "p"},
			`{"action":"create","activeForm":"xing","blockedBy":[1,2],"client_mutation_id":"m1","description":"d","due_at":"2026-08-25","note":"n","owner":"o","owner_timezone":"Europe/Paris","priority":"high","project_id":"p","subject":"x"}`},
		{[]string{"update", "3", "--status", "completed", "--evidence", "go test ./...: ok"}, `{"action":"update","evidence":"go test ./...: ok","id":3,"status":"completed"}`},
		{[]string{"update", "#3", "--add-blocked-by", "1", "--remove-blocked-by", "2,4", "--expected-version", "7", "--reason", ""}, `{"action":"update","addBlockedBy":[1],"expected_version":7,"id":3,"reason":"","removeBlockedBy":[2,4]}`},
		{[]string{"update", "--id", "3", "--metadata", "a=1", "--metadata", "b=x=y", "--metadata-json", "c=null", "--metadata-json", "d={\"n\":2}"}, `{"action":"update","id":3,"metadata":{"a":"1","b":"x=y","c":null,"d":{"n":2}}}`},
		{[]string{"list", "--status", "pending", "--include-deleted", "--limit", "5", "--cursor", "c2", "--item-status", "open", "--due-before", "2026-09-01", "--search", "lexer"}, `{"action":"list","cursor":"c2","due_before":"2026-09-01","includeDeleted":true,"item_status":"open","limit":5,"search":"lexer","status":"pending"}`},
		{[]string{"list", "--query", "q"}, `{"action":"list","query":"q"}`},
		{[]string{"list", "--group", "Tests", "--fields", "evidence, reason"}, `{"action":"list","fields":["evidence","reason"],"group":"Tests"}`},
		{[]string{"list", "--fields", ""}, `{"action":"list","fields":[]}`},
		{[]string{"get", "4"}, `{"action":"get","id":4}`},
		{[]string{"delete", "4"}, `{"action":"delete","id":4}`},
		{[]string{"clear"}, `{"action":"clear"}`},
		{[]string{"complete", "4", "--evidence", "e", "--note", "n"}, `{"action":"complete","evidence":"e","id":4,"note":"n"}`},
		{[]string{"delete_all", "--confirm-delete-all"}, `{"action":"delete_all","confirm_delete_all":true}`},
		{[]string{"restore", "1", "2"}, `{"action":"restore","ids":[1,2]}`},
		{[]string{"restore", "--ids", "1,2"}, `{"action":"restore","ids":[1,2]}`},
		{[]string{"restore"}, `{"action":"restore"}`},
		{[]string{"start", "2"}, `{"action":"update","id":2,"status":"in_progress"}`},
		{[]string{"reopen", "2", "--expected-version", "3"}, `{"action":"update","expected_version":3,"id":2,"status":"pending"}`},
		{[]string{"defer", "2", "--reason", "later"}, `{"action":"update","id":2,"reason":"later","status":"deferred"}`},
	} {
		todo := newTodoCmd()
		sub, rest, err := todo.Find(tc.args)
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if err := sub.ParseFlags(rest); err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		var spec *todoAction
		for i := range todoActions {
			if todoActions[i].command().Name() == sub.Name() {
				spec = &todoActions[i]
			}
		}
		p, err := spec.params(sub, sub.Flags().Args())
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		got, _ := json.Marshal(p)
		if string(got) != tc.want {
			t.Errorf("%v\n got: %s\nwant: %s", tc.args, got, tc.want)
		}
	}
}

// Every parameter the tool's list takes is a flag of planls todo list (the
// README promises every action and field as flags).
func TestTodoListHasEveryListField(t *testing.T) {
	cmd, _, err := newTodoCmd().Find([]string{"list"})
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, a := range todoActions {
		if a.action == "list" {
			for _, name := range a.fields {
				have[fields[name].key] = true
			}
		}
	}
	for _, key := range []string{"status", "includeDeleted", "item_status", "due_before", "search", "query", "group", "fields", "limit", "cursor", "owner_timezone", "project_id"} {
		if !have[key] {
			t.Errorf("planls %s has no flag for %q", cmd.Name(), key)
		}
	}
}
