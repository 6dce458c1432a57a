package rpcid

import (
	"encoding/json"
	"strconv"
	"sync"
)

// Table is a server's stand-in ids (of type S, as its library takes them)
// and the id the client wrote behind each, until the reply is written. Its
// zero value is empty and ready; it is safe for concurrent use.
type Table[S comparable] struct {
	mu    sync.Mutex
	seq   uint64
	sent  map[S]json.RawMessage // stand-in → the client's id
	byKey map[string][]S        // Key of a client's id → its stand-ins not yet taken
}

// Name returns a stand-in name no other call of t's session has:
// "planls-in-1", "planls-in-2", …
func (t *Table[S]) Name() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.seq++
	return "planls-in-" + strconv.FormatUint(t.seq, 10)
}

// Add remembers the client's id raw (Valid) behind stand-in s until Take.
func (t *Table[S]) Add(s S, raw json.RawMessage) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.sent == nil {
		t.sent, t.byKey = map[S]json.RawMessage{}, map[string][]S{}
	}
	t.sent[s] = raw
	k := Key(raw)
	t.byKey[k] = append(t.byKey[k], s)
}

// Take returns and forgets the client's id behind stand-in s; ok is false
// for a stand-in that Add did not remember (or that was taken already).
func (t *Table[S]) Take(s S) (raw json.RawMessage, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	raw, ok = t.sent[s]
	if !ok {
		return nil, false
	}
	delete(t.sent, s)
	k := Key(raw)
	rest := t.byKey[k][:0]
	for _, x := range t.byKey[k] {
		if x != s {
			rest = append(rest, x)
		}
	}
	if len(rest) == 0 {
		delete(t.byKey, k)
	} else {
		t.byKey[k] = rest
	}
	return raw, true
}

// Lookup returns the stand-ins not yet taken whose client's id is the same
// JSON value as raw (Key): several when a client reuses an id.
func (t *Table[S]) Lookup(raw json.RawMessage) []S {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]S(nil), t.byKey[Key(raw)]...)
}

// Text is the client's id behind stand-in s as JSON text ("" when unknown).
func (t *Table[S]) Text(s S) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.sent[s])
}

// Preview is raw JSON cut to a length a log line or an error message
// holds: its first 80 bytes and "…" when longer.
func Preview(raw []byte) string {
	const max = 80
	if len(raw) > max {
		return string(raw[:max]) + "…"
	}
	return string(raw)
}
