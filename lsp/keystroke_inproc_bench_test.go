package lsp

import (
	"bytes"
	"encoding/json"
	"strconv"
	"testing"

	"go.lsp.dev/protocol"
)

// BenchmarkInProcessKeystroke is BenchmarkKeystroke with the server in
// this process (over net.Pipe), so `go test -cpuprofile` sees the handler:
// one ranged didChange, alternately adding and removing a bullet, → the
// publishDiagnostics of its version. The client writes pre-encoded
// messages and reads only the publish's version.
//
// The "repo" runs open the 1,000-item plan of the generated repository
// (benchrepo_test.go: evidence naming commits, files and tests, verified
// in the background by real git) instead of a generated plan.
func BenchmarkInProcessKeystroke(b *testing.B) {
	for _, name := range []string{"200", "1000", "repo1000"} {
		b.Run(name, func(b *testing.B) {
			var e *env
			var u string
			var src []byte
			if n, err := strconv.Atoi(name); err == nil {
				e, u, src = benchEnv(b, n, testOptions())
			} else {
				root, plan, text := repoPlan(b, 1000)
				e, src = newEnv(b, envConfig{folders: []string{root}, opts: defaultOptions()}), text
				u = e.open(plan, string(src))
				e.waitDiags(u, "open items", func(d []protocol.Diagnostic) bool { return len(d) > 0 })
			}
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
