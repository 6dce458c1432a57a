package lsp

import (
	"errors"
	"fmt"
	"time"

	"go.lsp.dev/protocol"
)

// validTrace reports whether v is a TraceValue (LSP 3.17 §"$/setTrace").
func validTrace(v string) bool {
	return v == "off" || v == "messages" || v == "verbose"
}

// setTrace handles $/setTrace: {"value": TraceValue}. Other values are
// logged and keep the current level.
func (s *server) setTrace(_ *request, p *protocol.SetTraceParams) (any, error) {
	v := string(p.Value) // s.trace holds a string
	if !validTrace(v) {
		s.log.Warn("$/setTrace ignored", "value", v)
		return nil, nil
	}
	s.trace.Store(v)
	return nil, nil
}

// traceHandled sends $/logTrace for a message the server handled, when the
// trace level is not "off": the method, the request id and how long it took;
// at "verbose" the params too (LSP 3.17 §"$/logTrace": message, verbose).
// $/logTrace never traces the trace notifications themselves.
func (s *server) traceHandled(r *request, start time.Time, err error) {
	level, _ := s.trace.Load().(string)
	if level == "" || level == "off" || r.method == "$/setTrace" {
		return
	}
	ms := float64(time.Since(start).Microseconds()) / 1000
	msg := fmt.Sprintf("handled notification '%s' in %.1f ms", r.method, ms)
	if r.isCall {
		msg = fmt.Sprintf("handled request '%s' (id %s) in %.1f ms", r.method, r.wireID, ms)
	}
	switch {
	case errors.Is(err, errDetached):
		msg += " (answered later)" // a command waiting on the lock or a prompt
	case err != nil:
		msg += ": " + err.Error()
	}
	p := protocol.LogTraceParams{Message: msg}
	if level == "verbose" {
		p.Verbose = protocol.TraceValue("params: " + string(r.params))
		if len(r.params) == 0 {
			p.Verbose = "params: none"
		}
	}
	s.notify("$/logTrace", p)
}
