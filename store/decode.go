package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/planls/planls/core"
	"github.com/planls/planls/planparse"
)

// repairHint ends every message about a damaged state file: the file is never
// rewritten by planls, so the person needs to know their two ways out.
const repairHint = "rebuild it from the journal (planls doctor --rebuild --move-aside keeps the bad file as " + StateName + ".corrupt-<time>), or restore a committed copy (git checkout " + DirName + "/" + StateName + ")"

// decodeState turns the bytes of a state file into a State, or explains
// precisely why it cannot: the encoding, merge-conflict markers, emptiness,
// truncation, JSON syntax and type errors (with 1-based line and byte column
// of the original bytes), and core.Validate's errors. A UTF-8 BOM is accepted.
func decodeState(path string, data []byte) (*core.State, error) {
	serr := func(off int, msg string) *StateError {
		e := &StateError{Path: path, Msg: msg}
		if off >= 0 {
			e.Line, e.Col = planparse.NewLines(data).LineCol(off)
		}
		return e
	}
	if len(data) == 0 {
		return nil, serr(-1, "empty file (0 bytes), probably cut short by a crash; "+repairHint)
	}
	if enc := wideEncoding(data); enc != "" {
		return nil, serr(-1, "unsupported encoding "+enc+"; re-save the file as UTF-8 (without BOM)")
	}
	body := data
	bom := 0
	if bytes.HasPrefix(body, []byte("\xEF\xBB\xBF")) {
		bom = 3
		body = body[3:]
	}
	if line := conflictLine(body); line > 0 {
		e := &StateError{Path: path, Line: line, Col: 1,
			Msg: fmt.Sprintf("merge conflict in %s at line %d (git merged it without the planls merge driver); planls doctor --rebuild --move-aside merges both sides from the journal (keeping one side of the block would drop the other side's changes)", relState(), line)}
		return nil, e
	}
	if !utf8.Valid(body) {
		off := bom + firstInvalidUTF8(body)
		return nil, serr(off, "invalid UTF-8; re-save the file as UTF-8 (without BOM)")
	}
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	if len(trimmed) == 0 {
		return nil, serr(-1, "empty file (only whitespace), probably cut short by a crash; "+repairHint)
	}
	if trimmed[0] != '{' {
		return nil, serr(bom+len(body)-len(trimmed), "not a planls state: expected a JSON object")
	}
	st := new(core.State)
	if err := json.Unmarshal(body, st); err != nil {
		return nil, jsonError(path, data, bom, len(body), err)
	}
	if st.Version > core.SchemaVersion {
		return nil, serr(-1, fmt.Sprintf("state schema version %d is newer than this planls understands (%d); upgrade planls", st.Version, core.SchemaVersion))
	}
	if st.Version == 0 {
		st.Version = core.SchemaVersion
	}
	if st.Tasks == nil {
		st.Tasks = []core.Task{}
	}
	if st.NextID == 0 && len(st.Tasks) == 0 {
		st.NextID = 1
	}
	// A state written before tasks had an identity (or a task added by
	// hand): each gets the one every reader derives alike.
	core.EnsureUIDs(st.Tasks)
	if errs, _ := core.Validate(st); len(errs) > 0 {
		return nil, serr(-1, "invalid state: "+strings.Join(errs, "; ")+"; "+repairHint)
	}
	return st, nil
}

// jsonError maps encoding/json's errors (whose offsets count bytes of body,
// the file after its BOM) to StateErrors on the original bytes.
func jsonError(path string, data []byte, bom, n int, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	e := &StateError{Path: path}
	switch {
	case errors.As(err, &syn):
		off := int(syn.Offset)
		if off >= n || strings.Contains(syn.Error(), "unexpected end of JSON input") {
			// Point just after the last byte of content, not at a final newline.
			e.Line, e.Col = planparse.NewLines(data).LineCol(len(bytes.TrimRight(data, " \t\r\n")))
			e.Msg = "truncated file: the JSON ends before it is complete, probably cut short by a crash; " + repairHint
			return e
		}
		// The offset counts the bad byte itself; point at it, not after it.
		if off > 0 {
			off--
		}
		e.Line, e.Col = planparse.NewLines(data).LineCol(bom + off)
		e.Msg = "invalid JSON: " + syn.Error()
	case errors.As(err, &typ):
		e.Line, e.Col = planparse.NewLines(data).LineCol(bom + valueStart(data[bom:], int(typ.Offset)))
		field := typ.Field
		if field == "" {
			field = "value"
		}
		e.Msg = fmt.Sprintf("%s: a JSON %s where %s was expected", field, typ.Value, typ.Type)
	default:
		e.Msg = "invalid value: " + err.Error()
	}
	return e
}

// wideEncoding names a UTF-16 or UTF-32 encoding recognised by its BOM or by
// the NUL bytes an ASCII "{" leaves around it, or returns "".
func wideEncoding(b []byte) string {
	switch {
	case bytes.HasPrefix(b, []byte{0x00, 0x00, 0xFE, 0xFF}):
		return "UTF-32BE"
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE, 0x00, 0x00}):
		return "UTF-32LE"
	case bytes.HasPrefix(b, []byte{0xFE, 0xFF}):
		return "UTF-16BE"
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE}):
		return "UTF-16LE"
	}
	if len(b) >= 4 {
		switch {
		case b[0] == 0 && b[1] == 0 && b[2] == 0 && b[3] != 0:
			return "UTF-32BE"
		case b[0] != 0 && b[1] == 0 && b[2] == 0 && b[3] == 0:
			return "UTF-32LE"
		}
	}
	if len(b) >= 2 {
		switch {
		case b[0] == 0 && b[1] != 0:
			return "UTF-16BE"
		case b[0] != 0 && b[1] == 0:
			return "UTF-16LE"
		}
	}
	return ""
}

// conflictLine returns the 1-based line of the first merge-conflict marker
// (<<<<<<<, |||||||, =======, >>>>>>> at the start of a line), or 0. No
// valid JSON line can start with these, so there are no false alarms.
func conflictLine(b []byte) int {
	return slices.IndexFunc(bytes.Split(b, []byte("\n")), isConflictMarker) + 1
}

func firstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(b)
}

// valueStart finds the start of the scalar JSON value that ends at byte end
// (encoding/json reports type errors after the value), so the column points
// at the value, not past it.
func valueStart(b []byte, end int) int {
	end = min(end, len(b))
	if end == 0 {
		return 0
	}
	i := end - 1
	if b[i] == '"' {
		for i--; i >= 0; i-- {
			if b[i] == '"' {
				bs := 0
				for j := i - 1; j >= 0 && b[j] == '\\'; j-- {
					bs++
				}
				if bs%2 == 0 {
					return i
				}
			}
		}
		return 0
	}
	for i >= 0 && strings.IndexByte("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.+-", b[i]) >= 0 {
		i--
	}
	return i + 1
}
