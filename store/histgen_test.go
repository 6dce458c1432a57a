package store

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/planls/planls/core"
)

// extendHistory adds n changes to the workspace of s as n commits through
// Call would, one after another: the i-th applies the params call(i, st)
// returns for the state st it finds, with the clock at start plus i
// seconds, and the journal is sealed as commits seal it (EnvSealBytes
// applies). Unlike n commits it takes the lock once, syncs only the sealed
// segments and writes the state file and the tail once, at the end, so a
// history of 100,000 changes takes seconds: it is for benchmarks and soak
// tests that need a long history. A call that is rejected or changes
// nothing is an error, and nothing is written then but the segments
// sealed before it. ctx bounds the wait for the lock.
func (s *Store) extendHistory(ctx context.Context, n int, start time.Time, call func(i int, st *core.State) json.RawMessage) error {
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

// TestWriteLongHistory extends the workspace at $PLANLS_LONG_HISTORY_ROOT
// (an approved plan of 20 items) by $PLANLS_LONG_HISTORY_N changes: 30
// todos, then status, owner, note and metadata updates to the 50 tasks in
// turn, as an agent's session makes them, so the state stays the same size
// whatever the length. It is how cmd/planls's BenchmarkLongHistory builds
// its histories (extendHistory is this package's); without the variables it
// skips.
func TestWriteLongHistory(t *testing.T) {
	root := os.Getenv("PLANLS_LONG_HISTORY_ROOT")
	n, err := strconv.Atoi(os.Getenv("PLANLS_LONG_HISTORY_N"))
	if root == "" || err != nil {
		t.Skip("for BenchmarkLongHistory: set PLANLS_LONG_HISTORY_ROOT and PLANLS_LONG_HISTORY_N")
	}
	start := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	err = Open(root, "mcp").extendHistory(context.Background(), n, start, func(i int, st *core.State) json.RawMessage {
		if i < 30 {
			return json.RawMessage(fmt.Sprintf(`{"action":"create","subject":"todo %d: check the retry path of part %d","description":"found while wiring part %d"}`, i, i, i))
		}
		id := 1 + i%50
		var p string
		switch i % 4 {
		case 0:
			status := "in_progress"
			for _, t := range st.Tasks {
				if t.ID == id && t.Status == core.InProgress {
					status = "pending"
				}
			}
			p = fmt.Sprintf(`{"action":"update","id":%d,"status":%q}`, id, status)
		case 1:
			p = fmt.Sprintf(`{"action":"update","id":%d,"owner":"agent-%d"}`, id, i%7)
		case 2:
			p = fmt.Sprintf(`{"action":"update","id":%d,"note":"step %d: go test ./internal/ingest -run TestPart%d passes"}`, id, i, id)
		default:
			p = fmt.Sprintf(`{"action":"update","id":%d,"metadata":{"lastRun":%d}}`, id, i)
		}
		return json.RawMessage(p)
	})
	if err != nil {
		t.Fatal(err)
	}
}
