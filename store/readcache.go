package store

import (
	"bytes"
	"sync"
	"sync/atomic"

	"github.com/planls/planls/core"
)

// readCache remembers the last state file a Store decoded and validated, so
// a long-lived server (planls serve, planls mcp) that reads an unchanged file
// again pays for a file read, a byte comparison and a copy instead of JSON
// decoding and validation (27 ms of a 3,000-task Read in BenchmarkRead).
//
// The key is the file's exact bytes, never its mtime or size: a hand edit, a
// git checkout or a same-size rewrite within one mtime tick all show up as
// different bytes. Only states that decoded and validated are cached, so a
// damaged file is reported afresh on every read. The cached state is never
// handed out: every read gets its own deep copy (core.State.Clone), because
// callers mutate what they get and core's copy-on-write results share memory
// with their input. One entry per Store bounds memory to one file's bytes
// plus one decoded state.
type readCache struct {
	mu   sync.Mutex
	data []byte      // exact bytes of the file st was decoded from; owned here
	st   *core.State // never mutated and never returned; nil when empty

	// decodes counts the reads that ran decodeState; tests use it to tell
	// a cache hit from a miss without timing anything.
	decodes atomic.Int64
}

// lookup returns a copy of the cached state when data are exactly the bytes
// it was decoded from, or nil.
func (c *readCache) lookup(data []byte) *core.State {
	c.mu.Lock()
	st := c.st
	hit := st != nil && bytes.Equal(c.data, data)
	c.mu.Unlock()
	if !hit {
		return nil
	}
	// The entry is immutable once stored, so copying it outside the lock
	// is safe and keeps concurrent readers from queuing behind each other.
	return st.Clone()
}

// store makes st, decoded from data, the entry. data must not be changed
// afterwards (decode's caller hands over the slice os.ReadFile returned),
// and st must not be reachable by anyone else.
func (c *readCache) store(data []byte, st *core.State) {
	c.mu.Lock()
	c.data, c.st = data, st
	c.mu.Unlock()
}

// decode is decodeState through the cache: an exact byte match returns a
// copy of the cached state; otherwise the bytes are decoded and, when valid,
// a private copy is cached. Errors are never cached.
func (c *readCache) decode(path string, data []byte) (*core.State, error) {
	if st := c.lookup(data); st != nil {
		return st, nil
	}
	c.decodes.Add(1)
	st, err := decodeState(path, data)
	if err != nil {
		return nil, err
	}
	c.store(data, st.Clone())
	return st, nil
}
