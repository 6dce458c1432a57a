package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/planls/planls/core"
	"github.com/planls/planls/store"
	"github.com/planls/planls/verify"
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

A rejected call prints "Error: <message>" on stderr and exits 1 (with a "hint: ..." line when a
flag would fix it). A missing or malformed id (or create's subject) is a usage error: exit 2, before
the tool runs.`,
		Example: `  planls todo create "Write the parser"
  planls todo update 3 --status completed --evidence "go test ./...: ok"
  planls todo complete 3 --evidence "go test ./...: ok"
  planls todo defer 4 --reason "needs a design call"
  planls todo list --include-deleted
  planls todo --params '{"ops":[{"action":"update","id":1,"status":"in_progress"}]}'`,
		Args: unknownSubcommand,
		// cobra's default distance, which only its root-level lookup sets.
		SuggestionsMinimumDistance: 2,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !cmd.Flags().Changed("params") {
				return usagef("todo needs an action (create, update, list, get, delete, clear, complete, delete_all, restore, start, defer, reopen) or --params")
			}
			src := []byte(raw)
			if raw == "-" {
				var err error
				if src, err = io.ReadAll(cmd.InOrStdin()); err != nil {
					return failf("read params from stdin: %v", err)
				}
				if len(bytes.TrimSpace(src)) == 0 {
					return usagef("--params -: stdin was empty")
				}
			}
			if !json.Valid(src) {
				return usagef("--params is not valid JSON")
			}
			return runTodo(cmd, src)
		},
	}
	// A misspelt action is taken for todo's own argument, so its flags
	// (complete's --evidence) fail to parse before Args could say which
	// action was meant: name the action, not the flag.
	cmd.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		if c == cmd {
			if args := c.Flags().Args(); len(args) > 0 {
				return unknownSubcommand(c, args)
			}
		}
		return c.Root().FlagErrorFunc()(c, err)
	})
	cmd.Flags().StringVar(&raw, "params", "", "raw todo tool params as JSON, or - to read them from stdin")
	cmd.PersistentFlags().Bool("json", false, "print the tool's JSON envelope instead of its text")

	for _, a := range todoActions {
		cmd.AddCommand(a.command())
	}
	return cmd
}

// todoAction is one subcommand of `planls todo`: a tool action, or sugar
// for an update to one status.
type todoAction struct {
	use, short string
	long       string // the help's long text; "" = short
	example    string
	action     string      // the tool's action
	status     core.Status // sugar: the status the update sets
	pos        positional  // what the arguments are
	fields     []string    // the flags (tool fields) it takes
}

// positional describes how an action takes its arguments.
type positional int

const (
	argsNone positional = iota
	argsID
	argsIDs
	argsSubject
)

var (
	common    = []string{"project-id"}
	editable  = []string{"description", "active-form", "owner", "metadata", "metadata-json", "priority", "due-at", "note", "owner-timezone", "client-mutation-id"}
	listing   = []string{"status", "include-deleted", "item-status", "due-before", "search", "query", "group", "fields", "limit", "cursor", "owner-timezone"}
	sugarFlds = []string{"id", "expected-version", "client-mutation-id"}
)

// todoActions are the subcommands of `planls todo`, in help order.
var todoActions = []todoAction{
	{use: "create [subject...]", action: "create", short: "Create a task (pending) with the next id", pos: argsSubject,
		fields: slices.Concat([]string{"subject", "blocked-by"}, editable, common)},
	{use: "update <id>", action: "update", short: "Change a task's status, fields or dependencies", pos: argsID,
		fields: slices.Concat([]string{"id", "subject", "status", "evidence", "reason", "add-blocked-by", "remove-blocked-by", "expected-version"}, editable, common)},
	{use: "list", action: "list", short: "List tasks (tombstones hidden unless --include-deleted)", fields: slices.Concat(listing, common)},
	{use: "get <id>", action: "get", short: "Show one task with its blockedBy and blocks edges", pos: argsID, fields: slices.Concat([]string{"id"}, common)},
	{use: "delete <id>", action: "delete", short: "Tombstone a task (plan items can't be deleted)", pos: argsID, fields: slices.Concat([]string{"id"}, common)},
	{use: "clear", action: "clear", short: "Drop every agent-created task (needs --confirm-clear; plan items stay; undo with restore)", fields: common,
		long: `Drop every task that is not a plan item, tombstones included; plan items stay. The ids start
again at 1 when nothing is left, as the todo tool's clear does. What it drops is kept in the state:
planls todo restore (without ids) brings it back, under new ids where theirs were taken since.
From a shell it needs --confirm-clear, like delete_all; the todo tool itself (MCP, --params) keeps
the seed's clear, which asks nothing.`},
	{use: "complete <id>", action: "complete", short: "Complete a task with --evidence", pos: argsID,
		fields: slices.Concat([]string{"id", "evidence", "note", "expected-version", "client-mutation-id"}, common)},
	{use: "delete_all", action: "delete_all", short: "Soft-delete every task that is not a plan item (needs --confirm-delete-all; undo with restore)",
		fields: slices.Concat([]string{"confirm-delete-all"}, common)},
	{use: "restore [id...]", action: "restore", short: "Bring back what clear, delete_all or delete tombstoned", pos: argsIDs, fields: slices.Concat([]string{"ids"}, common)},
	{use: "start <id>", action: "update", status: core.InProgress, short: "Set a task in_progress", pos: argsID, fields: slices.Concat(sugarFlds, common)},
	{use: "defer <id>", action: "update", status: core.Deferred, short: "Defer a task with --reason (the user is told why)", pos: argsID, fields: slices.Concat(sugarFlds, []string{"reason"}, common)},
	{use: "reopen <id>", action: "update", status: core.Pending, short: "Set a task back to pending; a completed one needs --reason (the journal keeps who, when, why and its evidence)", pos: argsID, fields: slices.Concat(sugarFlds, []string{"reason"}, common),
		long: `Set a task back to pending. A deferred or in-progress task needs nothing more (its deferral
reason is dropped, as the todo tool does). A completed task is reopened only with --reason, why its
evidence does not hold: a person's correction, which the todo tool itself (MCP, --params, pi)
refuses to agents, since there completed is final. The journal (.planls/journal.jsonl) records
who reopened it (git user.name <user.email>, else the login name), when, why, and the evidence it
had.`,
		example: `  planls todo reopen 4
  planls todo reopen 3 --reason "the test passed only on my machine; CI fails"`},
}

