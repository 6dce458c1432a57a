package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// maxBatch caps the messages of one JSON-RPC batch, so a line of tiny bad
// elements cannot make the server build millions of error replies.
const maxBatch = 1000

// JSON-RPC 2.0 error replies for input the SDK cannot take. The SDK ends the
// session on such input; the server answers it instead (JSON-RPC 2.0 §5.1).
const (
	msgNotUTF8    = "Parse error: the message is not valid UTF-8"
	msgNotMessage = "Invalid Request: a message must be a JSON object or a batch array"
	msgNotObject  = "Invalid Request: a batch element must be a JSON object"
	msgEmptyBatch = "Invalid Request: empty batch"
	msgVersion    = `Invalid Request: "jsonrpc" must be "2.0"`
	msgIDType     = `Invalid Request: "id" must be a string, a number or null`
	msgMethodType = `Invalid Request: "method" must be a string`
	msgNoMethod   = `Invalid Request: a message needs a "method", or an "id" when it is a response`
	msgIDInUse    = "Invalid Request: request id %s is already in use"
)

// msgBatchTooBig names the cap it enforces.
var msgBatchTooBig = fmt.Sprintf("Invalid Request: a batch may hold at most %d messages", maxBatch)

// msgTooLong answers a line longer than max bytes (the reader's cap).
func msgTooLong(max int) string {
	return fmt.Sprintf("Invalid Request: the message is longer than %d bytes", max)
}

// errReply is an error response the server writes itself. id is the raw
// JSON of the request's id, "null" when it could not be told (JSON-RPC 2.0
// §5: "If there was an error in detecting the id ... it MUST be Null").
type errReply struct {
	id      json.RawMessage
	code    int
	message string
}

var nullID = json.RawMessage("null")

// encode is the reply's wire form, without a newline. Unlike the SDK's
// encoder it keeps "id": null.
func (e *errReply) encode() []byte {
	type wireErr struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	b, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   wireErr         `json:"error"`
	}{"2.0", e.id, wireErr{e.code, e.message}})
	if err != nil { // only a malformed id could fail; answer with null
		return []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":` + strconv.Itoa(e.code) + `,"message":` + strconv.Quote(e.message) + `}}`)
	}
	return b
}

// element is one message of a line: exactly one of msg and err is set.
// For err, id is the request id it echoes (invalid when it echoes null).
type element struct {
	msg jsonrpc.Message
	err *errReply
	id  jsonrpc.ID
}

// parsedLine is what one non-blank input line holds.
type parsedLine struct {
	elems []element
	batch bool // the line was a JSON array: replies go back as one array
}

// parseLine checks one input line (without its newline) against JSON-RPC
// 2.0 and the SDK's decoder. Every msg it returns decodes with
// jsonrpc.DecodeMessage; everything else becomes an error reply. A line that
// is not UTF-8 or not JSON, an empty or oversized batch, or a value that is
// neither object nor array yields one non-batch error.
func parseLine(line []byte) parsedLine {
	if !utf8.Valid(line) {
		return single(nil, -32700, msgNotUTF8)
	}
	var raw json.RawMessage
	if err := json.Unmarshal(line, &raw); err != nil {
		return single(nil, -32700, "Parse error: "+err.Error())
	}
	switch raw[0] {
	case '{':
		return parsedLine{elems: []element{parseObject(raw)}}
	case '[':
		var items []json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil {
			return single(nil, -32600, "Invalid Request: "+err.Error())
		}
		switch {
		case len(items) == 0:
			return single(nil, -32600, msgEmptyBatch)
		case len(items) > maxBatch:
			return single(nil, -32600, msgBatchTooBig)
		}
		p := parsedLine{batch: true, elems: make([]element, len(items))}
		for i, item := range items {
			if item[0] != '{' {
				p.elems[i] = errElement(nil, -32600, msgNotObject)
				continue
			}
			p.elems[i] = parseObject(item)
		}
		return p
	}
	return single(nil, -32600, msgNotMessage)
}

// parseObject checks one JSON object (valid JSON, UTF-8) as a message. A
// request's error reply echoes its id when the id itself is well formed.
func parseObject(raw json.RawMessage) element {
	var f map[string]json.RawMessage
	if err := json.Unmarshal(raw, &f); err != nil {
		return errElement(nil, -32600, "Invalid Request: "+err.Error())
	}
	idRaw, hasID := f["id"]
	id, idOK := parseID(idRaw)
	methodRaw, hasMethod := f["method"]
	echo := nullID
	if hasMethod && idOK && id.IsValid() {
		echo = idRaw
	}
	var version string
	if err := json.Unmarshal(f["jsonrpc"], &version); err != nil || version != "2.0" {
		return errElementID(echo, id, -32600, msgVersion)
	}
	if hasID && !idOK {
		return errElement(nil, -32600, msgIDType)
	}
	if hasMethod {
		if len(methodRaw) == 0 || methodRaw[0] != '"' {
			return errElementID(echo, id, -32600, msgMethodType)
		}
	} else if !id.IsValid() {
		return errElement(nil, -32600, msgNoMethod)
	}
	msg, err := jsonrpc.DecodeMessage(raw)
	if err != nil {
		return errElementID(echo, id, -32600, "Invalid Request: "+err.Error())
	}
	return element{msg: msg}
}

// parseID reads a raw JSON id: absent and null give the zero ID, strings and
// numbers give an ID as the SDK makes it; ok is false for other JSON types.
func parseID(raw json.RawMessage) (jsonrpc.ID, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return jsonrpc.ID{}, true
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return jsonrpc.ID{}, false
	}
	switch v.(type) {
	case string, float64:
		id, err := jsonrpc.MakeID(v)
		return id, err == nil
	}
	return jsonrpc.ID{}, false
}

func single(id json.RawMessage, code int, message string) parsedLine {
	return parsedLine{elems: []element{errElement(id, code, message)}}
}

func errElement(id json.RawMessage, code int, message string) element {
	return errElementID(id, jsonrpc.ID{}, code, message)
}

func errElementID(raw json.RawMessage, id jsonrpc.ID, code int, message string) element {
	if raw == nil || bytes.Equal(raw, nullID) {
		raw, id = nullID, jsonrpc.ID{}
	}
	return element{err: &errReply{id: raw, code: code, message: message}, id: id}
}

// sprintID formats format with id as JSON (a quoted string or a number).
func sprintID(format string, id jsonrpc.ID) string {
	b, err := json.Marshal(id.Raw())
	if err != nil {
		b = []byte("null")
	}
	return fmt.Sprintf(format, b)
}
