package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/planls/planls/core"
)

// newTodoCmd is `planls todo`: the todo tool from a shell, one subcommand
// per action plus the sugar start/defer/reopen, or raw params with --params.
func newTodoCmd() *cobra.Command {
	var raw string
	cmd := &cobra.Command{
		Use:   "todo <action> [id] [flags] | todo --params JSON|-",
		Short: "Create, update, complete, defer and list tasks and plan items",
		Long: `Run the todo tool, the same one the MCP server and the language server offer. Prints the
tool's text; --json prints the whole envelope ({"content":[...],"details":{...}}).

--params takes the tool's raw JSON params (an action with its fields, or {"ops":[...]});
--params - reads them from stdin.

A rejected call prints "Error: <message>" on stderr and exits 1.`,
		Example: `  planls todo create "Write the parser"
  planls todo update 3 --status completed --evidence "go test ./...: ok"
  planls todo complete 3 --evidence "go test ./...: ok"
  planls todo defer 4 --reason "needs a design call"
  planls todo list --include-deleted
  planls todo --params '{"ops":[{"action":"update","id":1,"status":"in_progress"}]}'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !cmd.Flags().Changed("params") {
				return usagef("todo needs an action (create, update, list, get, delete, clear, complete, delete_all, restore, start, defer, reopen) or --params")
			}
			var src []byte
			if raw == "-" {
				b, err := io.ReadAll(cmd.InOrStdin())
				if err != nil {
					return failf("read params from stdin: %v", err)
				}
				src = b
			} else {
				src = []byte(raw)
			}
			if !json.Valid(src) {
				return usagef("--params is not valid JSON")
			}
			return runTodo(cmd, src)
		},
	}
	cmd.Flags().StringVar(&raw, "params", "", "raw todo tool params as JSON, or - to read them from stdin")
	cmd.PersistentFlags().Bool("json", false, "print the tool's JSON envelope instead of its text")

	common := []string{"project-id"}
	mut := []string{"client-mutation-id"}
	cmd.AddCommand(
		actionCmd("create [subject...]", "create", "Create a task (pending) with the next id", argsSubject,
			append([]string{"subject", "description", "active-form", "owner", "blocked-by", "metadata", "metadata-json", "priority", "due-at", "note", "owner-timezone"}, append(mut, common...)...)...),
		actionCmd("update <id>", "update", "Change a task's status, fields or dependencies", argsID,
			append([]string{"id", "subject", "description", "active-form", "owner", "status", "evidence", "reason", "add-blocked-by", "remove-blocked-by", "metadata", "metadata-json", "priority", "due-at", "note", "owner-timezone", "expected-version"}, append(mut, common...)...)...),
		actionCmd("list", "list", "List tasks (tombstones hidden unless --include-deleted)", cobra.NoArgs,
			append([]string{"status", "include-deleted", "item-status", "due-before", "search", "query", "limit", "cursor", "owner-timezone"}, common...)...),
		actionCmd("get <id>", "get", "Show one task with its blockedBy and blocks edges", argsID, append([]string{"id"}, common...)...),
		actionCmd("delete <id>", "delete", "Tombstone a task (plan items can't be deleted)", argsID, append([]string{"id"}, common...)...),
		actionCmd("clear", "clear", "Drop every agent-created task (plan items stay)", cobra.NoArgs, common...),
		actionCmd("complete <id>", "complete", "Complete a task with --evidence", argsID,
			append([]string{"id", "evidence", "note", "expected-version"}, append(mut, common...)...)...),
		actionCmd("delete_all", "delete_all", "Soft-delete every task (needs --confirm-delete-all; undo with restore)", cobra.NoArgs,
			append([]string{"confirm-delete-all"}, common...)...),
		actionCmd("restore [id...]", "restore", "Bring back what delete_all (or delete) tombstoned", argsIDs, append([]string{"ids"}, common...)...),
		sugarCmd("start <id>", "Set a task in_progress", core.InProgress, ""),
		sugarCmd("defer <id>", "Defer a task with --reason (the user is told why)", core.Deferred, "reason"),
		sugarCmd("reopen <id>", "Set a completed or deferred task back to pending", core.Pending, ""),
	)
	return cmd
}

// positional describes how an action takes its arguments.
type positional int

const (
	argsNone positional = iota
	argsID
	argsIDs
	argsSubject
)

// actionCmd is one tool action as a subcommand; the flags are the action's fields.
func actionCmd(use, action, short string, args any, names ...string) *cobra.Command {
	c := &cobra.Command{Use: use, Short: short}
	pos := argsNone
	switch a := args.(type) {
	case positional:
		pos = a
	case cobra.PositionalArgs:
		c.Args = a
	}
	switch pos {
	case argsID:
		c.Args = cobra.MaximumNArgs(1)
	case argsIDs, argsSubject:
		c.Args = cobra.ArbitraryArgs
	}
	addFields(c, names...)
	c.RunE = func(cmd *cobra.Command, argv []string) error {
		p, err := paramsFromFlags(cmd, action)
		if err != nil {
			return usagef("%v", err)
		}
		if err := applyPositional(p, pos, argv); err != nil {
			return err
		}
		return runTodoParams(cmd, p)
	}
	return c
}

// sugarCmd is `todo start|defer|reopen <id>`: an update to one status.
func sugarCmd(use, short string, status core.Status, extra string) *cobra.Command {
	names := []string{"id", "expected-version", "client-mutation-id", "project-id"}
	if extra != "" {
		names = append(names, extra)
	}
	c := &cobra.Command{Use: use, Short: short, Args: cobra.MaximumNArgs(1)}
	addFields(c, names...)
	c.RunE = func(cmd *cobra.Command, argv []string) error {
		p, err := paramsFromFlags(cmd, "update")
		if err != nil {
			return usagef("%v", err)
		}
		if err := applyPositional(p, argsID, argv); err != nil {
			return err
		}
		p["status"] = string(status)
		return runTodoParams(cmd, p)
	}
	return c
}

// applyPositional moves the arguments into p: an id, ids, or the subject.
func applyPositional(p map[string]any, pos positional, argv []string) error {
	if len(argv) == 0 {
		return nil
	}
	switch pos {
	case argsID:
		if _, dup := p["id"]; dup {
			return usagef("give the id once: as the argument or with --id")
		}
		n, err := parseID(argv[0])
		if err != nil {
			return usagef("%v", err)
		}
		p["id"] = n
	case argsIDs:
		if _, dup := p["ids"]; dup {
			return usagef("give the ids once: as arguments or with --ids")
		}
		ids, err := parseIDs(strings.Join(argv, ","))
		if err != nil {
			return usagef("%v", err)
		}
		p["ids"] = ids
	case argsSubject:
		if _, dup := p["subject"]; dup {
			return usagef("give the subject once: as arguments or with --subject")
		}
		p["subject"] = strings.Join(argv, " ")
	}
	return nil
}

func runTodoParams(cmd *cobra.Command, p map[string]any) error {
	b, err := json.Marshal(p)
	if err != nil {
		return fail(err)
	}
	return runTodo(cmd, b)
}

// runTodo applies params through the store and prints the result: the text
// (stdout; stderr and exit 1 for a rejection) or, with --json, the envelope.
// Notices (a plan item deferred) go to stderr so stdout stays the tool text.
func runTodo(cmd *cobra.Command, params []byte) error {
	st, err := openStore(cmd)
	if err != nil {
		return err
	}
	res, err := st.Call(params, core.Options{Zone: time.Local})
	if err != nil {
		return fail(err)
	}
	asJSON, _ := cmd.Flags().GetBool("json")
	if asJSON {
		if err := printJSON(cmd, res.Envelope); err != nil {
			return fail(err)
		}
	}
	for _, n := range res.Notices {
		fmt.Fprintf(cmd.ErrOrStderr(), "%s: %s\n", n.Level, n.Text)
	}
	if res.Envelope.IsError() {
		if !asJSON {
			fmt.Fprintln(cmd.ErrOrStderr(), res.Envelope.Text())
		}
		return silentExit(exitRejected)
	}
	if !asJSON {
		fmt.Fprintln(cmd.OutOrStdout(), res.Envelope.Text())
	}
	return nil
}
