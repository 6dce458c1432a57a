package lsp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The benchmarks in this file drive a real `planls serve` process over
// stdio, so the same benchmark measures any build: PLANLS_BENCH_BIN names
// the binary (e.g. one built from main, for a before/after table in one
// run), else the binary of this tree. The client reads frames itself and
// looks only at a publish's version and a reply's id, so a latency ends
// when the last byte of the message is read: the client's JSON decoding
// is not counted as the server's time (BenchmarkRepoRequest reports it on
// its own).

// benchBinary is the server binary the process benchmarks run.
func benchBinary(b *testing.B) string {
	if p := os.Getenv("PLANLS_BENCH_BIN"); p != "" {
		return p
	}
	return planlsBinary(b)
}

// procClient is a minimal LSP client of one server process.
type procClient struct {
	b     *testing.B
	cmd   *exec.Cmd
	in    io.WriteCloser
	mu    sync.Mutex
	cond  *sync.Cond
	pubs  map[string][]int // URI → versions of its publishes, in order
	sizes []int            // bytes of each publish
	resp  map[string][]byte
	sync  int // textDocumentSync.change the server advertised
	// changes counts planls/stateChanged notifications.
	changes int
	dead    error
}

func startProc(b *testing.B, root string) *procClient {
	return startProcBin(b, benchBinary(b), root)
}

// startProcBin starts `bin serve` in root.
func startProcBin(b *testing.B, bin, root string) *procClient {
	cmd := exec.Command(bin, "serve")
	cmd.Dir = root
	if os.Getenv("PLANLS_BENCH_STDERR") != "" {
		cmd.Stderr = os.Stderr // the server's logs, GODEBUG=gctrace=1
	}
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	c := &procClient{b: b, cmd: cmd, in: in, pubs: map[string][]int{}, resp: map[string][]byte{}}
	c.cond = sync.NewCond(&c.mu)
	go c.read(bufio.NewReaderSize(out, 1<<20))
	b.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return c
}

func (c *procClient) read(r *bufio.Reader) {
	var err error
	defer func() {
		c.mu.Lock()
		c.dead = err
		c.cond.Broadcast()
		c.mu.Unlock()
	}()
	for {
		n := -1
		for {
			var line string
			if line, err = r.ReadString('\n'); err != nil {
				return
			}
			line = strings.TrimSpace(line)
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length:"); ok {
				n, _ = strconv.Atoi(strings.TrimSpace(v))
			}
		}
		body := make([]byte, n)
		if _, err = io.ReadFull(r, body); err != nil {
			return
		}
		head := body[:min(len(body), 600)]
		c.mu.Lock()
		switch {
		case bytes.Contains(head, []byte(`"textDocument/publishDiagnostics"`)):
			uri, version := pubTarget(head)
			c.pubs[uri] = append(c.pubs[uri], version)
			c.sizes = append(c.sizes, len(body))
		case bytes.Contains(head, []byte(`"planls/stateChanged"`)):
			c.changes++
		default:
			// A reply's id is at its start or its end (jsonrpc2 writes it
			// last): it is read there, so that a long result costs the
			// client nothing until a benchmark asks for it (call).
			if id := benchID(body); id != "" {
				c.resp[id] = body
			}
		}
		c.cond.Broadcast()
		c.mu.Unlock()
	}
}

// pubTarget reads uri and version from the start of a publish (both come
// before the diagnostics in every encoding planls has used).
func pubTarget(head []byte) (string, int) {
	uri, version := "", 0
	if i := bytes.Index(head, []byte(`"uri":"`)); i >= 0 {
		rest := head[i+7:]
		if j := bytes.IndexByte(rest, '"'); j >= 0 {
			uri = string(rest[:j])
		}
	}
	if i := bytes.Index(head, []byte(`"version":`)); i >= 0 {
		rest := head[i+10:]
		j := 0
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		version, _ = strconv.Atoi(string(rest[:j]))
	}
	return uri, version
}

