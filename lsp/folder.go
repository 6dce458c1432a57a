package lsp

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"time"

	"go.lsp.dev/protocol"

	"github.com/planls/planls/core"
	"github.com/planls/planls/store"
)

// folder is one workspace folder: its own store and state (multi-root).
// Every field is guarded by server.mu.
type folder struct {
	root  string // absolute OS path
	key   string // pathKey of root
	uri   string // the client's URI for root
	store *store.Store

	state    *core.State // last good state (Empty when the file is missing)
	stateErr error       // the state file cannot be used (after retries)
	stateSum [32]byte    // of the bytes last read (zero: missing)
	stateOK  bool        // stateSum describes the current file
	goodSum  [32]byte    // of the bytes state was decoded from
	badReads int         // consecutive unparsable reads awaiting a retry

	planPath string // chosen plan file ("" when none exists)
	planDisk []byte // its bytes on disk (nil when missing)

	// revision is planls/stateChanged's counter at the last change of what
	// planls/plan answers (server.revisions then).
	revision     int64
	debounce     *time.Timer
	pendingSince time.Time // first event of the burst a debounced reload waits out (zero: none)
	retry        *time.Timer
	typing       *time.Timer          // a large plan's analysis after a pause (didChange)
	settle       *time.Timer          // re-read at the end of a plan settle window (settle.go)
	settleUntil  time.Time            // end of that window (zero: none)
	snap         *snapshot            // what requests read (snapshot.go)
	stateDiag    *protocol.Diagnostic // state-invalid on the state file itself, when it is there and bad
	published    map[string]uint64    // URI → hash of the diagnostics it last sent there (publish)
	lensSum      shownSum             // refreshSums of the snapshot the client last saw
	hintSum      shownSum
	pullSum      shownSum // pullSum of what the client last pulled or was told to pull again

	// The background refresh (background.go): HEAD as last looked up
	// (headKnown false until then, and again once .git says it moved), the
	// last verification, whether a run is going (and another pass is
	// wanted), and the git files whose change moves HEAD.
	head         headCommit
	headKnown    bool
	verdictsOf   verdictsKey // folder.verdicts
	ver          *verification
	refreshing   bool
	refreshAgain bool
	gitFiles     []string
	gitTimer     *time.Timer

	pulled    settingsPatch // keys workspace/configuration set for this folder
	pulledSeq uint64        // request number of the last answer applied (0: none)
}

func newFolder(root, uri string) *folder {
	return &folder{
		root: root, key: keyOf(root), uri: uri,
		store: store.Open(root, "lsp"),
		state: core.Empty(),
	}
}

func (f *folder) statePath() string { return filepath.Join(f.root, ".planls", "state.json") }

func (f *folder) stopTimers() {
	stopTimer(f.debounce)
	stopTimer(f.retry)
	stopTimer(f.typing)
	stopTimer(f.settle)
	stopTimer(f.gitTimer)
}

// readDisk re-reads the state file and the plan file (in that order: the
// approved plan's path picks the plan). It reports whether anything the user
// can see changed. A state file that does not parse is re-read up to
// opts.retries times, opts.retryDelay apart, before it is reported; until
// then the last good state stays (a writer may be half-way).
func (s *server) readDisk(f *folder) bool {
	changed := s.readState(f)
	path := s.resolvePlan(f)
	data, err := os.ReadFile(path)
	if path == "" || err != nil {
		if !errors.Is(err, fs.ErrNotExist) && path != "" {
			s.log.Warn("plan file unreadable", "path", path, "err", err)
		}
		data = nil
	}
	if !s.holdPlan(f, path, data) &&
		(path != f.planPath || !bytes.Equal(data, f.planDisk) || (data == nil) != (f.planDisk == nil)) {
		f.planPath, f.planDisk = path, data
		changed = true
	}
	return changed
}

func (s *server) readState(f *folder) bool {
	raw, err := os.ReadFile(f.statePath())
	// A missing file (zero sum) is the empty state, unless the journal holds
	// changes: then the store reports it (a deleted state.json must not pass
	// for an empty plan), at once, with no retries.
	missing := errors.Is(err, fs.ErrNotExist)
	var sum [32]byte
	if !missing {
		sum = sha256.Sum256(raw)
	}
	if err == nil && f.stateOK && sum == f.stateSum {
		return false // unchanged bytes, including our own writes already applied
	}
	// The state and its sum come from one read of the file: a writer that
	// is not atomic (a hand edit, git checkout) can leave it empty between
	// two reads, and the empty file's sum must not stand for the full
	// file's state.
	st, data, rerr := f.store.ReadBytes()
	switch {
	case err != nil && !missing:
		rerr = err
	case data != nil:
		missing, sum = false, sha256.Sum256(data)
	case rerr == nil:
		missing, sum = true, [32]byte{}
	}
	if rerr != nil && !missing && f.badReads < s.opts.retries && f.stateErr == nil {
		f.badReads++
		s.scheduleRetry(f)
		return false
	}
	// The bytes the shown state came from, read again (after a retry, by a
	// command's refresh once the file watch applied its write): no change.
	unchanged := rerr == nil && f.stateErr == nil && f.state != nil && sum == f.goodSum
	f.badReads, f.stateOK, f.stateSum = 0, true, sum
	switch {
	case rerr != nil: // a change the user sees only when the message is another
		changed := f.stateErr == nil || f.stateErr.Error() != rerr.Error()
		f.stateErr, f.stateDiag = rerr, nil
		if !missing {
			// On the file itself, at the position in the bytes the store
			// read (the file on disk, even when an editor holds another
			// buffer of it). A missing file has no document to carry it:
			// the plan's title line reports it.
			if data != nil {
				raw = data
			}
			d := stateDiagnostic(raw, s.enc, rerr)
			f.stateDiag = &d
		}
		return changed
	case unchanged:
		return false
	}
	f.state, f.stateErr, f.stateDiag, f.goodSum = st, nil, nil, sum
	return true
}

