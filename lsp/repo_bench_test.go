package lsp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The benchmarks in this file run real `planls serve` processes in the
// generated repository of benchrepo_test.go. PLANLS_BENCH_BINS runs each
// against several builds in one run, for a before/after table:
//
//	PLANLS_BENCH_BINS=before=/tmp/planls-main,after=$PWD/bin/planls \
//	  go test ./lsp -run '^$' -bench 'Repo|Neovim' -benchtime 40x
//
// PLANLS_BENCH_BUSY=2 runs two CPU-bound processes beside each benchmark
// (the machine of a developer whose tests are running).

// benchBin is one server build a benchmark runs against.
type benchBin struct{ name, path string }

// benchBins are the builds of PLANLS_BENCH_BINS (name=path,...), else the
// one of benchBinary, named "this".
func benchBins(b *testing.B) []benchBin {
	spec := os.Getenv("PLANLS_BENCH_BINS")
	if spec == "" {
		return []benchBin{{"this", benchBinary(b)}}
	}
	var out []benchBin
	for _, part := range strings.Split(spec, ",") {
		name, path, ok := strings.Cut(part, "=")
		if !ok {
			b.Fatalf("PLANLS_BENCH_BINS: %q is not name=path", part)
		}
		out = append(out, benchBin{name, path})
	}
	return out
}

// busyLoops starts the CPU-bound processes PLANLS_BENCH_BUSY asks for,
// stopped when b ends.
func busyLoops(b *testing.B) {
	n, _ := strconv.Atoi(os.Getenv("PLANLS_BENCH_BUSY"))
	for range n {
		cmd := exec.Command("sh", "-c", "while :; do :; done")
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	}
}

// repoSession is a server process with the generated plan of n items open.
type repoSession struct {
	*procClient
	uri  string
	src  []byte
	seq  int
	plan benchPlan
}

// benchPlan is the part of a planls/plan result the benchmarks read.
type benchPlan struct {
	Pending bool `json:"pending"`
	Groups  []struct {
		Items []struct {
			ID       int    `json:"id"`
			Status   string `json:"status"`
			Evidence string `json:"evidence"`
			Range    *struct {
				Start struct {
					Line int `json:"line"`
				} `json:"start"`
			} `json:"range"`
		} `json:"items"`
	} `json:"groups"`
}

func openRepoPlan(b *testing.B, bin string, n int) *repoSession {
	root, plan, src := repoPlan(b, n)
	c := startProcBin(b, bin, root)
	c.call("init", "initialize", map[string]any{"rootUri": uriOf(root), "capabilities": map[string]any{}})
	c.notify("initialized", map[string]any{})
	s := &repoSession{procClient: c, uri: uriOf(plan), src: src}
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": s.uri, "languageId": "markdown", "version": 1, "text": string(src)}})
	c.waitPub(s.uri, 1)
	s.settle()
	return s
}

// settle asks planls/plan until its answer is not pending (a build that
// verifies in the background says so, then sends planls/stateChanged).
func (s *repoSession) settle() {
	for {
		s.mu.Lock()
		seen := s.changes
		s.mu.Unlock()
		s.plan = benchPlan{}
		if err := json.Unmarshal(s.request("planls/plan", map[string]any{"uri": s.uri}), &s.plan); err != nil {
			s.b.Fatal(err)
		}
		if !s.plan.Pending {
			return
		}
		s.wait("planls/stateChanged", func() bool { return s.changes > seen })
	}
}

func (s *repoSession) request(method string, params any) json.RawMessage {
	s.seq++
	return s.call(strconv.Itoa(s.seq), method, params)
}

// line is the 0-based line of the first item that pick accepts.
func (s *repoSession) line(pick func(id int, status, evidence string) bool) int {
	for _, g := range s.plan.Groups {
		for _, it := range g.Items {
			if it.Range != nil && pick(it.ID, it.Status, it.Evidence) {
				return it.Range.Start.Line
			}
		}
	}
	s.b.Fatal("no such item")
	return 0
}

// benchRequests are the requests a client sends between keystrokes: a
// hover on a completed item whose evidence names a commit, a file and a
// test, the code actions of an open item, and the plan sidebars ask for.
func (s *repoSession) benchRequests() map[string]func(shift int) (string, any) {
	done := s.line(func(_ int, st, ev string) bool { return st == "completed" && strings.Contains(ev, ".go:12") })
	open := s.line(func(_ int, st, _ string) bool { return st == "pending" })
	doc := map[string]any{"uri": s.uri}
	return map[string]func(int) (string, any){
		"hover": func(shift int) (string, any) {
			return "textDocument/hover", map[string]any{"textDocument": doc,
				"position": map[string]any{"line": done + shift, "character": 3}}
		},
		"codeAction": func(shift int) (string, any) {
			return "textDocument/codeAction", map[string]any{"textDocument": doc,
				"range": rangeOf(open+shift, 0, open+shift, 0), "context": map[string]any{"diagnostics": []any{}}}
		},
		"plan": func(int) (string, any) { return "planls/plan", map[string]any{"uri": s.uri} },
	}
}

