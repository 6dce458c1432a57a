package main

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"
)

// newCheckCmd is `planls check`: the open plan items, for CI and stop hooks.
func newCheckCmd() *cobra.Command {
	var format, hook string
	cmd := &cobra.Command{
		Use:   "check [--format text|json|sarif|github] [--hook claude]",
		Short: "List open plan items; exit 1 while any is open",
		Long: `List every open (pending or in_progress) plan item where it stands in the plan file now:

  PLAN.md:LINE:COL: open plan item #N (pending): subject

LINE and COL are 1-based (COL counts bytes, at the list marker); the path is relative to the working
directory (to the root in sarif and github output). Exit 0 when no plan item is open, 1 while any is,
2 on error (no plan approved, unreadable state).

Formats: text (above), json, sarif (SARIF 2.1.0, rule open-item, level note), github (workflow
commands: ::notice file=...,line=...,col=...::...).

--hook claude runs as a Claude Code Stop hook: it reads the hook's JSON on stdin and, while plan
items are open (and stop_hook_active is not true), prints {"decision":"block","reason":...} with the
plan reminder. It always exits 0 and prints nothing otherwise, also outside a project.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cmd.Flags().Changed("hook") {
				if hook != "claude" {
					return usagef("--hook %q: the supported hook is claude", hook)
				}
				return runClaudeHook(cmd)
			}
			switch format {
			case "text", "json", "sarif", "github":
			default:
				return usagef("--format %q: use text, json, sarif or github", format)
			}
			s, err := openStore(cmd)
			if err != nil {
				return err
			}
			st, err := s.Read()
			if err != nil {
				return fail(err)
			}
			if st.Plan == nil {
				return failf("no plan approved in %s: run planls approve %s first", s.Root, defaultPlan)
			}
			v, err := loadPlanView(s.Root, st)
			if err != nil {
				return fail(err)
			}
			rep := newCheckReport(v)
			switch format {
			case "text":
				err = rep.writeText(cmd.OutOrStdout())
			case "json":
				err = printJSON(cmd, rep.jsonReport())
			case "sarif":
				err = printJSON(cmd, rep.sarif())
			case "github":
				err = rep.writeGitHub(cmd.OutOrStdout())
			}
			if err != nil {
				return fail(err)
			}
			if len(rep.items) > 0 {
				return silentExit(exitRejected)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text, json, sarif or github")
	cmd.Flags().StringVar(&hook, "hook", "", "run as an agent hook: claude (Claude Code Stop hook, JSON on stdin)")
	return cmd
}

// checkReport is the open items with the paths each format shows.
type checkReport struct {
	planTitle string
	planID    string
	display   string // plan path relative to the working directory (or root)
	rootRel   string // plan path relative to the root, slash-separated
	items     []openItem
	missing   bool // the plan file does not exist
}

func newCheckReport(v *planView) *checkReport {
	rel, err := filepath.Rel(v.root, v.abs)
	if err != nil {
		rel = v.abs
	}
	return &checkReport{
		planTitle: v.st.Plan.Title,
		planID:    v.st.Plan.ID,
		display:   displayPath(v.abs, v.root),
		rootRel:   filepath.ToSlash(rel),
		items:     v.openItems(),
		missing:   !v.exists,
	}
}

// message is the diagnostic text shared by every format (and PROTOCOL.md's
// open-item diagnostic).
func (o openItem) message() string {
	return fmt.Sprintf("open plan item #%d (%s): %s", o.Task.ID, o.Task.Status, term(o.Task.Subject))
}

// position is where to point for an item: its list marker, or the start of
// the file when the item is no longer in it.
func (o openItem) position() (line, col int, gone bool) {
	if o.Line == 0 {
		return 1, 1, true
	}
	return o.Line, o.Col, false
}

func (r *checkReport) suffix(gone bool) string {
	if !gone {
		return ""
	}
	if r.missing {
		return " (the plan file is missing)"
	}
	return " (no longer in the plan file; re-approve it with planls approve)"
}