// resolvePlan picks the plan file: the approved plan's path when it exists,
// else the first existing match of the planFiles globs (PROTOCOL.md).
func (s *server) resolvePlan(f *folder) string {
	if approved := f.state.PlanPath(); approved != "" {
		p := filepath.Join(f.root, filepath.FromSlash(approved))
		if isFile(p) || s.docs[keyOf(p)] != nil {
			return p
		}
	}
	for _, g := range s.folderSettings(f).PlanFiles {
		// Matched under the root, not on root+pattern: a root such as
		// "client [acme]" is a path, not a pattern.
		matches, err := fs.Glob(os.DirFS(f.root), path.Clean(g))
		if err != nil {
			continue
		}
		for _, m := range matches {
			if p := filepath.Join(f.root, filepath.FromSlash(m)); isFile(p) {
				return p
			}
		}
	}
	return ""
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// reload re-reads f from disk and, when what it shows changed (or force:
// an edited buffer, new settings), swaps in its next snapshot (caller
// holds mu).
func (s *server) reload(f *folder, force bool) {
	if changed := s.readDisk(f); changed || force || f.snap == nil {
		s.swap(f, s.build(f))
	}
}

// swap makes sn f's current snapshot: the diagnostics whose meaning
// changed are published, requests read sn from then on, lenses and hints
// are refreshed, planls/stateChanged sent when what planls/plan answers
// changed, and a background refresh started when sn needs one (caller
// holds mu). The publish is queued before requests can read sn, so no
// answer from sn reaches the client ahead of sn's diagnostics; what asks
// the client to request again (refreshes, stateChanged) comes after.
func (s *server) swap(f *folder, sn *snapshot) {
	s.idle.poke()
	changed := f.snap == nil || f.snap.placed != sn.placed || !samePlan(f.snap.result(), sn.result())
	if changed {
		s.revisions++
		f.revision = s.revisions
	}
	sn.rev = f.revision
	f.snap = sn
	diags := map[string][]protocol.Diagnostic{}
	if sn.path != "" {
		diags[sn.uri] = sn.shown
	}
	if f.stateDiag != nil {
		su := f.fileURI(f.statePath())
		if d := s.docs[keyOf(f.statePath())]; d != nil {
			su = d.uri
		}
		diags[su] = []protocol.Diagnostic{*f.stateDiag}
	}
	s.publish(f, diags)
	s.publishView()
	s.noteLenses(f)
	if s.caps.pullDiags && sn.path != "" {
		if s.editing {
			// The client pulls after its own edit: no refresh for it.
			f.pullSum = shownSum{sum: pullSum(sn), ok: true}
		} else {
			s.noteRefresh(&f.pullSum, pullSum(sn), true, &s.pulls)
		}
	}
	if changed {
		s.notify("planls/stateChanged", stateChangedParams{Root: f.uri, Revision: f.revision})
	}
	s.refresh(f)
}

type stateChangedParams struct {
	Root     string `json:"root"`
	Revision int64  `json:"revision"`
}

// stormCap bounds how long unrelated file events can hold back a pending
// reload.
const stormCap = 2 * time.Second

// scheduleDebounced re-reads f after opts.debounce of quiet: a burst of file
// events (a checkout, a truncate-then-write) becomes one reload that reads
// plan and state as a pair. Caller holds mu.
func (s *server) scheduleDebounced(f *folder) {
	if f.pendingSince.IsZero() {
		f.pendingSince = time.Now()
	}
	s.rearm(&f.debounce, s.opts.debounce, func() {
		f.pendingSince = time.Time{}
		s.reload(f, false)
	})
}

// extendDebounced pushes a pending reload back when other files of the
// folder keep changing (the rest of a checkout), up to stormCap after the
// first event. Caller holds mu.
func (s *server) extendDebounced(f *folder) {
	if !f.pendingSince.IsZero() && time.Since(f.pendingSince) < stormCap {
		s.scheduleDebounced(f)
	}
}

func (s *server) scheduleRetry(f *folder) {
	s.rearm(&f.retry, s.opts.retryDelay, func() {
		f.stateOK = false
		s.reload(f, false)
	})
}

// rearm replaces the timer *t with one of the session's group that runs fn
// under mu after d. Caller holds mu.
func (s *server) rearm(t **time.Timer, d time.Duration, fn func()) {
	stopTimer(*t)
	*t = s.grp.afterFunc(d, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		fn()
	})
}

// sameText reports whether an open buffer matches the plan on disk. A
// leading UTF-8 BOM does not count: editors keep it out of the buffer they
// send.
func sameText(a, b []byte) bool {
	bom := []byte("\xEF\xBB\xBF")
	return bytes.Equal(bytes.TrimPrefix(a, bom), bytes.TrimPrefix(b, bom))
}
