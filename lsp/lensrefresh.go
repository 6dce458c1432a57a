package lsp

import (
	"context"
	"hash/maphash"
)

// refresher coalesces one kind of parameterless refresh request,
// workspace/codeLens/refresh (LSP 3.16) or workspace/inlayHint/refresh
// (3.17): one is in flight at a time, and changes seen meanwhile cost one
// more. Guarded by server.mu.
type refresher struct {
	method string
	busy   bool
	again  bool
}

// shownSum is the fingerprint of what the client last saw of a folder's
// lenses or hints (ok: one was seen).
type shownSum struct {
	sum uint64
	ok  bool
}

// refreshSums fingerprint what v shows in code lenses (the approval lenses
// and each tracked item's actions: its id and status) and in inlay hints
// (each tracked item's id, status and proof, the tooltip). Positions are
// left out: a client re-requests both itself after editing the buffer, and
// a plan that is not open shows none.
func refreshSums(sn *snapshot) (lens, hint uint64) {
	an := sn.an
	var l, h maphash.Hash
	l.SetSeed(hashSeed)
	h.SetSeed(hashSeed)
	l.WriteString(sn.uri)
	h.WriteString(sn.uri)
	maphash.WriteComparable(&l, [2]bool{an.Approved, an.NeedsReapproval})
	maphash.WriteComparable(&h, an.Approved)
	items := sn.items()
	if !an.Approved {
		maphash.WriteComparable(&l, len(items)) // the preview's counts
	}
	for i := range items {
		vi := &items[i]
		if vi.Plan == nil || vi.Task == nil {
			continue
		}
		for _, x := range []*maphash.Hash{&l, &h} {
			maphash.WriteComparable(x, vi.Task.ID)
			maphash.WriteComparable(x, vi.Task.Status)
		}
		h.WriteString(statusTooltip(vi.Task))
		h.WriteByte(0)
	}
	return l.Sum64(), h.Sum64()
}

// noteLenses asks the client to re-request code lenses and inlay hints
// when those of f's new view differ from what it last saw, so neither keeps
// a stale status (an item completed from the CLI or a command). Only for
// clients advertising workspace.codeLens / workspace.inlayHint
// refreshSupport. Caller holds mu.
func (s *server) noteLenses(f *folder) {
	if !s.caps.lensRefresh && !s.caps.inlayRefresh {
		return // the sums would only be recorded, for nothing to compare
	}
	lens, hint := refreshSums(f.snap)
	s.noteRefresh(&f.lensSum, lens, s.caps.lensRefresh, &s.lenses)
	s.noteRefresh(&f.hintSum, hint, s.caps.inlayRefresh, &s.hints)
}

// noteRefresh records sum as shown and, when it differs from what was
// (the first view counts too: a request that came before it got nothing)
// and the client supports it, starts r. Caller holds mu.
func (s *server) noteRefresh(shown *shownSum, sum uint64, supported bool, r *refresher) {
	if shown.ok && shown.sum == sum {
		return
	}
	*shown = shownSum{sum: sum, ok: true}
	if !supported {
		return
	}
	if r.busy {
		r.again = true
		return
	}
	r.busy = s.grp.goFn(func(ctx context.Context) { s.sendRefresh(ctx, r) })
}

// sendRefresh sends r's request until no change came in while the previous
// one was in flight. It waits on the client, so it runs on its own
// goroutine and never holds mu across the call.
func (s *server) sendRefresh(ctx context.Context, r *refresher) {
	for {
		if err := s.callClient(ctx, s.opts.callTimeout, r.method, nil, nil); err != nil {
			s.log.Debug("refresh failed", "method", r.method, "err", err)
		}
		s.mu.Lock()
		if !r.again || ctx.Err() != nil {
			r.busy, r.again = false, false
			s.mu.Unlock()
			return
		}
		r.again = false
		s.mu.Unlock()
	}
}
