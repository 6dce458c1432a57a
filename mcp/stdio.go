package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/planls/planls/internal/rpcid"
)

// maxMessageBytes caps one inbound message line (16 MiB, the SDK's own
// default): a longer line gets an error reply and is skipped without being
// held, so the server's memory stays bounded whatever arrives on stdin.
const maxMessageBytes = 16 << 20

// drainTimeout bounds how long a closed stdin waits for the replies still
// owed, so a stuck call cannot keep an orphaned server alive.
const drainTimeout = 10 * time.Second

// firstNoBatchProtocol is the first MCP protocol version without JSON-RPC
// batches (the SDK ends the session on one; the server refuses it instead).
const firstNoBatchProtocol = "2025-06-18"

// stdioGuard sits in front of the SDK's IOTransport, as the reader and the
// writer it is given, for three guarantees the SDK's stdio transport does
// not make (it ends the session on the first bad line, and cancels the
// calls in flight when stdin ends):
//
//   - a line that is not a JSON-RPC message (or a batch on a protocol that
//     has none) gets a JSON-RPC error reply (-32700 Parse error, -32600
//     Invalid Request), a warning on the log, and the session goes on;
//   - the end of stdin reaches the SDK only once every request read before
//     it has been answered (at most drainTimeout later);
//   - tools/call requests reach the SDK one at a time, in arrival order (the
//     SDK runs calls concurrently, so a pipelined create then list could list
//     first); other messages, such as the answer to a roots/list that a
//     running call waits for, pass the queued calls.
//
// Framing, decoding, batches and replies stay the SDK's.
type stdioGuard struct {
	in  io.Reader
	out *lockedWriter
	log *slog.Logger
	max int // longest line in bytes

	mu       sync.Mutex
	cond     *sync.Cond
	queue    []line          // read, not yet handed to the SDK
	owed     map[string]bool // stand-in ids (JSON text) of requests handed over, not answered
	calls    int             // tools/call requests among owed
	callIDs  map[string]bool
	initID   string      // id of the initialize request, until it is answered
	protocol string      // negotiated protocol version; "" before initialize
	eof      error       // stdin's end (io.EOF) or read error, once reached
	drain    *time.Timer // from the end of stdin: gives up on owed replies after drainTimeout
	closed   bool

	pending []byte // the rest of the line the SDK is reading

	ids wireIDs // the clients' request ids behind the SDK's stand-ins
}

// line is one checked message line of stdin.
type line struct {
	orig  []byte   // the line as read (for logs)
	data  []byte   // what the SDK is handed
	ids   []string // stand-in ids of the requests in it (JSON text)
	calls []string // ... of which are tools/call
	init  string   // stand-in id of an initialize request in it
	// wire maps the line's stand-ins to the ids the client wrote.
	wire map[string]json.RawMessage
	// cancels are its cancellations, one per stand-in they name: a
	// cancellation is handed on after its request (the SDK would find
	// nothing to cancel before), and one of a request still queued here
	// drops that request instead.
	cancels []cancel
	batch   bool // a JSON-RPC batch (an array)
	// notes are a batch's notifications, handed to the SDK as lines of
	// their own before it: the SDK waits for a reply to every element of a
	// batch, a notification's too, and would never answer the batch.
	notes [][]byte
}

func newStdioGuard(in io.Reader, out io.Writer, log *slog.Logger) *stdioGuard {
	g := &stdioGuard{in: in, log: log, max: maxMessageBytes, owed: map[string]bool{}, callIDs: map[string]bool{}}
	g.out = &lockedWriter{w: out, g: g}
	g.cond = sync.NewCond(&g.mu)
	go g.pump()
	return g
}

// pump reads stdin line by line, answers the bad lines and queues the good.
func (g *stdioGuard) pump() {
	r := bufio.NewReaderSize(g.in, 64<<10)
	for first := true; ; first = false {
		data, tooLong, err := readLine(r, g.max)
		if first {
			// Some Windows tools start a UTF-8 stream with a byte order
			// mark; it is not part of the JSON text (RFC 8259 §8.1).
			data = bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF"))
		}
		switch {
		case tooLong:
			g.refuse(nil, -32600, fmt.Sprintf("Invalid Request: the message is longer than %d bytes", g.max), "(over-long line)")
		case len(bytes.TrimSpace(data)) > 0:
			g.accept(data)
		}
		if err != nil {
			g.mu.Lock()
			g.eof = err
			g.cond.Broadcast()
			g.mu.Unlock()
			return
		}
	}
}

