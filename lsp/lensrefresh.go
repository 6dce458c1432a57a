package lsp

import (
	"context"
	"hash/maphash"
)

// lensRefresh coalesces workspace/codeLens/refresh (LSP 3.16) or
// workspace/inlayHint/refresh (3.17) requests:
// one is in flight at a time, and changes seen meanwhile cost one more.
// Guarded by server.mu.
type lensRefresh struct {
	busy  bool
	again bool
}

// lensSum fingerprints what the code lenses of v show: the approval
// lenses and each tracked item's label and actions. Positions are left out:
// a client re-requests lenses itself after editing the buffer, and a plan
// that is not open shows none.
func lensSum(v *view) uint64 {
	var h maphash.Hash
	h.SetSeed(hashSeed)
	maphash.WriteComparable(&h, v.approved)
	maphash.WriteComparable(&h, v.needsReapproval)
	h.WriteString(v.uri)
	if !v.approved {
		maphash.WriteComparable(&h, len(v.items)) // the preview's counts
	}
	for i := range v.items {
		vi := &v.items[i]
		if vi.item == nil || vi.task == nil {
			continue
		}
		maphash.WriteComparable(&h, vi.task.ID)
		maphash.WriteComparable(&h, vi.task.Status)
	}
	return h.Sum64()
}

// noteLenses asks the client to re-request code lenses when those of f's
// new view differ from what it last showed, so a lens never keeps a stale
// status (an item completed from the CLI or a command). Only for clients
// advertising workspace.codeLens.refreshSupport. Caller holds mu.
func (s *server) noteLenses(f *folder) {
	s.noteHints(f)
	sum := lensSum(f.view)
	if f.lensSumOK && sum == f.lensSum {
		return
	}
	// The first view counts too: a lens request that came before it got
	// nothing.
	f.lensSum, f.lensSumOK = sum, true
	if s.caps.lensRefresh {
		s.startRefresh(&s.lenses, "workspace/codeLens/refresh")
	}
}

// startRefresh sends method (a parameterless refresh request) unless one
// is in flight, in which case one more follows it. Caller holds mu.
func (s *server) startRefresh(st *lensRefresh, method string) {
	if st.busy {
		st.again = true
		return
	}
	st.busy = s.grp.goFn(func(ctx context.Context) { s.sendRefresh(ctx, st, method) })
}

// sendRefresh sends method until no change came in while the previous one
// was in flight. It waits on the client, so it runs on its own goroutine
// and never holds mu across the call.
func (s *server) sendRefresh(ctx context.Context, st *lensRefresh, method string) {
	for {
		if err := s.callClient(ctx, s.opts.callTimeout, method, nil, nil); err != nil {
			s.log.Debug("refresh failed", "method", method, "err", err)
		}
		s.mu.Lock()
		if !st.again || ctx.Err() != nil {
			st.busy, st.again = false, false
			s.mu.Unlock()
			return
		}
		st.again = false
		s.mu.Unlock()
	}
}
