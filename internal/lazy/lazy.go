// Package lazy builds package-level values on first use instead of at
// program start. Every planls command is a new process that runs every
// linked package's initialisers, and most commands use few of them: a
// regexp.MustCompile in a var declaration costs each `planls todo update`
// its compile whether the command matches anything or not.
package lazy

import (
	"regexp"
	"sync"
)

// Regexp returns a function that compiles expr (RE2 syntax, as
// regexp.MustCompile) on its first call and returns the same *regexp.Regexp
// on every call; it is safe for concurrent use. An invalid expr panics on
// that first call, where regexp.MustCompile would have panicked at start.
func Regexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
