package mcp

import "fmt"

// DetailsKey is the _meta key of a tool result that holds its details
// snapshot (details.go): `"_meta": {"planls/details": {...}}`.
const DetailsKey = "planls/details"

// ParseStructured reads the --structured-content flag: never (false, the
// default) or always (true), Options.Structured.
func ParseStructured(s string) (bool, error) {
	switch s {
	case "", "never":
		return false, nil
	case "always":
		return true, nil
	}
	return false, fmt.Errorf("--structured-content is %q: want never or always", s)
}
