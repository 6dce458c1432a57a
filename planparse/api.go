package planparse

// Parse parses plan markdown. It never fails and never panics: malformed or
// hostile input (binary bytes, huge lines, deep nesting, unclosed fences) still
// gives a Plan, in time linear in len(src). src is not modified or retained.
// Parse is safe for concurrent use. All ranges in the Plan are byte offsets
// into src itself (a BOM, CRLF or lone CR is never stripped before counting).
func Parse(src []byte) *Plan { return parse(src) }
