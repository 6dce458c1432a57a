package lsp

import "strconv"

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
// that is not open shows none. FNV-1a, inline: it runs on every keystroke.
func lensSum(v *view) uint64 {
	h := fnv1a(fnvOffset, v.uri)
	h = fnv1a(h, strconv.FormatBool(v.approved))
	h = fnv1a(h, strconv.FormatBool(v.needsReapproval))
	for i := range v.items {
		vi := &v.items[i]
		if vi.item == nil || vi.task == nil {
			continue
		}
		h = fnvInt(h, vi.task.ID)
		h = fnv1a(h, string(vi.task.Status))
	}
	return h
}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// fnvInt hashes n's 8 bytes into h.
func fnvInt(h uint64, n int) uint64 {
	for i := 0; i < 64; i += 8 {
		h = (h ^ uint64(n>>i)&0xff) * fnvPrime
	}
	return h
}

// fnv1a hashes s, then a separator, into h.
func fnv1a(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * fnvPrime
	}
	return (h ^ 0xff) * fnvPrime // 0xff never occurs in UTF-8
}

// noteLenses asks the client to re-request code lenses when those of f's
// new view differ from what it last showed, so a lens never keeps a stale
// status (an item completed from the CLI or a command). Only for clients
// advertising workspace.codeLens.refreshSupport. Caller holds mu.
func (s *server) noteLenses(f *folder) {
	sum := lensSum(f.view)
	if f.lensSumOK && sum == f.lensSum {
		return
	}
	// The first view counts too: a lens request that came before it got
	// nothing.
	f.lensSum, f.lensSumOK = sum, true
	// Inlay hints show the same statuses (inlayhint.go).
	if s.ecaps.inlayRefresh {
		s.startRefresh(&s.hints, "workspace/inlayHint/refresh")
	}
	if s.caps.Workspace.CodeLens.RefreshSupport {
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
	st.busy = true
	go s.sendRefresh(st, method)
}

// sendRefresh sends method until no change came in while the previous one
// was in flight. It waits on the client, so it runs on its own goroutine
// and never holds mu across the call.
func (s *server) sendRefresh(st *lensRefresh, method string) {
	for {
		if err := s.callClient(s.ctx, s.opts.callTimeout, method, nil, nil); err != nil {
			s.log.Debug("refresh failed", "method", method, "err", err)
		}
		s.mu.Lock()
		if !st.again || s.ctx.Err() != nil {
			st.busy, st.again = false, false
			s.mu.Unlock()
			return
		}
		st.again = false
		s.mu.Unlock()
	}
}
