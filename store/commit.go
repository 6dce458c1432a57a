package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/planls/planls/core"
	"github.com/planls/planls/planparse"
)

func (s *Store) read() (*core.State, error) {
	data, err := os.ReadFile(s.StatePath())
	if errors.Is(err, os.ErrNotExist) {
		return core.Empty(), nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", s.StatePath(), err)
	}
	return decodeState(s.StatePath(), data)
}

func (s *Store) call(params json.RawMessage, opts core.Options) (core.Result, error) {
	return s.update("call", compactParams(params), func(st *core.State) core.Result {
		return core.Call(st, params, opts)
	})
}

func (s *Store) approve(planPath string, opts core.Options) (core.Result, error) {
	abs := planPath
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(s.Root, abs)
	}
	src, err := os.ReadFile(abs)
	if err != nil {
		return core.Result{}, fmt.Errorf("read plan: %w", err)
	}
	rel := filepath.ToSlash(abs)
	if r, err := filepath.Rel(s.Root, abs); err == nil && !strings.HasPrefix(r, "..") {
		rel = filepath.ToSlash(r)
	}
	plan := planparse.Parse(src)
	params, _ := json.Marshal(map[string]string{"path": rel, "planId": core.PlanID(src)})
	return s.update("approve", params, func(st *core.State) core.Result {
		return core.Approve(st, plan, src, rel, opts)
	})
}

// update runs apply first on an unlocked read: reads, no-ops and rejections
// end there, take no lock and create nothing (read-only commands never create
// .planls/). A change is applied again under the lock to a fresh read and
// committed, so no concurrent change is ever lost (field failure B08).
func (s *Store) update(kind string, params json.RawMessage, apply func(*core.State) core.Result) (core.Result, error) {
	st, err := s.read()
	if err != nil {
		return core.Result{}, err
	}
	if res := apply(st); !res.Changed {
		return res, nil
	}
	h, err := s.lock()
	if err != nil {
		return core.Result{}, err
	}
	defer h.unlock()
	return s.commitLocked(kind, params, apply)
}

// commitLocked is read → apply → write → journal; the lock must be held.
func (s *Store) commitLocked(kind string, params json.RawMessage, apply func(*core.State) core.Result) (core.Result, error) {
	st, err := s.read()
	if err != nil {
		return core.Result{}, err
	}
	res := apply(st)
	if !res.Changed || res.State == nil {
		return res, nil
	}
	next := *res.State
	next.Revision = st.Revision + 1
	res.State = &next
	if err := s.persist(st, &next, kind, params, res.Envelope.Text()); err != nil {
		return core.Result{}, err
	}
	return res, nil
}

// persist writes next over the state file and journals the change from old.
// The lock must be held. The journal line is appended after the rename, so a
// crash in between leaves a journal one revision behind; the next writer
// notices and journals a full snapshot.
func (s *Store) persist(old, next *core.State, kind string, params json.RawMessage, text string) error {
	data, err := encodeState(next)
	if err != nil {
		return fmt.Errorf("encode state: %w", err)
	}
	// A diff is only replayable onto exactly the revision it was made from;
	// revision 0 with content is a state written by hand.
	full := lastRevision(s.JournalPath()) != old.Revision ||
		(old.Revision == 0 && (len(old.Tasks) > 0 || old.Plan != nil))
	entry, err := newEntry(old, next, full)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	entry.Time = nowUTC()
	entry.Actor = s.actor()
	entry.Kind = kind
	entry.Params = params
	entry.Result = text
	s.removeTemps()
	if err := writeAtomic(s.StatePath(), data); err != nil {
		return err
	}
	return appendJournal(s.JournalPath(), entry)
}

// removeTemps deletes temp files a killed writer left behind (renameio names
// them "." + base + digits). Only called under the lock, when no other writer
// can own one.
func (s *Store) removeTemps() {
	matches, _ := filepath.Glob(filepath.Join(s.Dir(), "."+StateName+"[0-9]*"))
	for _, m := range matches {
		_ = os.Remove(m)
	}
}

// compactParams makes params fit on one journal line; params that are not
// valid JSON are kept as a JSON string.
func compactParams(p json.RawMessage) json.RawMessage {
	var buf bytes.Buffer
	if err := json.Compact(&buf, p); err == nil {
		return buf.Bytes()
	}
	q, _ := json.Marshal(string(p))
	return q
}

func nowUTC() time.Time { return time.Now().UTC() }