func (c *procClient) send(msg any) {
	body, err := json.Marshal(msg)
	if err != nil {
		c.b.Fatal(err)
	}
	if _, err := fmt.Fprintf(c.in, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
		c.b.Fatal(err)
	}
}

func (c *procClient) call(id, method string, params any) json.RawMessage {
	var m struct {
		Result json.RawMessage `json:"result"`
	}
	_ = json.Unmarshal(c.callRaw(id, method, params), &m)
	return m.Result
}

// callRaw sends a request and returns its reply as read, undecoded.
func (c *procClient) callRaw(id, method string, params any) []byte {
	c.send(map[string]any{"jsonrpc": "2.0", "id": "bench-" + id, "method": method, "params": params})
	var body []byte
	c.wait("reply to "+method, func() bool {
		r, ok := c.resp["bench-"+id]
		body = r
		return ok
	})
	return body
}

// benchID is the id of a reply to a benchmark's call ("bench-N"), read
// from the head or the tail of its body; "" for anything else.
func benchID(body []byte) string {
	for _, part := range [][]byte{body[:min(len(body), 200)], body[max(0, len(body)-200):]} {
		if i := bytes.Index(part, []byte(`"id":"bench-`)); i >= 0 {
			rest := part[i+len(`"id":"`):]
			if j := bytes.IndexByte(rest, '"'); j >= 0 {
				return string(rest[:j])
			}
		}
	}
	return ""
}

func (c *procClient) notify(method string, params any) {
	c.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// wait waits for cond (called with c.mu held) to hold.
func (c *procClient) wait(what string, cond func() bool) {
	timer := time.AfterFunc(2*time.Minute, func() {
		c.mu.Lock()
		c.dead = fmt.Errorf("timed out waiting for %s", what)
		c.cond.Broadcast()
		c.mu.Unlock()
	})
	defer timer.Stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	for !cond() {
		if c.dead != nil {
			c.b.Fatalf("waiting for %s: %v", what, c.dead)
		}
		c.cond.Wait()
	}
}

// waitPub waits for a publish of uri at version or later.
func (c *procClient) waitPub(uri string, version int) {
	c.wait(fmt.Sprintf("publish of version %d", version), func() bool {
		vs := c.pubs[uri]
		return len(vs) > 0 && vs[len(vs)-1] >= version
	})
}

// openPlan starts a server on an approved generated plan of n items, opens
// it and waits for its first publish.
func openPlan(b *testing.B, n int) (*procClient, string, []byte) {
	root, plan, src := approvedPlan(b, n)
	c := startProc(b, root)
	res := c.call("init", "initialize", map[string]any{"rootUri": uriOf(root), "capabilities": map[string]any{}})
	var ir struct {
		Capabilities struct {
			TextDocumentSync struct {
				Change int `json:"change"`
			} `json:"textDocumentSync"`
		} `json:"capabilities"`
	}
	_ = json.Unmarshal(res, &ir)
	c.sync = ir.Capabilities.TextDocumentSync.Change
	c.notify("initialized", map[string]any{})
	u := uriOf(plan)
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": u, "languageId": "markdown", "version": 1, "text": string(src)}})
	c.waitPub(u, 1)
	return c, u, src
}

// BenchmarkKeystroke measures one keystroke → the publishDiagnostics of
// its version, through a real server process, at realistic plan sizes and
// at 10k items. Each keystroke alternately adds and removes a bullet after
// the first section heading (so every one changes the diagnostics), sent
// as a range edit when the server advertises incremental sync and as the
// whole text otherwise. Reports p50/p90 wall time and the largest publish.
func BenchmarkKeystroke(b *testing.B) {
	for _, n := range []int{50, 200, 1000, 10000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			c, u, src := openPlan(b, n)
			at := bytes.Index(src, []byte("\n## ")) + 1
			if at <= 0 {
				b.Fatal("no section heading")
			}
			line := bytes.Count(src[:at], []byte("\n"))
			bullet := "- an extra bullet\n\n"
			added := string(src[:at]) + bullet + string(src[at:])
			var lat []time.Duration
			version := 1
			cpu0 := procCPU(b, c.cmd.Process.Pid)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				version++
				var change map[string]any
				switch {
				case c.sync != 2 && i%2 == 0:
					change = map[string]any{"text": added}
				case c.sync != 2:
					change = map[string]any{"text": string(src)}
				case i%2 == 0:
					change = map[string]any{"range": rangeOf(line, 0, line, 0), "text": bullet}
				default:
					change = map[string]any{"range": rangeOf(line, 0, line+2, 0), "text": ""}
				}
				start := time.Now()
				c.notify("textDocument/didChange", map[string]any{
					"textDocument":   map[string]any{"uri": u, "version": version},
					"contentChanges": []any{change},
				})
				c.waitPub(u, version)
				lat = append(lat, time.Since(start))
			}
			b.StopTimer()
			// The server's CPU per keystroke: on a shared machine wall time
			// mostly measures the other tenants.
			b.ReportMetric(ms(procCPU(b, c.cmd.Process.Pid)-cpu0)/float64(b.N), "server-cpu-ms/op")
			slices.Sort(lat)
			b.ReportMetric(ms(lat[len(lat)/2]), "p50-ms")
			b.ReportMetric(ms(lat[len(lat)*9/10]), "p90-ms")
			c.mu.Lock()
			b.ReportMetric(float64(slices.Max(c.sizes))/1024, "max-publish-KB")
			c.mu.Unlock()
		})
	}
}

