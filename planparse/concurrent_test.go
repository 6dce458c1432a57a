package planparse

import (
	"bytes"
	"sync"
	"testing"

	"github.com/planls/planls/internal/plangen"
)

// TestParseConcurrently: the language server and the MCP server parse from
// several goroutines; the shared goldmark parsers must not share state
// between calls (run with -race).
func TestParseConcurrently(t *testing.T) {
	srcs := [][]byte{plangen.Generate(200, 1), plangen.Generate(300, 2), []byte("# T\n- a\nlazy\n- [x] b\n")}
	want := make([][]byte, len(srcs))
	for i, s := range srcs {
		want[i] = marshalGolden(t, toGolden(s, Parse(s)))
	}
	var wg sync.WaitGroup
	errs := make(chan int, 12)
	for g := 0; g < 12; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			i := g % len(srcs)
			p := Parse(srcs[i])
			if !bytes.Equal(marshalGolden(t, toGolden(srcs[i], p)), want[i]) {
				errs <- i
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for i := range errs {
		t.Errorf("concurrent parse of input %d differs from the sequential one", i)
	}
}