// keystroke is the i-th edit of a benchmark: alternately a bullet added
// after the first section heading and removed again (every one changes
// the diagnostics), and how many lines the items below moved before it.
func (s *repoSession) keystroke(i int) (change map[string]any, shift int) {
	at := bytes.Index(s.src, []byte("\n## ")) + 1
	line := bytes.Count(s.src[:at], []byte("\n"))
	if i%2 == 0 {
		return map[string]any{"range": rangeOf(line, 0, line, 0), "text": "- an extra bullet\n\n"}, 0
	}
	return map[string]any{"range": rangeOf(line, 0, line+2, 0), "text": ""}, 2
}

// BenchmarkRepoKeystroke measures keystroke → the publishDiagnostics of
// its version at 50, 200 and 1,000 items, with nothing or one request sent
// just before each keystroke (its answer is awaited after the publish, so
// requests do not pile up). Reports p50/p99 wall time, the server's CPU per
// keystroke (request included) and the largest publish.
func BenchmarkRepoKeystroke(b *testing.B) {
	for _, bin := range benchBins(b) {
		b.Run(bin.name, func(b *testing.B) {
			for _, n := range []int{50, 200, 1000} {
				for _, before := range []string{"none", "hover", "codeAction", "plan"} {
					b.Run(fmt.Sprintf("%d/%s", n, before), func(b *testing.B) {
						busyLoops(b)
						s := openRepoPlan(b, bin.path, n)
						reqs := s.benchRequests()
						var lat []time.Duration
						cpu0 := procCPU(b, s.cmd.Process.Pid)
						b.ResetTimer()
						for i := 0; i < b.N; i++ {
							change, shift := s.keystroke(i)
							id := ""
							if r := reqs[before]; r != nil {
								method, params := r(shift)
								s.seq++
								id = "bench-" + strconv.Itoa(s.seq)
								s.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
							}
							start := time.Now()
							s.notify("textDocument/didChange", map[string]any{
								"textDocument":   map[string]any{"uri": s.uri, "version": i + 2},
								"contentChanges": []any{change},
							})
							s.waitPub(s.uri, i+2)
							lat = append(lat, time.Since(start))
							if id != "" {
								s.wait("reply", func() bool { _, ok := s.resp[id]; return ok })
							}
						}
						b.StopTimer()
						b.ReportMetric(ms(procCPU(b, s.cmd.Process.Pid)-cpu0)/float64(b.N), "server-cpu-ms/op")
						reportLatency(b, lat)
						s.mu.Lock()
						b.ReportMetric(float64(slices.Max(s.sizes))/1024, "max-publish-KB")
						s.mu.Unlock()
					})
				}
			}
		})
	}
}

// BenchmarkRepoRequest measures hover, code action and planls/plan at
// 1,000 items once the server has settled (planls/plan no longer pending):
// p50/p99 from the request's write to its reply's last byte read, the
// reply's size, and, on its own, how long decoding the reply into
// values takes this client (decode-p50-ms: encoding/json, for the work
// proportional to the reply that a sidebar's JSON.parse or vim.json.decode
// does after it).
func BenchmarkRepoRequest(b *testing.B) {
	for _, bin := range benchBins(b) {
		b.Run(bin.name, func(b *testing.B) {
			for _, name := range []string{"hover", "codeAction", "plan"} {
				b.Run(name, func(b *testing.B) {
					busyLoops(b)
					s := openRepoPlan(b, bin.path, 1000)
					method, params := s.benchRequests()[name](0)
					s.request(method, params) // warm
					var lat, dec []time.Duration
					size := 0
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						s.seq++
						start := time.Now()
						body := s.callRaw(strconv.Itoa(s.seq), method, params)
						lat = append(lat, time.Since(start))
						start = time.Now()
						var v any
						if err := json.Unmarshal(body, &v); err != nil {
							b.Fatal(err)
						}
						dec = append(dec, time.Since(start))
						size = len(body)
					}
					b.StopTimer()
					reportLatency(b, lat)
					slices.Sort(dec)
					b.ReportMetric(ms(dec[len(dec)/2]), "decode-p50-ms")
					b.ReportMetric(float64(size)/1024, "reply-KB")
				})
			}
		})
	}
}