// command builds the cobra command of a.
func (a todoAction) command() *cobra.Command {
	c := &cobra.Command{Use: a.use, Short: a.short, Long: a.long, Example: a.example}
	switch a.pos {
	case argsNone:
		c.Args = cobra.NoArgs
	case argsID:
		c.Args = cobra.MaximumNArgs(1)
	default:
		c.Args = cobra.ArbitraryArgs
	}
	addFields(c, a.fields...)
	if a.action == "clear" {
		c.Flags().Bool("confirm-clear", false, "drop the tasks (without it, clear says what it would drop and changes nothing)")
	}
	if f := c.Flags().Lookup("reason"); f != nil && a.status == core.Pending {
		f.Usage = "why the task is not done (needed to reopen a completed task; the journal keeps it)"
	}
	c.RunE = func(cmd *cobra.Command, argv []string) error {
		p, err := a.params(cmd, argv)
		if err != nil {
			return err
		}
		if a.status == core.Pending && cmd.Flags().Changed("reason") {
			return runReopen(cmd, p)
		}
		if a.action == "clear" {
			if err := confirmClear(cmd); err != nil {
				return err
			}
		}
		return runTodoParams(cmd, p)
	}
	return c
}

// params are the tool params of one invocation: the set flags, the
// arguments, and the sugar's status.
func (a todoAction) params(cmd *cobra.Command, argv []string) (map[string]any, error) {
	p, err := paramsFromFlags(cmd, a.action)
	if err != nil {
		return nil, usagef("%v", err)
	}
	if err := applyPositional(p, a.pos, argv); err != nil {
		return nil, err
	}
	if err := a.requirePositional(cmd, p); err != nil {
		return nil, err
	}
	if a.status != "" {
		p["status"] = string(a.status)
	}
	return p, nil
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
	// Date-only due times are the user's local midnight; project_id must be
	// the id `planls status` shows (the MCP server checks the same).
	res, err := st.Call(cmd.Context(), params, core.Options{Zone: time.Local, ProjectID: store.ProjectID(st.Root)})
	if err != nil {
		return fail(err)
	}
	res.Notices = append(res.Notices, verify.CompletionWarnings(cmd.Context(), st.Root, res, verify.CLIFix)...)
	return printResult(cmd, res, "")
}

// printResult prints a tool result the way every CLI command does: with
// --json the envelope on stdout, else its text (a rejection's `Error: …` on
// stderr, exit 1, then the CLI's hints); notices on stderr, except a
// deferral notice the text already says (not with --json). quiet replaces an
// empty text of a result that changed nothing.
func printResult(cmd *cobra.Command, res core.Result, quiet string) error {
	asJSON, _ := cmd.Flags().GetBool("json")
	if asJSON {
		if err := writeJSON(cmd, res.Envelope, "  "); err != nil {
			return fail(err)
		}
	}
	errw := cmd.ErrOrStderr()
	for _, n := range res.Notices {
		// A person already reads the deferral in the text's seed line.
		if !asJSON && redundantNotice(res.Envelope.Text(), n) {
			continue
		}
		if n.Code == core.CompletedFinalCode && !asJSON {
			// The agent's advice; a person reopens it with the flag.
			continue
		}
		if n.Code == core.WeakEvidenceCode && n.Plain != "" && !asJSON {
			// A shell user fixes it with the CLI's flags; --json callers
			// (the pi package) speak the tool's JSON and keep its form.
			fmt.Fprintf(errw, "%s: %s; record it with planls todo update %d --evidence '...'\n", n.Level, n.Plain, n.ID)
			continue
		}
		fmt.Fprintf(errw, "%s: %s\n", n.Level, n.Text)
	}
	if res.Envelope.IsError() {
		if !asJSON {
			fmt.Fprintln(errw, res.Envelope.Text())
			printHints(errw, resultHints(cmd, res)...)
		}
		return silentExit(exitRejected)
	}
	if !asJSON {
		text := forPeople(res.Envelope.Text())
		if !res.Changed && text == "" && quiet != "" {
			text = quiet
		}
		fmt.Fprintln(cmd.OutOrStdout(), text)
		printHints(errw, resultHints(cmd, res)...)
	}
	return nil
}

// confirmClear refuses `planls todo clear` without --confirm-clear while it
// would drop anything, saying what: like delete_all, a person confirms a
// bulk removal (the tool's clear, which agents call, keeps the seed's
// behaviour and asks nothing).
func confirmClear(cmd *cobra.Command) error {
	if ok, _ := cmd.Flags().GetBool("confirm-clear"); ok {
		return nil
	}
	_, st, err := openState(cmd)
	if err != nil {
		return err
	}
	var ids []int
	for _, t := range st.Tasks {
		if t.Source != "plan" {
			ids = append(ids, t.ID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "Error: clear drops %s that %s not plan items (%s); run it again with --confirm-clear (planls todo restore brings them back)\n",
		core.CountNoun(len(ids), "task"), map[bool]string{true: "is", false: "are"}[len(ids) == 1], core.IDRuns(ids))
	return silentExit(exitRejected)
}
