package lsp

import (
	"context"
	"errors"
	"time"
)

// ErrClientGone is returned by Run when the client's process
// (InitializeParams.processId) died without closing the session: LSP 3.17
// has the server exit when its parent process is not alive.
var ErrClientGone = errors.New("the client process is gone")

// clientPoll is how often the client's process is checked. A dead editor
// leaves its server for at most this long.
const clientPoll = time.Second

// watchClientProcess ends the session once process pid is gone. A pid that
// is not alive when initialize arrives is not watched: a client in another
// PID namespace (a container, a remote host) names a process this server
// cannot see. Caller holds mu.
func (s *server) watchClientProcess(pid int) {
	if pid <= 0 || !processAlive(pid) {
		return
	}
	s.grp.goFn(func(ctx context.Context) {
		t := time.NewTicker(clientPoll)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-s.exited:
				return
			case <-t.C:
			}
			if processAlive(pid) {
				continue
			}
			s.log.Warn("client process is gone; exiting", "pid", pid)
			s.endSession(ErrClientGone)
			return
		}
	})
}