// BenchmarkRepoResidentMemory reports the VmRSS of a server process with
// the 1,000-item repository plan open, after 50 keystrokes, a hover, a
// code action and a planls/plan each between them, and a second of idle:
// the median over b.N processes (one process's RSS moves by ±4 MB with
// where its garbage collector is in its cycle; run it with -benchtime 5x),
// and of it the anonymous memory and the pages of the binary.
func BenchmarkRepoResidentMemory(b *testing.B) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		b.Skip("needs /proc")
	}
	os.Unsetenv("GOMEMLIMIT")
	for _, bin := range benchBins(b) {
		b.Run(bin.name, func(b *testing.B) {
			var rss, anon, file []float64
			for i := 0; i < b.N; i++ {
				s := openRepoPlan(b, bin.path, 1000)
				reqs := s.benchRequests()
				for k := 0; k < 50; k++ {
					change, shift := s.keystroke(k)
					for _, name := range []string{"hover", "codeAction", "plan"} {
						method, params := reqs[name](shift)
						s.request(method, params)
					}
					s.notify("textDocument/didChange", map[string]any{
						"textDocument":   map[string]any{"uri": s.uri, "version": k + 2},
						"contentChanges": []any{change},
					})
					s.waitPub(s.uri, k+2)
				}
				time.Sleep(time.Second)
				pid := s.cmd.Process.Pid
				rss = append(rss, vmRSS(b, pid))
				anon = append(anon, statusMB(b, pid, "RssAnon:"))
				file = append(file, statusMB(b, pid, "RssFile:"))
				_ = s.cmd.Process.Kill()
			}
			b.ReportMetric(median(rss), "RSS-MB")
			b.ReportMetric(median(anon), "RssAnon-MB")
			b.ReportMetric(median(file), "RssFile-MB")
		})
	}
}

// median is the middle value of v (sorted in place).
func median(v []float64) float64 {
	slices.Sort(v)
	return v[len(v)/2]
}

