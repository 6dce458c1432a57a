package lsp

import (
	"context"
	"time"
)

// idleRelease is how long a session stays quiet (no message from the
// client, no new snapshot) before the heap's free pages go back to the
// operating system. While work goes on the garbage collector lets the heap
// grow to about twice what is live before it collects, and it keeps those
// pages when the work stops, so an editor's idle server held them for as
// long as nobody typed. At 1,000 items a release took the server's resident
// memory from 32.9 to 24.8 MB (BenchmarkRepoResidentMemory, median of 5).
// It costs one forced collection per quiet spell, never one per keystroke
// of someone typing (a keystroke every 150 ms): the first keystroke after a
// release took 7.0 ms instead of 5.8 and 11.5 ms of CPU instead of 5.5 (the
// collection, and the heap's pages faulted in again).
const idleRelease = 500 * time.Millisecond

// GCPercent is the GOGC of `planls serve` when the user set none: a
// keystroke at 1,000 items leaves 1.8 MB of garbage beside 5 MB live, and at
// 100 the collector took a fifth of the server's CPU (BenchmarkKeystroke/1000,
// median of 6: 4.2 ms per keystroke at 100, 3.6 at 200; RSS after idle 23.0,
// 23.4 and 24.5 MB at 100, 200 and 400).
const GCPercent = 200

// quiet releases memory once a session has been idle for after: each
// activity (poke) starts the wait again, and one release follows a spell
// of activity however long the quiet that comes after it.
type quiet struct{ active chan struct{} }

func newQuiet() quiet { return quiet{active: make(chan struct{}, 1)} }

// poke says the session is busy now; it never blocks.
func (q quiet) poke() {
	select {
	case q.active <- struct{}{}:
	default:
	}
}

// run calls release (debug.FreeOSMemory) after each spell of activity
// followed by after of quiet, until ctx ends.
func (q quiet) run(ctx context.Context, after time.Duration, release func()) {
	t := time.NewTimer(after)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-q.active:
			t.Reset(after)
		case <-t.C:
			release()
			select { // nothing to release until the next activity
			case <-ctx.Done():
				return
			case <-q.active:
				t.Reset(after)
			}
		}
	}
}
