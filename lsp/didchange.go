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
	if cp, ok := scanCompactChange(raw); ok {
		return cp, true
	}
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
	if q, one := soleText(changes); one {
		if cp.text, ok = unquoteText(q); ok {
			cp.uri, cp.version, cp.changes = td.URI, td.Version, 1
			return cp, true
		}
		cp.text = nil
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

// scanCompactChange reads params spelled exactly as a full-sync client
// (and encoding/json) writes them, {"textDocument":{...},"contentChanges":
// [{"text":"..."}]}, passing over the text only to unquote it: the text is
// the whole message, and each scan of it costs. The shape is proved as it
// is read (json.Unmarshal validates the document, unquoteText that the
// text is one string literal); ok is false for any other spelling.
func scanCompactChange(raw []byte) (cp changeParams, ok bool) {
	const docKey, changesKey = `{"textDocument":`, `,"contentChanges":`
	if !bytes.HasPrefix(raw, []byte(docKey)) || len(raw) <= len(docKey) || raw[len(docKey)] != '{' || raw[len(raw)-1] != '}' {
		return cp, false
	}
	end := skipValue(raw, len(docKey))
	if end < 0 || !bytes.HasPrefix(raw[end:], []byte(changesKey)) {
		return cp, false
	}
	q, one := soleText(raw[end+len(changesKey) : len(raw)-1])
	if !one {
		return cp, false
	}
	var td struct {
		URI     string `json:"uri"`
		Version int32  `json:"version"`
	}
	if json.Unmarshal(raw[len(docKey):end], &td) != nil {
		return cp, false
	}
	if cp.text, ok = unquoteText(q); !ok {
		return changeParams{}, false
	}
	cp.uri, cp.version, cp.changes = td.URI, td.Version, 1
	return cp, true
}

// soleText returns the string literal of contentChanges written exactly as
// [{"text":"..."}], the one change a full-sync client sends, without a scan
// of its own: unquoteText then refuses a literal that is not one string.
// one is false for any other spelling, which elements reads.
func soleText(changes []byte) (q []byte, one bool) {
	const head, tail = `[{"text":"`, `"}]`
	if len(changes) < len(head)+len(tail) || string(changes[:len(head)]) != head || string(changes[len(changes)-len(tail):]) != tail {
		return nil, false
	}
	return changes[len(head)-1 : len(changes)-len(tail)+1], true
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
// for raw control characters, invalid UTF-8, \u escapes of lone surrogates
// (which encoding/json replaces with U+FFFD) and a '"' not escaped (q is
// then not one literal).
func unquoteText(q []byte) ([]byte, bool) {
	if len(q) < 2 || q[0] != '"' || q[len(q)-1] != '"' {
		return nil, false
	}
	s := q[1 : len(q)-1]
	if !utf8.Valid(s) {
		return nil, false
	}
	out := make([]byte, 0, len(s))
	for len(s) > 0 {
		i := indexUnquoteStop(s)
		if i < 0 {
			out = append(out, s...)
			break
		}
		out = append(out, s[:i]...)
		if s[i] != '\\' || i+1 >= len(s) {
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
