// Package gitclone is what planls asks of the git clone a workspace lives
// in, through git's command line (the one interface every installation
// has): who works in it, and whether git merges .planls/ with the planls
// merge driver (and setting that up).
package gitclone

import (
	"os"
	"os/exec"
	"os/user"
	"strings"
)

// Out runs git in dir and returns its trimmed stdout; ok is false when git
// is missing or exits non-zero.
func Out(dir string, args ...string) (string, bool) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	out, err := cmd.Output()
	if err != nil {
		return "", false
	}
	return strings.TrimSpace(string(out)), true
}

// Person names who acts in dir, for a journal entry a person made: git's
// "user.name <user.email>" (either alone when only one is set), else the
// login name ($USER, then the account's), else "".
func Person(dir string) string {
	name, _ := Out(dir, "config", "user.name")
	email, _ := Out(dir, "config", "user.email")
	switch {
	case name != "" && email != "":
		return name + " <" + email + ">"
	case name != "":
		return name
	case email != "":
		return "<" + email + ">"
	}
	if u := os.Getenv("USER"); u != "" {
		return u
	}
	if u, err := user.Current(); err == nil {
		return u.Username
	}
	return ""
}
