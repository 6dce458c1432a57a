package lsp

import (
	"bytes"
	"encoding/json"
	"strconv"
	"testing"
)

// BenchmarkInProcessKeystroke is BenchmarkKeystroke with the server in
// this process (over net.Pipe), so `go test -cpuprofile` sees the handler:
// one ranged didChange, alternately adding and removing a bullet, → the
// publishDiagnostics of its version. The client writes pre-encoded
// messages and reads only the publish's version.
func BenchmarkInProcessKeystroke(b *testing.B) {
	for _, n := range []int{200, 1000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			e, u, src := benchEnv(b, n, testOptions())
			e.mu.Lock()
			e.light = true
			e.mu.Unlock()
			at := bytes.Index(src, []byte("\n## ")) + 1
			line := bytes.Count(src[:at], []byte("\n"))
			edits := []map[string]any{
				{"range": rangeOf(line, 0, line, 0), "text": "- an extra bullet\n\n"},
				{"range": rangeOf(line, 0, line+2, 0), "text": ""},
			}
			version := 1
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				version++
				body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didChange",
					"params": map[string]any{
						"textDocument":   map[string]any{"uri": u, "version": version},
						"contentChanges": []any{edits[i%2]},
					}})
				if _, err := e.stream.writeRaw(body); err != nil {
					b.Fatal(err)
				}
				e.waitFor("publish", func() bool {
					return len(e.pubs) > 0 && int(e.pubs[len(e.pubs)-1].Version) >= version
				})
			}
		})
	}
}