// accept checks one line and queues it, or answers it with an error.
func (g *stdioGuard) accept(data []byte) {
	data = bytes.TrimSpace(data)
	ln, id, code, msg := checkLine(data, &g.ids)
	if msg != "" {
		g.refuse(id, code, msg, string(data))
		return
	}
	g.ids.admit(ln.wire)
	g.mu.Lock()
	ln.cancels = g.dropQueued(ln.cancels)
	if ln.data == nil && len(ln.notes) == 0 && len(ln.cancels) == 0 {
		g.mu.Unlock()
		g.log.Debug("mcp: a cancellation of no request in flight", "line", string(data))
		return
	}
	g.queue = append(g.queue, ln)
	g.cond.Broadcast()
	g.mu.Unlock()
}

// checkLine decodes a line as the SDK will: one message, or a batch (Read
// checks that the session's protocol has batches). Each request's id is
// replaced by a stand-in from ids (wireid.go) and a cancellation's
// requestId by the stand-ins it names. A bad line gives the reply's id
// (nil = null), code and message; a line left with nothing to hand on (a
// cancellation of nothing in flight) has neither data nor notes.
func checkLine(data []byte, ids *wireIDs) (ln line, id json.RawMessage, code int, msg string) {
	if !utf8.Valid(data) {
		return ln, nil, -32700, "Parse error: the message is not valid UTF-8"
	}
	raw := json.RawMessage(bytes.TrimSpace(data))
	if !json.Valid(raw) {
		// Decoded only to say what is wrong: most lines are valid.
		msg := "invalid JSON"
		if err := json.Unmarshal(raw, new(json.RawMessage)); err != nil {
			msg = err.Error()
		}
		return ln, nil, -32700, "Parse error: " + msg
	}
	elems := []json.RawMessage{raw}
	switch raw[0] {
	case '{':
	case '[':
		ln.batch = true
		if err := json.Unmarshal(raw, &elems); err != nil || len(elems) == 0 {
			return ln, nil, -32600, "Invalid Request: empty batch"
		}
	default:
		return ln, nil, -32600, "Invalid Request: a message must be a JSON object or a batch array"
	}
	var rest []json.RawMessage
	seen := map[string]bool{}
	for i, e := range elems {
		where := ""
		if ln.batch {
			where = fmt.Sprintf("batch element %d: ", i)
		}
		if e[0] != '{' {
			return line{}, nil, -32600, "Invalid Request: " + where + "a batch element must be a JSON object"
		}
		sp, err := rpcid.Members(e, "id", "method", "params", "result", "error")
		if err != nil {
			return line{}, nil, -32600, "Invalid Request: " + where + err.Error()
		}
		idSpan, methodSpan := sp[0], sp[1]
		method, echo, problem := rpcid.Shape(idSpan.Val, methodSpan.Val, sp[3].Val, sp[4].Val)
		if ln.batch {
			echo = nil // a batch's reply is one array: its refusal names no request
		}
		if problem != "" {
			return line{}, echo, -32600, "Invalid Request: " + where + problem
		}
		isCall := methodSpan.Found && idSpan.Found
		var stand string
		if isCall {
			if !ln.batch && !servedMethods[method] {
				return line{}, echo, -32601, fmt.Sprintf("Method not found: %q", method)
			}
			key := rpcid.Key(idSpan.Val)
			if seen[key] {
				return line{}, nil, -32600, fmt.Sprintf("Invalid Request: %srequest id %s is used twice in one batch", where, idSpan.Val)
			}
			seen[key] = true
			stand = ids.standIn()
			e = idSpan.Replace(e, []byte(stand))
		}
		if _, err := jsonrpc.DecodeMessage(e); err != nil {
			return line{}, echo, -32600, "Invalid Request: " + where + err.Error()
		}
		if !isCall {
			if methodSpan.Found && method == cancelledMethod {
				// Each cancellation becomes one per stand-in it names.
				ln.cancels = append(ln.cancels, cancelsFor(e, sp[2], ids)...)
			} else if methodSpan.Found && ln.batch {
				ln.notes = append(ln.notes, e)
			} else {
				rest = append(rest, e)
			}
			continue
		}
		if ln.wire == nil {
			ln.wire = map[string]json.RawMessage{}
		}
		ln.wire[stand] = bytes.Clone(idSpan.Val)
		rest = append(rest, e)
		ln.ids = append(ln.ids, stand)
		switch method {
		case "tools/call":
			ln.calls = append(ln.calls, stand)
		case "initialize":
			ln.init = stand
			// The SDK answers params it cannot decode with error code 0;
			// JSON-RPC's code for them is -32602.
			var p sdk.InitializeParams
			if sp[2].Found {
				if err := json.Unmarshal(sp[2].Val, &p); err != nil {
					return line{}, echo, -32602, "Invalid params: initialize: " + paramsError(err)
				}
			}
		}
	}
	ln.orig = data
	switch {
	case len(rest) == 0:
	case ln.batch:
		ln.data = joinBatch(rest)
	default:
		ln.data = rest[0]
	}
	return ln, nil, 0, ""
}

