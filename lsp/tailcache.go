package lsp

import (
	"go.lsp.dev/protocol"
)

// tailCache keeps, per task and kind of diagnostic, the JSON that follows
// a diagnostic's range (severity, code, source, message, data): from one
// keystroke to the next almost every item's is the same while its range
// moves, and encoding 10k messages was half of a publish. An entry holds
// every input it was encoded from and is used only when all of them are
// equal to the diagnostic's, so it cannot be stale; a diagnostic with tags,
// related information, no task id or an id from maxTailID is encoded as
// usual.
// Guarded by server.mu.
type tailCache struct {
	slots []*tailEntry // by tailSlot
}

// tailEntry is one cached tail and every input it was encoded from.
type tailEntry struct {
	sev               protocol.DiagnosticSeverity
	code, source, msg string
	dataCode          string
	dataID            int
	hasCode, hasData  bool
	tail              []byte
}

// maxTailID is the first task id whose tails are not cached.
const maxTailID = 1 << 16

// tailKinds is the number of slots per task id: the diagnostics one item
// can carry at once are of different kinds (see tailSlot).
const tailKinds = 3

// tailSlot is the slot of a diagnostic of task id: drift and ticked-not-
// completed warnings apart from the one status diagnostic an item has.
func tailSlot(id int, code string) int {
	k := 0
	switch code {
	case codeDrift:
		k = 1
	case codeChecked:
		k = 2
	}
	return id*tailKinds + k
}

// appendTail is the package's appendTail through the cache.
func (c *tailCache) appendTail(buf []byte, d *protocol.Diagnostic, code string, data diagData) []byte {
	if data.ID <= 0 || len(d.Tags) > 0 || len(d.RelatedInformation) > 0 {
		return appendTail(buf, d, code, data)
	}
	// Ids are dense from 1: the cap bounds the slots (under 2.5 MB)
	// whatever ids a hand-edited state.json holds.
	if data.ID >= maxTailID {
		return appendTail(buf, d, code, data)
	}
	slot := tailSlot(data.ID, code)
	if slot >= len(c.slots) {
		c.slots = append(c.slots, make([]*tailEntry, slot+1-len(c.slots)+len(c.slots)/2)...)
	}
	e := c.slots[slot]
	hasCode, hasData := d.Code != nil, d.Data != nil
	if e != nil && e.sev == d.Severity && e.code == code && e.hasCode == hasCode && e.source == d.Source &&
		e.msg == d.Message && e.hasData == hasData && e.dataID == data.ID && e.dataCode == data.Code {
		return append(buf, e.tail...)
	}
	if e == nil {
		e = &tailEntry{}
		c.slots[slot] = e
	}
	*e = tailEntry{sev: d.Severity, code: code, hasCode: hasCode, source: d.Source, msg: d.Message,
		hasData: hasData, dataID: data.ID, dataCode: data.Code, tail: appendTail(e.tail[:0], d, code, data)}
	return append(buf, e.tail...)
}
