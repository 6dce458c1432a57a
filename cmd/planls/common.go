package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/planls/planls/core"
	"github.com/planls/planls/store"
)

// actor names the command line in the journal and in lock-holder messages.
const actor = "cli"

// failf is an exit-2 error (I/O, state, lock, no root).
func failf(format string, a ...any) error {
	return &exitErr{code: exitError, err: fmt.Errorf(format, a...)}
}

// fail wraps err as an exit-2 error.
func fail(err error) error { return &exitErr{code: exitError, err: err} }

// usagef is a command-line mistake found by a command itself (exit 2); the
// error output then points at that command's --help.
func usagef(format string, a ...any) error {
	return &exitErr{code: exitError, err: fmt.Errorf(format, a...), usage: true}
}

// findRoot resolves the workspace root from --root, $PLANLS_ROOT and the
// working directory.
func findRoot(cmd *cobra.Command) (string, error) {
	flag, _ := cmd.Flags().GetString("root")
	wd, err := os.Getwd()
	if err != nil {
		return "", fail(err)
	}
	root, err := store.FindRoot(flag, wd)
	if err != nil {
		return "", fail(err)
	}
	return root, nil
}

// openStore is the store of the workspace root.
func openStore(cmd *cobra.Command) (*store.Store, error) {
	root, err := findRoot(cmd)
	if err != nil {
		return nil, err
	}
	return store.Open(root, actor), nil
}

// openState opens the workspace's store and reads its state.
func openState(cmd *cobra.Command) (*store.Store, *core.State, error) {
	s, err := openStore(cmd)
	if err != nil {
		return nil, nil, err
	}
	st, err := s.Read()
	if err != nil {
		return nil, nil, fail(err)
	}
	return s, st, nil
}

// displayPath shows a file the way a terminal user can open it: relative
// to the working directory when that lies inside the root (or the file lies
// below it), so "../PLAN.md" from a subdirectory; else absolute.
// Slash-separated.
func displayPath(abs, root string) string {
	wd, err := os.Getwd()
	if err != nil {
		return filepath.ToSlash(abs)
	}
	if within(wd, root) || within(abs, wd) {
		if r, err := filepath.Rel(wd, abs); err == nil {
			return filepath.ToSlash(r)
		}
	}
	return filepath.ToSlash(abs)
}

// within reports whether p is dir or below it.
func within(p, dir string) bool {
	r, err := filepath.Rel(dir, p)
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator))
}

// writeJSON writes v to cmd's stdout as JSON without HTML escaping, each
// level indented by indent ("  " for people, "": one line, as hooks answer).
func writeJSON(cmd *cobra.Command, v any, indent string) error {
	enc := json.NewEncoder(cmd.OutOrStdout())
	enc.SetEscapeHTML(false)
	enc.SetIndent("", indent)
	return enc.Encode(v)
}

// buildVersion is set with -ldflags "-X main.buildVersion=v1.2.3".
var buildVersion = ""

// version is the release version, else what the build recorded about its
// source (versionFrom).
func version() string {
	if buildVersion != "" {
		return buildVersion
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	return versionFrom(info)
}

// versionFrom names the build in info: the main module's version when the
// go command stamped one (a release tag, or from Go 1.24 on a pseudo-version
// such as v0.0.0-20261130090040-89e9b5e1a9e2+dirty for a build in a
// checkout); else the same pseudo-version form made from the VCS settings
// (vcs.time, vcs.revision, vcs.modified) when the build recorded them; else
// "devel" (no VCS information: -buildvcs=false, or not built in a checkout).
func versionFrom(info *debug.BuildInfo) string {
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, at string
	dirty := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "devel"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	stamp := "00010101000000"
	if t, err := time.Parse(time.RFC3339, at); err == nil {
		stamp = t.UTC().Format("20060102150405")
	}
	v := "v0.0.0-" + stamp + "-" + rev
	if dirty {
		v += "+dirty"
	}
	return v
}

// printVersion writes the line `planls version` and `planls --version` print.
func printVersion(w io.Writer) { fmt.Fprintf(w, "planls %s\n", version()) }

// newVersionCmd is `planls version`.
func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the planls version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			printVersion(cmd.OutOrStdout())
			return nil
		},
	}
}