// paramsError names the field a decoding error is about, in JSON's terms.
func paramsError(err error) string {
	if te, ok := errors.AsType[*json.UnmarshalTypeError](err); ok && te.Field != "" {
		return fmt.Sprintf("%s must be %s, not %s", te.Field, jsonKind(te.Type.Kind().String()), te.Value)
	}
	return err.Error()
}

// jsonKind is a Go kind as the JSON type a client sends.
func jsonKind(k string) string {
	switch k {
	case "string":
		return "a string"
	case "bool":
		return "true or false"
	case "struct", "map":
		return "an object"
	case "slice", "array":
		return "an array"
	}
	return "a number"
}

// refuse writes a JSON-RPC error reply for a bad line and logs it.
func (g *stdioGuard) refuse(id json.RawMessage, code int, message, what string) {
	const previewLen = 120
	if len(what) > previewLen {
		what = what[:previewLen] + "…"
	}
	g.log.Warn("mcp: answered a malformed message", "code", code, "error", message, "line", what)
	_, _ = g.out.writeRaw(append(rpcid.ErrorReply(id, code, message), '\n'))
}

// Read hands the SDK the next line it may have: the oldest queued line,
// except that a line with a tools/call waits while another call is owed.
// At the end of stdin it returns io.EOF once nothing is owed.
func (g *stdioGuard) Read(p []byte) (int, error) {
	if len(g.pending) > 0 {
		n := copy(p, g.pending)
		g.pending = g.pending[n:]
		return n, nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
scan:
	for {
		if g.closed {
			return 0, io.EOF
		}
		var held map[string]bool // stand-ins of the lines left in the queue so far
		for i, ln := range g.queue {
			wait := len(ln.calls) > 0 && g.calls > 0 || // a tools/call is being served: keep arrival order
				ln.batch && g.initID != "" || // batches depend on the protocol initialize settles
				slices.ContainsFunc(ln.cancels, func(c cancel) bool { return held[c.target] })
			if wait {
				if held == nil {
					held = map[string]bool{}
				}
				for _, id := range ln.ids {
					held[id] = true
				}
				continue
			}
			g.queue = append(g.queue[:i:i], g.queue[i+1:]...)
			if ln.batch && g.protocol >= firstNoBatchProtocol {
				g.ids.forget(ln.wire)
				g.refuse(nil, -32600, fmt.Sprintf("Invalid Request: JSON-RPC batches are not part of MCP %s and later (this session: %s)", firstNoBatchProtocol, g.protocol), string(ln.orig))
				continue scan
			}
			for _, id := range ln.ids {
				g.owed[id] = true
			}
			for _, id := range ln.calls {
				g.callIDs[id] = true
				g.calls++
			}
			if ln.init != "" {
				g.initID = ln.init
			}
			g.pending = g.pending[:0]
			for _, n := range ln.notes {
				g.pending = append(append(g.pending, n...), '\n')
			}
			for _, c := range ln.cancels {
				g.pending = append(append(g.pending, c.note...), '\n')
			}
			if ln.data != nil {
				g.pending = append(append(g.pending, ln.data...), '\n')
			}
			n := copy(p, g.pending)
			g.pending = g.pending[n:]
			return n, nil
		}
		if g.eof != nil && len(g.owed) == 0 && len(g.queue) == 0 {
			return 0, g.eof
		}
		if g.eof != nil && g.drain == nil {
			g.drain = time.AfterFunc(drainTimeout, func() {
				g.mu.Lock()
				g.owed = map[string]bool{} // give up on the owed replies
				g.calls = 0
				g.queue = g.queue[:0]
				g.cond.Broadcast()
				g.mu.Unlock()
			})
		}
		g.cond.Wait()
	}
}

// dropQueued removes from the queue each request that a cancellation names
// while it waits there alone on its line (a tools/call behind another):
// it is never run and, as MCP asks of a cancelled request, never answered.
// It returns the cancellations still to hand on. The caller holds mu.
func (g *stdioGuard) dropQueued(cancels []cancel) []cancel {
	rest := cancels[:0]
	for _, c := range cancels {
		i := slices.IndexFunc(g.queue, func(ln line) bool { return len(ln.ids) == 1 && ln.ids[0] == c.target && !ln.batch })
		if i < 0 {
			rest = append(rest, c)
			continue
		}
		g.ids.forget(g.queue[i].wire)
		g.queue = slices.Delete(g.queue, i, i+1)
		g.cond.Broadcast()
	}
	return rest
}

// Close stops handing lines to the SDK (it closes its reader when the
// session ends) and closes stdin when it can be closed.
func (g *stdioGuard) Close() error {
	g.mu.Lock()
	g.closed = true
	if g.drain != nil {
		g.drain.Stop()
	}
	g.cond.Broadcast()
	g.mu.Unlock()
	if c, ok := g.in.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// reply is one response the SDK wrote: its stand-in id and the message.
type reply struct {
	standIn string
	msg     []byte
}

// restoreIDs puts the clients' ids back into the responses of one outgoing
// line (a message or a batch): out is the line to write (nil: unchanged),
// replies the responses it carries, by stand-in.
func (g *stdioGuard) restoreIDs(data []byte) (out []byte, replies []reply) {
	batch := bytes.HasPrefix(data, []byte("["))
	msgs := []json.RawMessage{data}
	if batch && json.Unmarshal(data, &msgs) != nil {
		return nil, nil
	}
	changed := false
	for i, m := range msgs {
		sp, ok := responseID(m)
		if !ok {
			continue
		}
		stand := string(sp.Val)
		replies = append(replies, reply{stand, m})
		if raw, ok := g.ids.Take(stand); ok {
			msgs[i], changed = sp.Replace(m, raw), true
		}
	}
	switch {
	case !changed:
		return nil, replies
	case batch:
		return joinBatch(msgs), replies
	}
	return msgs[0], replies
}

// answered marks replies as written: the requests are no longer owed, and
// the reply to initialize settles the session's protocol version.
func (g *stdioGuard) answered(replies []reply) {
	if len(replies) == 0 {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, r := range replies {
		id := r.standIn
		if id == g.initID && g.initID != "" {
			var init struct {
				Result struct {
					ProtocolVersion string `json:"protocolVersion"`
				} `json:"result"`
			}
			_ = json.Unmarshal(r.msg, &init)
			g.protocol = init.Result.ProtocolVersion
			g.initID = ""
		}
		delete(g.owed, id)
		if g.callIDs[id] {
			delete(g.callIDs, id)
			g.calls--
		}
	}
	g.cond.Broadcast()
}

// responseID is the id of a response (its span in msg); ok is false for
// requests, notifications and what does not parse. The SDK writes "id"
// before the result, so a big result is normally not decoded at all.
func responseID(msg []byte) (id rpcid.Span, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(msg))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return id, false
	}
	response := false
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return id, false
		}
		switch key {
		case "method":
			return id, false
		case "result", "error":
			if id.Found {
				return id, true
			}
			response = true
		}
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			return id, false
		}
		if key == "id" {
			end := int(dec.InputOffset())
			id = rpcid.Span{Val: v, Start: end - len(v), End: end, Found: true}
		}
	}
	return id, response && id.Found
}

