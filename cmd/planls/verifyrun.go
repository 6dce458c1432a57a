package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/planls/planls/core"
	"github.com/planls/planls/store"
	"github.com/planls/planls/verify"
	"github.com/planls/planls/verify/shell"
)

// trustFlag runs verify --run's commands without asking. Its name is the
// trust it implies: the commands are text from .planls/state.json, which
// whoever could change that file on this branch (any commit, merge or
// agent) wrote.
const trustFlag = "trust-recorded-commands"

// errNotConfirmed is verify --run's answer when the commands were listed
// and the user did not say yes (or could not be asked).
var errNotConfirmed = errors.New("not confirmed")

// commandRunner is verify --run's Runner: shell.Run once the commands were
// listed on stderr, each with its item, who recorded it (the journal) and
// in which commit (git log), and the user confirmed them on the terminal,
// or trusted says to run them unasked (--trust-recorded-commands). It never
// reads the answer from stdin, which a hook or a pipe may fill: only from
// the controlling terminal. Nothing to run needs no confirmation.
func commandRunner(cmd *cobra.Command, s *store.Store, tasks []core.Task, timeout time.Duration, trusted bool) (verify.Runner, error) {
	cmds := verify.Commands(tasks)
	if len(cmds) == 0 {
		return shell.Run, nil
	}
	errw := cmd.ErrOrStderr()
	listCommands(cmd, errw, s, tasks, cmds, timeout)
	if trusted {
		fmt.Fprintf(errw, "Running them: --%s trusts whoever could change %s on this branch.\n", trustFlag, verify.StatePath)
		return shell.Run, nil
	}
	tty, err := openTerminal()
	if err != nil {
		return nil, failf("verify --run: %d %s to run and no terminal to confirm them on; nothing was run. "+
			"Read the list above, then run again on a terminal, or pass --%s (CI) to run them unasked",
			len(cmds), plural(len(cmds), "command", "commands"), trustFlag)
	}
	defer tty.Close()
	fmt.Fprintf(tty, "Run %s? [y/N] ", plural(len(cmds), "this command", fmt.Sprintf("these %d commands", len(cmds))))
	answer, _ := bufio.NewReader(tty).ReadString('\n')
	if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
		return nil, &exitErr{code: exitError, err: fmt.Errorf("verify --run: %w; nothing was run", errNotConfirmed)}
	}
	return shell.Run, nil
}

// listCommands writes what verify --run would run: each command with its
// item and where its text came from.
func listCommands(cmd *cobra.Command, w io.Writer, s *store.Store, tasks []core.Task, cmds []verify.Command, timeout time.Duration) {
	byJournal := recordedInJournal(cmd.Context(), s, tasks, cmds)
	var evidence []string
	for _, c := range cmds {
		evidence = append(evidence, c.Evidence)
	}
	byGit, gitErr := verify.EvidenceCommits(cmd.Context(), s.Root, evidence)
	fmt.Fprintf(w, "planls verify --run would run %d %s with sh -c in %s (each bounded by %s), taken from the evidence in %s:\n",
		len(cmds), plural(len(cmds), "command", "commands"), s.Root, timeout, verify.StatePath)
	for _, c := range cmds {
		fmt.Fprintf(w, "  #%d %s: `%s`\n", c.TaskID, core.NoControls(c.Subject), core.NoControls(c.Line))
		rec := "recorded by: no journal entry"
		if j, ok := byJournal[c.TaskID]; ok {
			rec = fmt.Sprintf("recorded by %s at %s (journal, revision %d)", j.Actor, j.Time.UTC().Format("2006-01-02 15:04 UTC"), j.Revision)
		}
		var where string
		switch a, ok := byGit[c.Evidence]; {
		case gitErr != nil:
			where = "commit unknown: " + gitErr.Error()
		case ok:
			where = fmt.Sprintf("committed in %s %q by %s, %s", a.Commit, core.NoControls(a.Subject), core.NoControls(a.Author), a.Date.Format("2006-01-02"))
		default:
			where = "in no commit: written in this work tree only"
		}
		fmt.Fprintf(w, "     %s; %s\n", rec, where)
	}
	fmt.Fprintf(w, "Any branch, merge or agent can change that file: run only what you would type yourself.\n")
}

// journalRecord is the journal entry that gave a task its evidence.
type journalRecord struct {
	Actor    string
	Time     time.Time
	Revision int64
}

// recordedInJournal finds, per task of cmds, the last change in the
// history (store.History: the journal) after which the task was completed
// with the evidence it has now, having not been before it. Tasks are
// matched by identity (UID; by id in records written before UIDs). A
// history that cannot be read finds nothing (the listing says so).
func recordedInJournal(ctx context.Context, s *store.Store, tasks []core.Task, cmds []verify.Command) map[int]journalRecord {
	byID := map[int]core.Task{}
	for _, t := range tasks {
		byID[t.ID] = t
	}
	want := map[int]core.Task{}
	for _, c := range cmds {
		want[c.TaskID] = byID[c.TaskID]
	}
	held := map[int]bool{}
	out := map[int]journalRecord{}
	_ = s.History(ctx, func(e store.HistoryEntry) error {
		for _, c := range e.Changes {
			for id, t := range want {
				if c.UID != "" && c.UID != t.UID || c.UID == "" && c.ID != id {
					continue
				}
				now := c.Task != nil && c.Task.Status == core.Completed && c.Task.Evidence == t.Evidence
				if now && !held[id] {
					out[id] = journalRecord{Actor: e.Actor, Time: e.Time, Revision: e.Revision}
				}
				held[id] = now
			}
		}
		return nil
	})
	return out
}

// openTerminal opens the controlling terminal for a question and its
// answer (never stdin).
func openTerminal() (*os.File, error) {
	return os.OpenFile(terminalName, os.O_RDWR, 0)
}

// plural is one or many by n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