// BenchmarkNeovimSidebar types 20 keystrokes into an item of the 200-item
// repository plan in real Neovim (PLANLS_NVIM, else the test cache's Debian
// sid build, else nvim) with the plugin's plan sidebar open, and again with
// it closed (editors/nvim/test/bench_sidebar.lua): 150 ms apart with a 600
// ms pause after every 5th, so the sidebar, which asks planls/plan once
// planls/stateChanged pauses, redraws during the run on the loop that
// handles the diagnostics. Reports how many keystrokes got diagnostics of
// their own version, the p50/p99 from each didChange Neovim sent to its
// diagnostics reaching their handler, how late the last keystroke's
// diagnostics came, how many planls/plan requests and sidebar redraws
// happened while typing, and how late the sidebar showed the last
// keystroke. Where the time goes, on Neovim's clock: pre (didChange → the
// pull Neovim sends after it), wait (the pull → Neovim starting to decode
// the answer: the server and the pipes), decode, post (decoded → handler),
// and handler (Neovim's own handler storing and showing the diagnostics,
// after the clock stopped); and the CPU per keystroke of Neovim and of the
// server while typing.
//
// PLANLS_BENCH_SPLIT=1 runs the server behind the benchmark proxy
// (benchproxy_test.go) and splits each latency: server-ms is the server's
// part (the didChange arriving to its diagnostics leaving: the answer to
// the pull after it, or its publish), nvim-ms the rest (Neovim writing the
// didChange, reading and decoding the answer, scheduling the handler, and
// the proxy's extra hops), pull-ms the pull delay (the didChange arriving
// to the pull arriving, while the server works on the change).
func BenchmarkNeovimSidebar(b *testing.B) {
	nvim := neovimForBench(b)
	script, err := filepath.Abs("../editors/nvim/test/bench_sidebar.lua")
	if err != nil {
		b.Fatal(err)
	}
	plugin, _ := filepath.Abs("../editors/nvim")
	if d := os.Getenv("PLANLS_BENCH_NVIM_DIR"); d != "" {
		// Another checkout's plugin, for a before/after of a plugin change.
		plugin = d
	}
	split := os.Getenv("PLANLS_BENCH_SPLIT") == "1"
	self, _ := os.Executable()
	for _, bin := range benchBins(b) {
		for _, sidebar := range []string{"open", "closed"} {
			b.Run(bin.name+"/"+sidebar, func(b *testing.B) {
				busyLoops(b)
				_, plan, _ := repoPlan(b, 200)
				var r struct {
					Keys, Own, PlanRequests, Draws int
					Latencies                      []float64
					Versions                       []int
					Split                          struct{ Pre, Wait, Decode, Post, Handler []float64 }
					Last, SidebarLast              float64
					NvimCPU, ServerCPU             float64
					Error                          string
				}
				var server, pull, rest []float64
				for i := 0; i < b.N; i++ {
					scratch := b.TempDir()
					cmd := exec.Command(nvim, "--headless", "--noplugin", "-i", "NONE", "-n",
						"-u", filepath.Join(plugin, "test", "minimal_init.lua"), "-c", "luafile "+script)
					cmd.Env = append(os.Environ(), "PLANLS_NVIM_DIR="+plugin, "PLANLS_BIN="+bin.path,
						"PLANLS_BENCH_PLAN="+plan, "PLANLS_BENCH_SIDEBAR="+sidebar, "XDG_CONFIG_HOME="+scratch,
						"XDG_DATA_HOME="+scratch, "XDG_STATE_HOME="+scratch, "XDG_CACHE_HOME="+scratch)
					log := filepath.Join(scratch, "proxy.jsonl")
					if split {
						cmd.Env = append(cmd.Env, "PLANLS_BIN="+self, "PLANLS_BENCH_PROXY="+bin.path,
							"PLANLS_BENCH_PROXY_LOG="+log)
					}
					out, err := cmd.CombinedOutput()
					line := out
					if i := bytes.LastIndex(out, []byte("BENCH ")); i >= 0 {
						line, _, _ = bytes.Cut(out[i+len("BENCH "):], []byte("\n"))
					}
					if jerr := json.Unmarshal(bytes.TrimSpace(line), &r); jerr != nil || r.Error != "" {
						b.Fatalf("nvim: %v %v %s\n%s", err, jerr, r.Error, out)
					}
					if split {
						srv, pl, err := serverSplit(log)
						if err != nil {
							b.Fatal(err)
						}
						for k, v := range r.Versions {
							if ms, ok := srv[v]; ok {
								server = append(server, ms)
								rest = append(rest, r.Latencies[k]-ms)
							}
							if ms, ok := pl[v]; ok {
								pull = append(pull, ms)
							}
						}
					}
				}
				slices.Sort(r.Latencies)
				b.ReportMetric(float64(r.Own), "own-of-20")
				if len(r.Latencies) > 0 {
					b.ReportMetric(r.Latencies[len(r.Latencies)/2], "p50-ms")
					b.ReportMetric(r.Latencies[(len(r.Latencies)*99)/100], "p99-ms")
				}
				b.ReportMetric(r.Last, "last-late-ms")
				b.ReportMetric(float64(r.PlanRequests), "plan-requests")
				b.ReportMetric(r.NvimCPU, "nvim-cpu-ms/key")
				b.ReportMetric(r.ServerCPU, "server-cpu-ms/key")
				if sidebar == "open" {
					b.ReportMetric(float64(r.Draws), "sidebar-draws")
					b.ReportMetric(r.SidebarLast, "sidebar-late-ms")
				}
				for _, m := range []struct {
					name string
					v    []float64
				}{{"server", server}, {"nvim", rest}, {"pull", pull},
					{"pre", r.Split.Pre}, {"wait", r.Split.Wait}, {"decode", r.Split.Decode}, {"post", r.Split.Post}, {"handler", r.Split.Handler}} {
					if len(m.v) > 0 {
						slices.Sort(m.v)
						b.ReportMetric(m.v[len(m.v)/2], m.name+"-p50-ms")
						b.ReportMetric(m.v[(len(m.v)*99)/100], m.name+"-p99-ms")
					}
				}
			})
		}
	}
}

func neovimForBench(b *testing.B) string {
	if p := os.Getenv("PLANLS_NVIM"); p != "" {
		return p
	}
	cache := os.Getenv("PLANLS_TEST_CACHE")
	if cache == "" {
		home, _ := os.UserHomeDir()
		cache = filepath.Join(home, ".cache", "planls-test")
	}
	if p := filepath.Join(cache, "nvim-sid", "nvim"); isFile(p) {
		return p
	}
	p, err := exec.LookPath("nvim")
	if err != nil {
		b.Skip("needs nvim")
	}
	return p
}

// reportLatency reports the p50 and p99 of lat in ms.
func reportLatency(b *testing.B, lat []time.Duration) {
	slices.Sort(lat)
	b.ReportMetric(ms(lat[len(lat)/2]), "p50-ms")
	b.ReportMetric(ms(lat[(len(lat)*99)/100]), "p99-ms")
}
