package store

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/planls/planls/core"
)

// ExtendHistory adds n changes to the workspace of s as n commits through
// Call would, one after another: the i-th applies the params call(i, st)
// returns for the state st it finds, with the clock at start plus i
// seconds, and the journal is sealed as commits seal it (EnvSealBytes
// applies). Unlike n commits it takes the lock once, syncs only the sealed
// segments and writes the state file and the tail once, at the end, so a
// history of 100,000 changes takes seconds: it is for benchmarks and soak
// tests that need a long history. A call that is rejected or changes
// nothing is an error, and nothing is written then but the segments
// sealed before it. ctx bounds the wait for the lock.
func (s *Store) ExtendHistory(ctx context.Context, n int, start time.Time, call func(i int, st *core.State) json.RawMessage) error {
	h, err := s.lock(ctx)
	if err != nil {
		return err
	}
	defer h.unlock()
	st, err := s.Read()
	if err != nil {
		return err
	}
	tail, err := os.ReadFile(s.JournalPath())
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	buf := bytes.NewBuffer(tail)
	limit := sealLimit()
	for i := range n {
		params := call(i, st)
		now := start.Add(time.Duration(i) * time.Second)
		res := core.Run(st, core.Decode(params), core.Options{Now: now})
		if res.Envelope.IsError() || !res.Changed {
			return fmt.Errorf("change %d (%s): %s", i, params, res.Envelope.Text())
		}
		next := *res.State
		next.Revision = st.Revision + 1
		giveUIDs(next.Tasks)
		e, err := newEntry(st, &next, false)
		if err != nil {
			return err
		}
		e.Time, e.Actor, e.Kind, e.Params, e.Result = now, s.actor(), "call", compactParams(params), res.Envelope.Text()
		line, err := marshal(e, "")
		if err != nil {
			return err
		}
		buf.Write(line)
		st = &next
		if limit > 0 && int64(buf.Len()) > limit {
			data, err := encodeState(st)
			if err != nil {
				return err
			}
			if int64(buf.Len()) > limit+int64(len(data)) {
				first, err := s.writeSegment(buf.Bytes(), st)
				if err != nil {
					return err
				}
				buf = bytes.NewBuffer(first)
			}
		}
	}
	data, err := encodeState(st)
	if err != nil {
		return err
	}
	if err := WriteFile(s.JournalPath(), buf.Bytes()); err != nil {
		return err
	}
	return WriteFile(s.StatePath(), data)
}
