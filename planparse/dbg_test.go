package planparse

import (
	"fmt"
	"os"
	"testing"
)

func TestDbg(t *testing.T) {
	src, _ := os.ReadFile(os.Getenv("DBG"))
	ln := newLines(src)
	buf, base := prepare(src)
	capContainers(buf)
	var breaks []int
	tr := parseTree(buf, base, nil)
	for i := 1; i < maxParses; i++ {
		more := lazyBreaks(tr, ln)
		fmt.Println("pass", i, "breaks", more)
		if len(more) == 0 {
			break
		}
		breaks = mergeBreaks(breaks, more)
		tr = parseTree(buf, base, breaks)
	}
	for _, k := range children(tr.doc) {
		fmt.Println(k.Kind(), k.Pos(), ln.lineOf(tr.orig(start(k))))
	}
}
