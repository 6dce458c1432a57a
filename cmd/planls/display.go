package main

import "github.com/planls/planls/core"

// term makes a title or subject safe to print in human output: C0 and C1
// control characters and DEL become spaces, so text from a state or plan
// file cannot move the cursor, recolour or retitle the terminal, or break
// the one-line-per-item layout. Display only; the state keeps the bytes.
func term(s string) string { return core.NoControls(s) }
