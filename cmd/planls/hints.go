package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/planls/planls/core"
	"github.com/planls/planls/internal/gitclone"
	"github.com/planls/planls/store"
)

// The CLI's own advice goes to stderr as extra "hint: " lines after the
// seed's text, which stays byte for byte the tool's (a contract shared with
// the MCP server and the language server). Hints are for people at a
// terminal: never printed with --json.

// Repairs of a damaged or missing state file, worded after store.Doctor:
// --rebuild alone writes the journal's state only where there is no state
// file, and refuses to replace one; --move-aside renames the existing file
// to state.json.corrupt-<time> first. Nothing is ever deleted.
const (
	repairDamaged = "planls doctor --rebuild --move-aside renames the bad file to state.json.corrupt-<time> (it is kept, never deleted) and rebuilds the state from the journal"
	repairMissing = "planls doctor --rebuild restores the state file from the journal"
)

// stateRepair is the doctor command line that repairs err when it is a
// *store.StateError (the state file cannot be used), else "".
func stateRepair(err error) string {
	var serr *store.StateError
	if !errors.As(err, &serr) {
		return ""
	}
	if _, statErr := os.Stat(serr.Path); errors.Is(statErr, os.ErrNotExist) {
		return repairMissing
	}
	return repairDamaged
}

// stateHint is the hint line of a command that failed on err, "" unless err
// is a *store.StateError whose message does not already name the repair.
func stateHint(err error) string {
	if strings.Contains(err.Error(), "planls doctor") {
		return "" // the error already says how to repair it
	}
	if r := stateRepair(err); r != "" {
		return "hint: run planls doctor to see what is wrong; " + r
	}
	return ""
}

// resultHints are the hints for a tool result shown to a person: how to
// pass the evidence or the reason a rejection asks for, when cmd has that
// flag, and how to ask for a list's next page.
func resultHints(cmd *cobra.Command, res core.Result) []string {
	var out []string
	if msg := res.Envelope.Details.Error; msg != "" {
		// A batch names the op ("ops[2]: evidence required ..."); its fields
		// come from --params, not from flags, so it gets no flag hint.
		switch {
		case strings.HasPrefix(msg, "evidence required") && cmd.Flags().Lookup("evidence") != nil:
			out = append(out, `hint: pass it with --evidence "..."`)
		case strings.HasPrefix(msg, "reason required") && cmd.Flags().Lookup("reason") != nil:
			out = append(out, `hint: pass it with --reason "..."`)
		case strings.HasPrefix(msg, "delete_all needs confirm_delete_all") && cmd.Flags().Lookup("confirm-delete-all") != nil:
			out = append(out, "hint: run it again with --confirm-delete-all")
		}
		for _, n := range res.Notices {
			switch {
			case n.Code == core.CompletedFinalCode && cmd.Name() == "reopen":
				// planls todo reopen N without --reason: the seed's refusal
				// is about the transition; what is missing is why.
				out = append(out, `hint: reopening a completed task needs why: pass it with --reason "..."`)
			case n.Code == core.CompletedFinalCode:
				out = append(out, fmt.Sprintf(`hint: a completed task is reopened by a person, with why: planls todo reopen %d --reason "..."`, n.ID))
			}
		}
		return out
	}
	if cursor := res.Envelope.Details.NextCursor; cursor != "" && cmd.Name() == "list" {
		return append(out, "hint: "+nextPageCommand(cmd, cursor))
	}
	return nil
}

// nextPageCommand is the list command line the user ran, with its filters
// (a cursor is only valid for the same query) and the new cursor.
func nextPageCommand(cmd *cobra.Command, cursor string) string {
	parts := []string{cmd.CommandPath()}
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if f.Name == "cursor" || f.Name == "json" {
			return
		}
		switch f.Value.Type() {
		case "bool":
			if f.Value.String() == "true" {
				parts = append(parts, "--"+f.Name)
			}
		default:
			parts = append(parts, "--"+f.Name, gitclone.ShellQuote(f.Value.String()))
		}
	})
	return strings.Join(append(parts, "--cursor", gitclone.ShellQuote(cursor)), " ")
}

// printHints writes each hint on its own line.
func printHints(w io.Writer, hints ...string) {
	for _, h := range hints {
		if h != "" {
			fmt.Fprintln(w, h)
		}
	}
}

// deferralMarker is core's suffix on a plan item newly deferred
// (the seed, "Updated #<id> (<from> → deferred). Tell the user this
// plan item is descoped and why: <reason>").
const deferralMarker = "). Tell the user this plan item is descoped and why: "

// redundantNotice reports whether n, core's "Plan item deferred: #<id>
// <subject> -- <reason>" notice, says nothing the printed text does not:
// text has that item's deferral line with the same reason. A batch that
// deferred an item twice notices the final reason, which the text may not
// show; such a notice is kept.
func redundantNotice(text string, n core.Notice) bool {
	const prefix = "Plan item deferred: #"
	if !strings.HasPrefix(n.Text, prefix) {
		return false
	}
	idText, _, _ := strings.Cut(n.Text[len(prefix):], " ")
	if _, err := strconv.Atoi(idText); err != nil {
		return false
	}
	for line := range strings.SplitSeq(text, "\n") {
		if _, rest, ok := strings.Cut(line, "] "); ok && strings.HasPrefix(line, "[") {
			line = rest // a batch's "[i] " prefix
		}
		if !strings.HasPrefix(line, "Updated #"+idText+" (") {
			continue
		}
		if _, reason, ok := strings.Cut(line, deferralMarker); ok && strings.HasSuffix(n.Text, " -- "+reason) {
			return true
		}
	}
	return false
}
