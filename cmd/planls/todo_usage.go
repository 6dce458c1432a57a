package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// unknownSubcommand is the Args of a command whose arguments can only be
// subcommands: a stray word is reported like cobra reports one at the root,
// with its "Did you mean this?" suggestions (cobra gives those only at the
// root), and the help of this command, not the root's.
func unknownSubcommand(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
	if sugg := cmd.SuggestionsFor(args[0]); len(sugg) > 0 {
		msg += "\n\nDid you mean this?\n\t" + strings.Join(sugg, "\n\t") + "\n"
	}
	return usagef("%s", msg)
}

// requirePositional makes the id (or create's subject) a usage error when
// neither the argument nor its flag gave it: the CLI knows the call cannot
// work, so it is exit 2 like a malformed id, not the tool's in-band
// rejection (exit 1).
func (a todoAction) requirePositional(cmd *cobra.Command, p map[string]any) error {
	switch a.pos {
	case argsID:
		if _, ok := p["id"]; !ok {
			return usagef("%s needs a task id: %s <id>", cmd.CommandPath(), cmd.CommandPath())
		}
	case argsSubject:
		if _, ok := p["subject"]; !ok {
			return usagef("%s needs a subject: %s <subject...>", cmd.CommandPath(), cmd.CommandPath())
		}
	}
	return nil
}
