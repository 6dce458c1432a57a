package lsp

import (
	"context"
	"testing"
	"time"
)

// TestQuietReleasesOncePerSpell: a release comes once the session has
// been quiet for the wait since its last activity, and only one until
// the next activity.
func TestQuietReleasesOncePerSpell(t *testing.T) {
	q := newQuiet()
	released := make(chan time.Time, 10)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	const after = 50 * time.Millisecond
	go func() {
		defer close(done)
		q.run(ctx, after, func() { released <- time.Now() })
	}()
	defer func() { cancel(); <-done }()
	next := func() time.Time {
		select {
		case at := <-released:
			return at
		case <-time.After(time.Minute):
			t.Fatal("no release after a minute of quiet")
			return time.Time{}
		}
	}
	next() // the quiet since the session started

	first := time.Now()
	q.poke()
	time.Sleep(after / 2)
	last := time.Now()
	q.poke()
	at := next()
	if last.Sub(first) < after {
		// The second poke came while the first one's wait ran: the
		// release waits from it.
		if at.Sub(last) < after {
			t.Errorf("released %v after the last activity, want %v or more", at.Sub(last), after)
		}
	} else if at.Sub(first) < after {
		t.Errorf("released %v after the activity, want %v or more", at.Sub(first), after)
	}
	select {
	case <-released:
		if last.Sub(first) < after {
			t.Fatal("a second release without activity between")
		}
	case <-time.After(5 * after):
	}
}
