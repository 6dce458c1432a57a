package lazy

import (
	"sync"
	"testing"
)

func TestRegexpCompilesOnceOnFirstUse(t *testing.T) {
	re := Regexp(`^a(b+)$`)
	var wg sync.WaitGroup
	got := make(chan any, 8)
	for range 8 {
		wg.Go(func() { got <- re() })
	}
	wg.Wait()
	close(got)
	first := re()
	for r := range got {
		if r != first {
			t.Fatal("concurrent first calls returned different regexps")
		}
	}
	if m := first.FindStringSubmatch("abbb"); len(m) != 2 || m[1] != "bbb" {
		t.Fatalf("match = %q", m)
	}
}

func TestRegexpInvalidPanicsOnFirstCall(t *testing.T) {
	re := Regexp(`(`) // no panic here: nothing is compiled yet
	defer func() {
		if recover() == nil {
			t.Fatal("an invalid expression did not panic on first use")
		}
	}()
	re()
}
