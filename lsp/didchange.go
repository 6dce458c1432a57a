package lsp

import (
	"bytes"
	"encoding/json"
	unicode16 "unicode/utf16"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

// changeParams is what didChange uses of DidChangeTextDocumentParams.
type changeParams struct {
	uri     string
	version int32
	changes int    // len(contentChanges)
	text    []byte // the last change's text (full sync)
}

// decodeDidChange decodes didChange params. The usual shape (textDocument,
// then contentChanges whose last element is {"text": ...} with a string
// free of \u escapes, raw control characters and invalid UTF-8) is read by
// the structural scanner and unquoted straight into the buffer's bytes:
// encoding/json validated, unquoted and then copied a 1 MB text, a sixth of
// a keystroke's cost in a 10k-item plan. Everything else goes through
// encoding/json, so results and errors (InvalidParams) are the same.
func decodeDidChange(raw json.RawMessage) (changeParams, error) {
	if cp, ok := scanDidChange(raw); ok {
		return cp, nil
	}
	return decodeDidChangeJSON(raw)
}

// decodeDidChangeJSON is decodeDidChange through encoding/json alone.
func decodeDidChangeJSON(raw json.RawMessage) (changeParams, error) {
	var p protocol.DidChangeTextDocumentParams
	if err := decode(raw, &p); err != nil {
		return changeParams{}, err
	}
	cp := changeParams{uri: string(p.TextDocument.URI), version: p.TextDocument.Version, changes: len(p.ContentChanges)}
	if cp.changes > 0 {
		cp.text = []byte(p.ContentChanges[cp.changes-1].Text)
	}
	return cp, nil
}

func scanDidChange(raw []byte) (cp changeParams, ok bool) {
	var doc, changes []byte
	ok = members(raw, func(key, val []byte) bool {
		switch string(key) {
		case "textDocument":
			if doc != nil {
				return false
			}
			doc = val
		case "contentChanges":
			if changes != nil {
				return false
			}
			changes = val
		default:
			return false
		}
		return true
	})
	if !ok || doc == nil || changes == nil {
		return cp, false
	}
	var td struct {
		URI     string `json:"uri"`
		Version int32  `json:"version"`
	}
	if json.Unmarshal(doc, &td) != nil {
		return cp, false
	}
	var last []byte
	ok = elements(changes, func(val []byte) bool {
		// Earlier changes are superseded but must still decode.
		if last != nil && !json.Valid(last) {
			return false
		}
		last = val
		cp.changes++
		return true
	})
	if !ok || last == nil {
		return cp, false
	}
	var text []byte
	ok = members(last, func(key, val []byte) bool {
		if string(key) != "text" || text != nil || val[0] != '"' {
			return false
		}
		text = val
		return true
	})
	if !ok {
		return cp, false
	}
	if cp.text, ok = unquoteText(text); !ok {
		return cp, false
	}
	cp.uri, cp.version = td.URI, td.Version
	return cp, true
}

// changeTarget reads the uri and version of didChange params without
// decoding (or scanning past) the text: the dispatcher asks it of every
// queued change while typing in a large plan. ok is false when they cannot
// be read.
func changeTarget(raw []byte) (uri string, version int32, ok bool) {
	var doc []byte
	members(raw, func(key, val []byte) bool {
		if string(key) == "textDocument" {
			doc = val
			return false // found: stop before the text
		}
		return true
	})
	var td struct {
		URI     string `json:"uri"`
		Version int32  `json:"version"`
	}
	if doc == nil || json.Unmarshal(doc, &td) != nil {
		return "", 0, false
	}
	return td.URI, td.Version, true
}

// unquoteText unquotes a JSON string literal (quotes included). ok is false
// for raw control characters, invalid UTF-8 and \u escapes of lone
// surrogates, which encoding/json replaces with U+FFFD.
func unquoteText(q []byte) ([]byte, bool) {
	if len(q) < 2 || q[0] != '"' || q[len(q)-1] != '"' {
		return nil, false
	}
	s := q[1 : len(q)-1]
	for _, c := range s {
		if c < 0x20 {
			return nil, false
		}
	}
	if !utf8.Valid(s) {
		return nil, false
	}
	out := make([]byte, 0, len(s))
	for len(s) > 0 {
		i := bytes.IndexByte(s, '\\')
		if i < 0 {
			out = append(out, s...)
			break
		}
		out = append(out, s[:i]...)
		if i+1 >= len(s) {
			return nil, false
		}
		switch c := s[i+1]; c {
		case '"', '\\', '/':
			out = append(out, c)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			// encoding/json escapes <, > and & this way: Go clients send it.
			r, n := unicodeEscape(s[i:])
			if n == 0 {
				return nil, false
			}
			out = utf8.AppendRune(out, r)
			s = s[i+n:]
			continue
		default:
			return nil, false
		}
		s = s[i+2:]
	}
	return out, true
}

// unicodeEscape decodes the \uXXXX escape (or surrogate pair of them) that
// s starts with: the rune and the bytes used, 0 when it is malformed or a
// lone surrogate.
func unicodeEscape(s []byte) (rune, int) {
	r, ok := hex4(s)
	if !ok {
		return 0, 0
	}
	if !unicode16.IsSurrogate(r) {
		return r, 6
	}
	if lo, ok := hex4(s[min(6, len(s)):]); ok {
		if pair := unicode16.DecodeRune(r, lo); pair != utf8.RuneError {
			return pair, 12
		}
	}
	return 0, 0
}

// hex4 reads "\uXXXX" at the start of s.
func hex4(s []byte) (rune, bool) {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return 0, false
	}
	var r rune
	for _, c := range s[2:6] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}
