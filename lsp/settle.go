package lsp

import "time"

// Some editors save by renaming PLAN.md away and creating the new file tens
// to hundreds of ms later, sometimes empty at first. Read in between, the
// plan looks deleted (an empty diagnostic list, "no plan") or emptied (every
// approved item missing), and the editor flickers. A plan file that had
// content and now is missing or empty is therefore held: the last bytes stay
// in force for opts.planSettle, and a re-read then decides. A file that comes
// back within the window is one change (none when its bytes are the same),
// parsed once.

// holdPlan reports whether readDisk should keep f's last plan bytes instead
// of data, the bytes just read from path (nil: missing). It starts the
// settle window on the first such read and arms a re-read at its end; once
// the window is over, or when the plan is back, it lets the read through.
// Caller holds mu.
func (s *server) holdPlan(f *folder, path string, data []byte) bool {
	gone := len(f.planDisk) > 0 && len(data) == 0 && (path == "" || path == f.planPath)
	if !gone || s.opts.planSettle <= 0 {
		s.endSettle(f)
		return false
	}
	now := time.Now()
	if f.settleUntil.IsZero() {
		f.settleUntil = now.Add(s.opts.planSettle)
		s.rearm(&f.settle, s.opts.planSettle, func() { s.reload(f, false) })
		s.log.Debug("plan file gone or empty; waiting for it to come back", "path", f.planPath, "for", s.opts.planSettle)
		return true
	}
	if now.Before(f.settleUntil) {
		return true
	}
	s.endSettle(f)
	return false
}

// endSettle closes f's settle window, if any (caller holds mu).
func (s *server) endSettle(f *folder) {
	stopTimer(f.settle)
	f.settle = nil
	f.settleUntil = time.Time{}
}
