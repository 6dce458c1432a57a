package lsp

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

// appendDiagnostics appends list as a JSON array, byte for byte what
// json.Marshal(list) gives (a test holds it to that), without reflection:
// encoding 10k diagnostics through encoding/json was a third of the
// server's time per keystroke in a 10k-item plan. Shapes planls never
// builds (a numeric code, foreign data, a code description) go through
// json.Marshal one diagnostic at a time.
func appendDiagnostics(buf []byte, list []protocol.Diagnostic) ([]byte, error) {
	return appendDiagnosticsWith(buf, list, nil)
}

// appendDiagnosticsWith is appendDiagnostics taking what follows each
// diagnostic's range from tails when it holds it (nil: no cache).
func appendDiagnosticsWith(buf []byte, list []protocol.Diagnostic, tails *tailCache) ([]byte, error) {
	if list == nil {
		return append(buf, "null"...), nil
	}
	buf = append(buf, '[')
	for i := range list {
		if i > 0 {
			buf = append(buf, ',')
		}
		var err error
		if buf, err = appendDiagnostic(buf, &list[i], tails); err != nil {
			return nil, err
		}
	}
	return append(buf, ']'), nil
}

func appendDiagnostic(buf []byte, d *protocol.Diagnostic, tails *tailCache) ([]byte, error) {
	code, codeOK := d.Code.(string)
	data, dataOK := d.Data.(diagData)
	if p, ok := d.Data.(*diagData); ok && p != nil {
		data, dataOK = *p, true
	}
	if d.Code == nil {
		codeOK = true
	}
	if d.Data == nil {
		dataOK = true
	}
	if !codeOK || !dataOK || d.CodeDescription != nil {
		b, err := json.Marshal(d)
		return append(buf, b...), err
	}
	buf = append(buf, `{"range":`...)
	buf = appendRange(buf, d.Range)
	if tails != nil {
		return tails.appendTail(buf, d, code, data), nil
	}
	return appendTail(buf, d, code, data), nil
}

// appendTail appends what follows the range of d, whose code and data
// appendDiagnostic read, up to its closing brace.
func appendTail(buf []byte, d *protocol.Diagnostic, code string, data diagData) []byte {
	if d.Severity != 0 {
		buf = append(buf, `,"severity":`...)
		buf = appendFloat(buf, float64(d.Severity))
	}
	if d.Code != nil {
		buf = append(buf, `,"code":`...)
		buf = appendString(buf, code)
	}
	if d.Source != "" {
		buf = append(buf, `,"source":`...)
		buf = appendString(buf, d.Source)
	}
	buf = append(buf, `,"message":`...)
	buf = appendString(buf, d.Message)
	if len(d.Tags) > 0 {
		buf = append(buf, `,"tags":[`...)
		for i, t := range d.Tags {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendFloat(buf, float64(t))
		}
		buf = append(buf, ']')
	}
	if len(d.RelatedInformation) > 0 {
		buf = append(buf, `,"relatedInformation":[`...)
		for i, ri := range d.RelatedInformation {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = append(buf, `{"location":{"uri":`...)
			buf = appendString(buf, string(ri.Location.URI))
			buf = append(buf, `,"range":`...)
			buf = appendRange(buf, ri.Location.Range)
			buf = append(buf, `},"message":`...)
			buf = appendString(buf, ri.Message)
			buf = append(buf, '}')
		}
		buf = append(buf, ']')
	}
	if d.Data != nil {
		buf = append(buf, `,"data":{`...)
		if data.ID != 0 {
			buf = append(buf, `"id":`...)
			buf = strconv.AppendInt(buf, int64(data.ID), 10)
			buf = append(buf, ',')
		}
		buf = append(buf, `"code":`...)
		buf = appendString(buf, data.Code)
		buf = append(buf, '}')
	}
	return append(buf, '}')
}

func appendRange(buf []byte, r protocol.Range) []byte {
	buf = append(buf, `{"start":{"line":`...)
	buf = strconv.AppendUint(buf, uint64(r.Start.Line), 10)
	buf = append(buf, `,"character":`...)
	buf = strconv.AppendUint(buf, uint64(r.Start.Character), 10)
	buf = append(buf, `},"end":{"line":`...)
	buf = strconv.AppendUint(buf, uint64(r.End.Line), 10)
	buf = append(buf, `,"character":`...)
	buf = strconv.AppendUint(buf, uint64(r.End.Character), 10)
	return append(buf, "}}"...)
}

// appendFloat writes severities and tags (small integers as float64) the
// way encoding/json does; anything else takes json.Marshal's path.
func appendFloat(buf []byte, f float64) []byte {
	if f == float64(int64(f)) && f > -1e6 && f < 1e6 {
		return strconv.AppendInt(buf, int64(f), 10)
	}
	b, _ := json.Marshal(f)
	return append(buf, b...)
}

// appendString quotes s as encoding/json does. The common case (no byte
// it escapes, valid UTF-8, no U+2028/U+2029) is copied as is, after one
// byte pass that checks it: a table for ASCII, the lead byte of U+2028 and
// U+2029, and utf8.ValidString only for strings with non-ASCII bytes.
func appendString(buf []byte, s string) []byte {
	high := false
	i := 0
	// Eight bytes at a time: a word of ASCII that needs no escape is
	// passed over whole, any other word goes through the table.
	for ; i+8 <= len(s); i += 8 {
		x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		if x&swarHi|swarLess(x, 0x20)|swarEq(x, '"')|swarEq(x, '\\')|swarEq(x, '<')|swarEq(x, '>')|swarEq(x, '&') == 0 {
			continue
		}
		for j := i; j < i+8; j++ {
			switch quoteClass[s[j]] {
			case quoteEscape:
				return appendQuoted(buf, s)
			case quoteHigh:
				high = true
			case quoteE2:
				if isLineSep(s, j) {
					return appendQuoted(buf, s)
				}
				high = true
			}
		}
	}
	for ; i < len(s); i++ {
		switch quoteClass[s[i]] {
		case quoteEscape:
			return appendQuoted(buf, s)
		case quoteHigh:
			high = true
		case quoteE2:
			if isLineSep(s, i) {
				return appendQuoted(buf, s)
			}
			high = true
		}
	}
	if high && !utf8.ValidString(s) {
		return appendQuoted(buf, s)
	}
	buf = append(buf, '"')
	buf = append(buf, s...)
	return append(buf, '"')
}

// isLineSep reports whether s holds U+2028 or U+2029 (E2 80 A8, E2 80 A9)
// at i.
func isLineSep(s string, i int) bool {
	return i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xA8 || s[i+2] == 0xA9)
}

// Byte classes of appendString.
const (
	quotePlain  = iota
	quoteEscape // encoding/json escapes it: controls, '"', '\\', '<', '>', '&'
	quoteHigh   // part of a multi-byte sequence (or invalid)
	quoteE2     // may start U+2028 or U+2029
)

var quoteClass = func() (t [256]byte) {
	for c := 0; c < 0x20; c++ {
		t[c] = quoteEscape
	}
	for _, c := range `"\<>&` {
		t[c] = quoteEscape
	}
	for c := 0x80; c < 0x100; c++ {
		t[c] = quoteHigh
	}
	t[0xE2] = quoteE2
	return t
}()

// appendQuoted is encoding/json's quoting, for the strings that need it.
func appendQuoted(buf []byte, s string) []byte {
	b, _ := json.Marshal(s)
	return append(buf, b...)
}
