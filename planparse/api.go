package planparse

// Parse parses plan markdown. It never fails and never panics: malformed or
// hostile input (binary bytes, huge lines, deep nesting, unclosed fences) still
// gives a Plan, in time linear in len(src). src is not modified or retained.
func Parse(src []byte) *Plan { return parse(src) }
