package lsp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"time"
)

// The benchmark proxy sits between an editor and a real server to split a
// keystroke's latency into the server's part and the editor's. When the
// test binary runs with PLANLS_BENCH_PROXY set to a server binary, TestMain
// runs that server with the test binary's arguments, copies its stdio both
// ways frame by frame, and appends one JSON line per message to
// PLANLS_BENCH_PROXY_LOG: proxyEvent, with the time (ns since the proxy
// started, one clock for both directions) at which the whole frame had
// arrived and been passed on.

// proxyEvent is one message the proxy passed on.
type proxyEvent struct {
	T       int64           `json:"t"`
	ToSrv   bool            `json:"toServer"`
	Method  string          `json:"method,omitempty"`
	ID      json.RawMessage `json:"id,omitempty"`
	Version *int            `json:"version,omitempty"`
	Bytes   int             `json:"bytes"`
}

// runBenchProxy runs the proxy and returns the server's exit code.
func runBenchProxy(server string) int {
	logf, err := os.OpenFile(os.Getenv("PLANLS_BENCH_PROXY_LOG"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench proxy:", err)
		return 2
	}
	defer logf.Close()
	cmd := exec.Command(server, os.Args[1:]...)
	cmd.Stderr = os.Stderr
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "bench proxy:", err)
		return 2
	}
	start := time.Now()
	var mu sync.Mutex
	enc := json.NewEncoder(logf)
	pump := func(dst io.WriteCloser, src io.Reader, toSrv bool) {
		defer dst.Close()
		r := bufio.NewReaderSize(src, 1<<16)
		for {
			frame, body, err := readFrame(r)
			if err != nil {
				return
			}
			if _, err := dst.Write(frame); err != nil {
				return
			}
			t := time.Since(start).Nanoseconds()
			var m struct {
				Method string          `json:"method"`
				ID     json.RawMessage `json:"id"`
				Params struct {
					Version      *int `json:"version"`
					TextDocument struct {
						Version *int `json:"version"`
					} `json:"textDocument"`
				} `json:"params"`
			}
			_ = json.Unmarshal(body, &m)
			ev := proxyEvent{T: t, ToSrv: toSrv, Method: m.Method, ID: m.ID, Version: m.Params.TextDocument.Version, Bytes: len(body)}
			if ev.Version == nil {
				ev.Version = m.Params.Version
			}
			mu.Lock()
			_ = enc.Encode(ev)
			mu.Unlock()
		}
	}
	go pump(in, os.Stdin, true)
	done := make(chan struct{})
	go func() { pump(os.Stdout, out, false); close(done) }()
	<-done
	if err := cmd.Wait(); err != nil {
		if x, ok := err.(*exec.ExitError); ok {
			return x.ExitCode()
		}
		return 2
	}
	return 0
}

// readFrame reads one base-protocol frame: all its bytes and its body.
func readFrame(r *bufio.Reader) (frame, body []byte, err error) {
	n := -1
	for {
		line, err := r.ReadSlice('\n')
		if err != nil {
			return nil, nil, err
		}
		frame = append(frame, line...)
		t := bytes.TrimSpace(line)
		if len(t) == 0 {
			break
		}
		if k, v, ok := bytes.Cut(t, []byte(":")); ok && bytes.EqualFold(bytes.TrimSpace(k), []byte("Content-Length")) {
			n, _ = strconv.Atoi(string(bytes.TrimSpace(v)))
		}
	}
	if n < 0 {
		return nil, nil, fmt.Errorf("frame without Content-Length")
	}
	head := len(frame)
	frame = append(frame, make([]byte, n)...)
	if _, err := io.ReadFull(r, frame[head:]); err != nil {
		return nil, nil, err
	}
	return frame, frame[head:], nil
}

// serverSplit reads a proxy log and returns, per didChange version, the
// server's part of that keystroke's latency in ms: from the didChange
// arriving to the diagnostics of that version leaving the server (the
// answer to the first textDocument/diagnostic request after it, a pull;
// else the publishDiagnostics of that version, a push); and, for pulls,
// the pull delay in ms, from the didChange to the pull request arriving
// (Neovim's, while the server works on the change).
func serverSplit(path string) (server, pull map[int]float64, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	changed := map[int]int64{} // version → didChange time
	asked := map[string]int{}  // pull request id → version it followed
	last := -1                 // version of the last didChange without a pull yet
	pushed := map[int]float64{}
	server, pull = map[int]float64{}, map[int]float64{}
	for _, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var ev proxyEvent
		if err := json.Unmarshal(line, &ev); err != nil {
			return nil, nil, err
		}
		switch {
		case ev.ToSrv && ev.Method == "textDocument/didChange" && ev.Version != nil:
			changed[*ev.Version] = ev.T
			last = *ev.Version
		case ev.ToSrv && ev.Method == "textDocument/diagnostic" && last >= 0:
			asked[string(ev.ID)] = last
			pull[last] = float64(ev.T-changed[last]) / 1e6
			last = -1
		case !ev.ToSrv && ev.Method == "" && ev.ID != nil:
			if v, ok := asked[string(ev.ID)]; ok {
				server[v] = float64(ev.T-changed[v]) / 1e6
				delete(asked, string(ev.ID))
			}
		case !ev.ToSrv && ev.Method == "textDocument/publishDiagnostics" && ev.Version != nil:
			if t, ok := changed[*ev.Version]; ok {
				if _, seen := pushed[*ev.Version]; !seen {
					pushed[*ev.Version] = float64(ev.T-t) / 1e6
				}
			}
		}
	}
	for v, ms := range pushed {
		if _, ok := server[v]; !ok {
			server[v] = ms
		}
	}
	return server, pull, nil
}
