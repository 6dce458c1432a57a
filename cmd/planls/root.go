package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
)

// Exit codes a script can rely on.
const (
	exitOK       = 0 // success; `check`: no open plan item
	exitRejected = 1 // the tool's in-band rejection; `check`: open plan items
	exitError    = 2 // usage, I/O, lock or state-file errors
)

// exitErr carries an exit code through cobra. A nil err means the message
// was already printed.
type exitErr struct {
	code  int
	err   error
	usage bool // a command-line mistake: point at the failing command's --help
}

func (e *exitErr) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}

func (e *exitErr) Unwrap() error { return e.err }

// silentExit ends the command with code after its output was printed.
func silentExit(code int) error { return &exitErr{code: code} }

// usageErr marks an error as the caller's mistake (exit 2 with a usage hint).
type usageErr struct{ error }

// run executes the command line args (without the program name) and returns
// the process exit code.
func run(args []string) int {
	return runIO(args, os.Stdin, os.Stdout, os.Stderr)
}

func runIO(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRootCmd()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	failed, err := root.ExecuteC()
	if err == nil {
		return exitOK
	}
	if ee, ok := errors.AsType[*exitErr](err); ok {
		if ee.err != nil {
			fmt.Fprintln(stderr, "Error:", ee.err)
			if ee.usage {
				fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", failed.CommandPath())
			}
			printHints(stderr, stateHint(ee.err))
		}
		return ee.code
	}
	// Every RunE failure is an exitErr (wrapRunE), so anything else is a bad
	// command line found by cobra (unknown command or flag, argument count).
	// failed is the command whose flags or arguments were wrong (the root
	// when cobra found no command), so the hint names the help that helps.
	fmt.Fprintln(stderr, "Error:", err)
	fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", failed.CommandPath())
	return exitError
}

// newRootCmd builds the planls command tree.
func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "planls",
		Short: "Keep an approved plan (PLAN.md) honest",
		Long: `planls tracks the work of an approved PLAN.md (its task bullets, checkboxes, numbered steps and
task headings; context sections are skipped) as plan items that close only with proof: evidence to
complete one, a reason to defer one.

The state lives in .planls/state.json at the workspace root: --root, else $PLANLS_ROOT, else the
nearest directory above the working directory holding .planls/ or .git.

Exit codes: 0 ok; 1 the todo tool or approve refused the call, check found what fails it (open
plan items, items closed without proof, plan drift, failed verification; weak evidence with
--strict), verify found a failed item, or doctor found something to repair; 2 usage, I/O, lock or
state-file errors, and check or verify before any plan is approved ("no plan approved").`,
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	addVersionFlag(root)
	root.PersistentFlags().String("root", "", "workspace root (default: $PLANLS_ROOT, else the nearest directory with .planls/ or .git)")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return usageErr{err} })
	root.AddCommand(
		newTodoCmd(),
		newApproveCmd(),
		newStatusCmd(),
		newCheckCmd(),
		newVerifyCmd(),
		newDoctorCmd(),
		newVersionCmd(),
		newServeCmd(),
		newMCPCmd(),
		newDemoCmd(),
		newInitCmd(),
		newMergeCmd(),
		newReportCmd(),
		newHookCmd(),
	)
	wrapRunE(root)
	return root
}

// addVersionFlag gives root cobra's -v/--version flag, printing what
// `planls version` prints. cobra's own (root.Version) can only be reworded
// with SetVersionTemplate, and a text/template anywhere in the program turns
// off the linker's dead-method elimination: that one call made the binary
// 20.0 MB instead of 16.1 MB, and every command paid for it at start.
// So the flag is declared here and answered where cobra sends a
// root that has nothing to run: its help function.
func addVersionFlag(root *cobra.Command) {
	root.Flags().BoolP("version", "v", false, "version for "+root.Name())
	help := root.HelpFunc()
	root.SetHelpFunc(func(c *cobra.Command, args []string) {
		asked, _ := c.Flags().GetBool("version")
		helpAsked, _ := c.Flags().GetBool("help")
		if c == root && asked && !helpAsked {
			printVersion(c.OutOrStdout())
			return
		}
		help(c, args)
	})
}

// wrapRunE makes every command's runtime failure an exit-2 exitErr (unless
// it already carries a code), so that run can tell them from cobra's usage
// errors, which get a usage hint.
func wrapRunE(c *cobra.Command) {
	if inner := c.RunE; inner != nil {
		c.RunE = func(cmd *cobra.Command, args []string) error {
			err := inner(cmd, args)
			if _, ok := errors.AsType[*exitErr](err); err == nil || ok {
				return err
			}
			return &exitErr{code: exitError, err: err}
		}
	}
	for _, sub := range c.Commands() {
		wrapRunE(sub)
	}
}
