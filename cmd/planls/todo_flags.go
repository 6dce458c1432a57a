package main

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/planls/planls/core"
)

// field is one todo tool parameter exposed as a flag; the flag's name is
// the parameter's name in kebab case.
type field struct {
	flag  string // flag name
	key   string // JSON key of the tool parameter
	kind  string // "string", "int", "bool", "ids", "strings", "meta", "metajson"
	usage string
}

// fields are the todo tool's parameters (seed "Parameters" plus the MCP
// seed's additions), by flag name.
var fields = map[string]field{}

func init() {
	for _, f := range []field{
		{"id", "id", "int", "task id (also the first argument)"},
		{"subject", "subject", "string", "task text (also the arguments of create)"},
		{"description", "description", "string", "long-form detail"},
		{"active-form", "activeForm", "string", "present-continuous label shown while in_progress"},
		{"owner", "owner", "string", "agent or person assigned"},
		{"status", "status", "string", "pending|in_progress|completed|deferred|deleted (update: the new status; list: filter)"},
		{"evidence", "evidence", "string", "the check that proves completion (command + result, commit, or test name)"},
		{"reason", "reason", "string", "why the task is deferred (the user is told)"},
		{"blocked-by", "blockedBy", "ids", "ids this task waits on, comma-separated (1,2)"},
		{"add-blocked-by", "addBlockedBy", "ids", "ids to add to blockedBy, comma-separated"},
		{"remove-blocked-by", "removeBlockedBy", "ids", "ids to remove from blockedBy, comma-separated"},
		{"metadata", "metadata", "meta", "metadata entry key=value (string value; repeatable)"},
		{"metadata-json", "metadata", "metajson", "metadata entry key=JSON (null deletes the key on update; repeatable)"},
		{"include-deleted", "includeDeleted", "bool", "list tombstones too"},
		{"priority", "priority", "string", "low|medium|high|urgent"},
		{"due-at", "due_at", "string", "due time: RFC 3339, or a date (YYYY-MM-DD)"},
		{"note", "note", "string", "handoff note"},
		{"owner-timezone", "owner_timezone", "string", "IANA zone for date-only due times (default: the local zone)"},
		{"item-status", "item_status", "string", "list filter: open, in_progress, completed, all, ..."},
		{"due-before", "due_before", "string", "list filter: due before this time or date"},
		{"search", "search", "string", "list filter: text search"},
		{"query", "query", "string", "list filter: same as --search"},
		{"limit", "limit", "int", "list page size"},
		{"cursor", "cursor", "string", "list page cursor (from the previous page's nextCursor)"},
		{"fields", "fields", "strings", "list: the fields each row shows below its line, comma-separated (" + strings.Join(core.RowFields, ",") + "); empty for one line a row"},
		{"group", "group", "string", "list filter: plan items under this heading only"},
		{"client-mutation-id", "client_mutation_id", "string", "idempotency key: a retry with the same key applies nothing twice"},
		{"expected-version", "expected_version", "int", "refuse the update unless the task's version is this"},
		{"confirm-delete-all", "confirm_delete_all", "bool", "required by delete_all (recoverable with restore)"},
		{"ids", "ids", "ids", "task ids, comma-separated"},
		{"project-id", "project_id", "string", "must equal this project's id (planls status shows it)"},
	} {
		fields[f.flag] = f
	}
}

// addFields registers the named fields as flags of cmd.
func addFields(cmd *cobra.Command, names ...string) {
	fs := cmd.Flags()
	for _, n := range names {
		f, ok := fields[n]
		if !ok {
			panic("planls: unknown todo field " + n)
		}
		switch f.kind {
		case "string", "ids", "strings":
			fs.String(f.flag, "", f.usage)
		case "int":
			fs.Int(f.flag, 0, f.usage)
		case "bool":
			fs.Bool(f.flag, false, f.usage)
		case "meta", "metajson":
			fs.StringArray(f.flag, nil, f.usage)
		}
	}
}

// paramsFromFlags builds the tool params from the flags the user set (only
// those: an unset flag is an absent field, never a zero value).
func paramsFromFlags(cmd *cobra.Command, action string) (map[string]any, error) {
	p := map[string]any{"action": action}
	var meta map[string]any
	var err error
	cmd.Flags().Visit(func(fl *pflag.Flag) {
		f, ok := fields[fl.Name]
		if !ok || err != nil {
			return
		}
		v := fl.Value.String()
		switch f.kind {
		case "string":
			p[f.key] = v
		case "int":
			n, e := strconv.Atoi(v)
			if e != nil {
				err = fmt.Errorf("--%s: %q is not a number", f.flag, v)
				return
			}
			p[f.key] = n
		case "bool":
			p[f.key] = v == "true"
		case "strings":
			list := []string{}
			for part := range strings.SplitSeq(v, ",") {
				if part = strings.TrimSpace(part); part != "" {
					list = append(list, part)
				}
			}
			p[f.key] = list
		case "ids":
			ids, e := parseIDs(v)
			if e != nil {
				err = fmt.Errorf("--%s: %v", f.flag, e)
				return
			}
			p[f.key] = ids
		case "meta", "metajson":
			vals, _ := cmd.Flags().GetStringArray(f.flag)
			if meta == nil {
				meta = map[string]any{}
			}
			for _, kv := range vals {
				k, val, ok := strings.Cut(kv, "=")
				if !ok || k == "" {
					err = fmt.Errorf("--%s: %q is not key=value", f.flag, kv)
					return
				}
				if f.kind == "meta" {
					meta[k] = val
					continue
				}
				var j any
				if e := json.Unmarshal([]byte(val), &j); e != nil {
					err = fmt.Errorf("--%s: %s: the value is not JSON (%v)", f.flag, k, e)
					return
				}
				meta[k] = j
			}
		}
	})
	if err != nil {
		return nil, err
	}
	if meta != nil {
		p["metadata"] = meta
	}
	return p, nil
}

// parseIDs reads "1,2", "#1, #2" or "" (no ids).
func parseIDs(s string) ([]int, error) {
	ids := []int{}
	for part := range strings.SplitSeq(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		n, err := parseID(part)
		if err != nil {
			return nil, err
		}
		ids = append(ids, n)
	}
	return ids, nil
}

// parseID reads a task id written "3" or "#3".
func parseID(s string) (int, error) {
	n, err := strconv.Atoi(strings.TrimPrefix(strings.TrimSpace(s), "#"))
	if err != nil {
		return 0, fmt.Errorf("%q is not a task id", s)
	}
	return n, nil
}
