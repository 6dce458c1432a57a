package store

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/planls/planls/core"
)

// encodeState renders a state for small git diffs:
// UTF-8 without BOM, two-space indent, tasks sorted by id, struct field order
// for keys (metadata keys sorted by encoding/json), HTML characters left
// unescaped so "<" in a subject stays readable, and a trailing newline.
// st is not modified.
func encodeState(st *core.State) ([]byte, error) {
	out := *st
	if out.Tasks == nil {
		out.Tasks = []core.Task{}
	}
	if !slices.IsSortedFunc(out.Tasks, byID) {
		out.Tasks = slices.Clone(out.Tasks)
		slices.SortStableFunc(out.Tasks, byID)
	}
	return marshal(&out, "  ")
}

// marshal is json.Marshal without HTML escaping, with the given indent
// ("" for one line), ending in a newline.
func marshal(v any, indent string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if indent != "" {
		enc.SetIndent("", indent)
	}
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func byID(a, b core.Task) int { return a.ID - b.ID }
