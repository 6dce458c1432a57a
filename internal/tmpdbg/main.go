package main

import (
	"fmt"
	"os"
	"bytes"

	"github.com/planls/planls/planparse"
)

func main() {
	src, _ := os.ReadFile(os.Args[1])
	p := planparse.Parse(src)
	line := func(off int) int { return bytes.Count(src[:off], []byte{'\n'}) + 1 }
	for _, h := range p.Headings {
		fmt.Printf("H%d %d %q skip=%v why=%q\n", h.Level, line(h.Range.Start), h.Text, h.Skipped, h.Why)
	}
	for _, it := range p.Items {
		fmt.Printf("  item %d %q\n", line(it.Line.Start), it.Subject)
	}
}
