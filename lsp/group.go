package lsp

import (
	"context"
	"sync"
	"time"
)

// group owns the session's background work: file watching, settings pulls,
// code lens refreshes, prompts, commands and timers. Every goroutine of the
// session starts through it and sees its context, which stop cancels at
// shutdown (or when the connection ends); after stop nothing starts, so no
// watcher or timer outlives the session, and wait returns once every
// goroutine has ended.
type group struct {
	ctx    context.Context
	cancel context.CancelFunc

	mu      sync.Mutex
	stopped bool
	wg      sync.WaitGroup
	timers  map[*time.Timer]bool
}

func newGroup(parent context.Context) *group {
	ctx, cancel := context.WithCancel(parent)
	return &group{ctx: ctx, cancel: cancel, timers: map[*time.Timer]bool{}}
}

// goFn runs fn on its own goroutine with the group's context; it reports
// false (and runs nothing) once the group is stopped.
func (g *group) goFn(fn func(ctx context.Context)) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.stopped {
		return false
	}
	g.wg.Go(func() { fn(g.ctx) })
	return true
}

// afterFunc is time.AfterFunc owned by the group: stop stops the timer, and
// fn does not run once the group is stopped. It returns nil after stop.
func (g *group) afterFunc(d time.Duration, fn func()) *time.Timer {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.stopped {
		return nil
	}
	var t *time.Timer
	t = time.AfterFunc(d, func() {
		g.mu.Lock()
		delete(g.timers, t)
		if g.stopped {
			g.mu.Unlock()
			return
		}
		g.wg.Add(1)
		g.mu.Unlock()
		defer g.wg.Done()
		fn()
	})
	g.timers[t] = true
	return t
}

// stop cancels the group's context, stops its timers and refuses new work.
// It does not wait (a goroutine may hold the server's lock).
func (g *group) stop() {
	g.mu.Lock()
	g.stopped = true
	for t := range g.timers {
		t.Stop()
	}
	clear(g.timers)
	g.mu.Unlock()
	g.cancel()
}

func (g *group) wait() {
	g.stop()
	g.wg.Wait()
}

// stopTimer stops t, which may be nil (afterFunc after stop).
func stopTimer(t *time.Timer) {
	if t != nil {
		t.Stop()
	}
}
