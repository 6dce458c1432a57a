package lsp

import (
	"sync"
	"time"
)

// outbox is the one writer of the session's messages to the client:
// replies, notifications and diagnostics, in the order they were queued,
// sent by one goroutine so that no handler (and nothing holding server.mu)
// ever waits on a slow client. A publishDiagnostics still queued for a URI
// is replaced by a newer one, so at most one publish per URI is waiting and
// one message is in flight: a client that reads slowly gets the latest
// diagnostics, not a backlog.
type outbox struct {
	mu     sync.Mutex
	cond   *sync.Cond
	queue  []outMsg
	closed bool
	done   chan struct{}
}

// outMsg is one queued write; key (a URI for publishDiagnostics, else "")
// names what a later message of the same key replaces.
type outMsg struct {
	key  string
	send func()
}

func newOutbox() *outbox {
	o := &outbox{done: make(chan struct{})}
	o.cond = sync.NewCond(&o.mu)
	return o
}

// put queues send; with a key, it replaces a queued message of that key
// in place (keeping its turn).
func (o *outbox) put(key string, send func()) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return
	}
	if key != "" {
		for i := range o.queue {
			if o.queue[i].key == key {
				o.queue[i].send = send
				return
			}
		}
	}
	o.queue = append(o.queue, outMsg{key: key, send: send})
	o.cond.Broadcast()
}

// run sends queued messages until close; it is the outbox's goroutine.
func (o *outbox) run() {
	defer close(o.done)
	for {
		o.mu.Lock()
		for len(o.queue) == 0 && !o.closed {
			o.cond.Wait()
		}
		if len(o.queue) == 0 {
			o.mu.Unlock()
			return
		}
		m := o.queue[0]
		o.queue = o.queue[1:]
		o.mu.Unlock()
		m.send()
	}
}

// flush waits, at most d, until everything queued so far has been written:
// the reply to shutdown must reach the client before exit closes the
// connection.
func (o *outbox) flush(d time.Duration) {
	written := make(chan struct{})
	o.put("", func() { close(written) })
	select {
	case <-written:
	case <-time.After(d):
	}
}

// close drops what is still queued once the connection is gone and waits
// for the write in flight, which the closed connection ends.
func (o *outbox) close() {
	o.mu.Lock()
	o.closed = true
	o.queue = nil
	o.cond.Broadcast()
	o.mu.Unlock()
	<-o.done
}