func rangeOf(l1, c1, l2, c2 int) map[string]any {
	return map[string]any{
		"start": map[string]any{"line": l1, "character": c1},
		"end":   map[string]any{"line": l2, "character": c2},
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// procCPU is the user+system CPU time of process pid (Linux
// /proc/PID/stat, in clock ticks of 10 ms).
func procCPU(b *testing.B, pid int) time.Duration {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Skip("needs /proc")
	}
	// Fields after the command name, which ends with the last ')'.
	f := strings.Fields(string(raw[bytes.LastIndexByte(raw, ')')+2:]))
	utime, _ := strconv.Atoi(f[11])
	stime, _ := strconv.Atoi(f[12])
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// BenchmarkResidentMemoryPlan reports the VmRSS (Linux) of a real server
// process with a 1,000-item plan open, after 50 keystrokes and a second
// of idle, as an editor's server is between edits. The process runs with
// no GOMEMLIMIT from the environment.
func BenchmarkResidentMemoryPlan(b *testing.B) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		b.Skip("needs /proc")
	}
	os.Unsetenv("GOMEMLIMIT")
	var rss, anon float64
	for i := 0; i < b.N; i++ {
		c, u, src := openPlan(b, 1000)
		at := bytes.Index(src, []byte("\n## ")) + 1
		line := bytes.Count(src[:at], []byte("\n"))
		added := string(src[:at]) + "- an extra bullet\n\n" + string(src[at:])
		for v := 2; v < 52; v++ {
			change := map[string]any{"text": string(src)}
			switch {
			case c.sync == 2 && v%2 == 0:
				change = map[string]any{"range": rangeOf(line, 0, line, 0), "text": "- an extra bullet\n\n"}
			case c.sync == 2:
				change = map[string]any{"range": rangeOf(line, 0, line+2, 0), "text": ""}
			case v%2 == 0:
				change = map[string]any{"text": added}
			}
			c.notify("textDocument/didChange", map[string]any{
				"textDocument":   map[string]any{"uri": u, "version": v},
				"contentChanges": []any{change},
			})
			c.waitPub(u, v)
		}
		time.Sleep(time.Second)
		rss = vmRSS(b, c.cmd.Process.Pid)
		anon = statusMB(b, c.cmd.Process.Pid, "RssAnon:")
		_ = c.cmd.Process.Kill()
	}
	b.ReportMetric(rss, "RSS-MB")
	b.ReportMetric(anon, "RssAnon-MB")
}
