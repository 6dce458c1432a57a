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
	if list == nil {
		return append(buf, "null"...), nil
	}
	buf = append(buf, '[')
	for i := range list {
		if i > 0 {
			buf = append(buf, ',')
		}
		var err error
		if buf, err = appendDiagnostic(buf, &list[i]); err != nil {
			return nil, err
		}
	}
	return append(buf, ']'), nil
}

func appendDiagnostic(buf []byte, d *protocol.Diagnostic) ([]byte, error) {
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
	return append(buf, '}'), nil
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
// pass that checks it.
func appendString(buf []byte, s string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
				return appendQuoted(buf, s)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || r == '\u2028' || r == '\u2029' {
			return appendQuoted(buf, s)
		}
		i += size
	}
	buf = append(buf, '"')
	buf = append(buf, s...)
	return append(buf, '"')
}

// appendQuoted is encoding/json's quoting, for the strings that need it.
func appendQuoted(buf []byte, s string) []byte {
	b, _ := json.Marshal(s)
	return append(buf, b...)
}
