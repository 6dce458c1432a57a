package lsp

import (
	"strconv"

	"github.com/planls/planls/core"
)

// statusMsgs caches the open-item and in-progress messages of one state's
// tasks: they depend on the task alone, and building 10k of them on every
// keystroke in a large plan was a tenth of its diagnostics' cost and most
// of their garbage. Entries are by task id (ids are small and dense, and
// items come in id order, so the lookups walk the slice); an id far past
// the state's size is not cached. Guarded by server.mu, with the folder.
type statusMsgs struct {
	of   *core.State
	byID []statusMsg
}

// statusMsg is one cached message with what it was built from: a task is
// never changed in place (a new state replaces it), but the check is cheap
// and makes a stale message impossible.
type statusMsg struct {
	id      int // 0: empty
	status  core.Status
	subject string
	msg     string
}

// message returns the open-item or in-progress message of t, a task of
// state (t != nil, status Pending or InProgress).
func (c *statusMsgs) message(state *core.State, t *core.Task) string {
	if c.of != state {
		c.of, c.byID = state, make([]statusMsg, 2*len(state.Tasks)+64)
	}
	if t.ID <= 0 || t.ID >= len(c.byID) {
		return statusMessage(t)
	}
	e := &c.byID[t.ID]
	if e.id == t.ID && e.status == t.Status && e.subject == t.Subject {
		return e.msg
	}
	*e = statusMsg{id: t.ID, status: t.Status, subject: t.Subject, msg: statusMessage(t)}
	return e.msg
}

// statusMessage is the open-item message of a pending task and the
// in-progress one of a task in progress (docs/PROTOCOL.md "Diagnostics").
func statusMessage(t *core.Task) string {
	// Concatenation, not Sprintf: a cache miss costs this per item.
	if t.Status == core.InProgress {
		return "plan item #" + strconv.Itoa(t.ID) + " in progress: " + t.Subject
	}
	return "open plan item #" + strconv.Itoa(t.ID) + " (pending): " + t.Subject
}
