package lsp

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

// The publishDiagnostics of a keystroke carries every diagnostic of the
// plan, and encoding/json's reflection over 1,000 of them was 1.1 ms of
// the keystroke's 7 (BenchmarkInProcessKeystroke/1000 profile). The
// encoder below writes the same bytes (TestDiagnosticsJSON compares it
// with encoding/json) for the shapes planls publishes; anything else
// (a Code or Data of another type) falls back to encoding/json.

// appendPublish appends the textDocument/publishDiagnostics notification
// of list for uri (version 0: none) as one JSON-RPC message; body is where
// the list starts in it.
func appendPublish(b []byte, uri string, version uint32, list []protocol.Diagnostic) (_ []byte, body int, err error) {
	b = append(b, `{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":`...)
	b = appendString(b, uri)
	if version > 0 {
		b = append(b, `,"version":`...)
		b = strconv.AppendUint(b, uint64(version), 10)
	}
	b = append(b, `,"diagnostics":[`...)
	body = len(b)
	for i := range list {
		if i > 0 {
			b = append(b, ',')
		}
		if b, err = appendDiagnostic(b, &list[i]); err != nil {
			return nil, 0, err
		}
	}
	return append(b, "]}}"...), body, nil
}

func appendDiagnostic(b []byte, d *protocol.Diagnostic) ([]byte, error) {
	code, codeOK := d.Code.(string)
	data, dataOK := d.Data.(*diagData)
	if (d.Code != nil && !codeOK) || (d.Data != nil && !dataOK) || d.CodeDescription != nil {
		raw, err := json.Marshal(d)
		return append(b, raw...), err
	}
	b = append(b, `{"range":`...)
	b = appendRange(b, d.Range)
	if d.Severity != 0 {
		b = append(b, `,"severity":`...)
		b = strconv.AppendInt(b, int64(d.Severity), 10)
	}
	if code != "" {
		b = append(b, `,"code":`...)
		b = appendString(b, code)
	}
	if d.Source != "" {
		b = append(b, `,"source":`...)
		b = appendString(b, d.Source)
	}
	b = append(b, `,"message":`...)
	b = appendString(b, d.Message)
	if len(d.Tags) > 0 {
		b = append(b, `,"tags":[`...)
		for i, t := range d.Tags {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(t), 10)
		}
		b = append(b, ']')
	}
	if len(d.RelatedInformation) > 0 {
		b = append(b, `,"relatedInformation":[`...)
		for i, r := range d.RelatedInformation {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"location":{"uri":`...)
			b = appendString(b, string(r.Location.URI))
			b = append(b, `,"range":`...)
			b = appendRange(b, r.Location.Range)
			b = append(b, `},"message":`...)
			b = appendString(b, r.Message)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if dataOK {
		b = append(b, `,"data":{`...)
		if data.ID != 0 {
			b = append(b, `"id":`...)
			b = strconv.AppendInt(b, int64(data.ID), 10)
			b = append(b, ',')
		}
		b = append(b, `"code":`...)
		b = appendString(b, data.Code)
		if data.Gone {
			b = append(b, `,"gone":true`...)
		}
		b = append(b, '}')
	}
	return append(b, '}'), nil
}

func appendRange(b []byte, r protocol.Range) []byte {
	b = append(b, `{"start":`...)
	b = appendPosition(b, r.Start)
	b = append(b, `,"end":`...)
	b = appendPosition(b, r.End)
	return append(b, '}')
}

func appendPosition(b []byte, p protocol.Position) []byte {
	b = append(b, `{"line":`...)
	b = strconv.AppendUint(b, uint64(p.Line), 10)
	b = append(b, `,"character":`...)
	b = strconv.AppendUint(b, uint64(p.Character), 10)
	return append(b, '}')
}

// plainJSON are the ASCII bytes a JSON string holds as they are: one
// lookup, not six comparisons, per byte of a publish's messages.
var plainJSON = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// appendString appends s as encoding/json writes a string: HTML characters,
// control characters, U+2028 and U+2029 escaped, invalid UTF-8 as U+FFFD.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if plainJSON[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