// lockedWriter is stdout shared by the SDK's replies and the guard's error
// replies: each Write is one whole line, so lines never interleave.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
	g  *stdioGuard
}

// Write sends one line of the SDK's, with the clients' ids in its replies,
// and notes the replies it carries.
func (w *lockedWriter) Write(p []byte) (int, error) {
	out, replies := w.g.restoreIDs(bytes.TrimSpace(p))
	line := p
	if out != nil {
		line = append(out, '\n')
	}
	if _, err := w.writeRaw(line); err != nil {
		return 0, err
	}
	w.g.answered(replies)
	return len(p), nil
}

func (w *lockedWriter) writeRaw(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.Write(p)
}

// Close leaves stdout open: the process owns it.
func (w *lockedWriter) Close() error { return nil }

// readLine returns the next line without its "\n" or "\r\n"; a last line
// without a newline comes with the read error that ended it. A line longer
// than limit bytes is consumed to its end without being kept: tooLong.
//
// A long line is kept as the reader's buffer-sized pieces and joined once
// at its end: growing one slice by doubling left every smaller copy behind
// as garbage, about as much again as the line, so the peak depended on when
// the collector ran: TestStdioHugeLine (a 50 MB line, 16 MiB of it
// buffered) peaked at 48 MiB here and 72 MiB on a loaded CI run; it is
// 32 MiB now.
func readLine(r *bufio.Reader, limit int) (line []byte, tooLong bool, err error) {
	var pieces [][]byte
	n := 0
	for {
		chunk, err := r.ReadSlice('\n')
		n += len(chunk)
		if !tooLong && n <= limit+2 { // room for "\r\n"
			pieces = append(pieces, bytes.Clone(chunk))
		} else {
			tooLong, pieces = true, nil
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if tooLong {
			return nil, true, err
		}
		line := pieces[0]
		if len(pieces) > 1 {
			line = bytes.Join(pieces, nil)
		}
		line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
		if len(line) > limit {
			return nil, true, err
		}
		return line, false, err
	}
}
