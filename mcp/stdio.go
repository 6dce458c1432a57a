package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxMessageBytes caps one inbound message line (16 MiB, the SDK's own
// default): a longer line gets an error reply and is skipped without being
// held, so the server's memory stays bounded whatever arrives on stdin.
const maxMessageBytes = 16 << 20

// drainTimeout bounds how long a closed stdin waits for the replies still
// owed, so a stuck call cannot keep an orphaned server alive (B34).
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
	owed     map[string]bool // ids (raw JSON) of requests handed over, not answered
	calls    int             // tools/call requests among owed
	callIDs  map[string]bool
	initID   string      // id of the initialize request, until it is answered
	protocol string      // negotiated protocol version; "" before initialize
	eof      error       // stdin's end (io.EOF) or read error, once reached
	drain    *time.Timer // from the end of stdin: gives up on owed replies after drainTimeout
	closed   bool

	pending []byte // the rest of the line the SDK is reading
}

// line is one checked message line of stdin.
type line struct {
	data  []byte
	ids   []string // ids of the requests in it (raw JSON)
	calls []string // ... of which are tools/call
	init  string   // id of an initialize request in it
	batch bool     // a JSON-RPC batch (an array)
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
	ln, id, code, msg := checkLine(data)
	if msg != "" {
		g.refuse(id, code, msg, string(data))
		return
	}
	g.mu.Lock()
	g.queue = append(g.queue, ln)
	g.cond.Broadcast()
	g.mu.Unlock()
}

// checkLine decodes a line as the SDK will: one message, or a batch (Read
// checks that the session's protocol has batches). A bad line gives the
// reply's id (nil = null), code and message.
func checkLine(data []byte) (ln line, id json.RawMessage, code int, msg string) {
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
	ln.data = data
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
		m, err := jsonrpc.DecodeMessage(e)
		if err != nil {
			return line{}, echoID(e, !ln.batch), -32600, "Invalid Request: " + where + err.Error()
		}
		req, ok := m.(*jsonrpc.Request)
		if ok && !req.IsCall() && ln.batch {
			ln.notes = append(ln.notes, e)
			continue
		}
		rest = append(rest, e)
		if !ok || !req.IsCall() {
			continue
		}
		rid := rawID(req.ID)
		if seen[rid] {
			return line{}, nil, -32600, fmt.Sprintf("Invalid Request: %srequest id %s is used twice in one batch", where, rid)
		}
		seen[rid] = true
		ln.ids = append(ln.ids, rid)
		switch req.Method {
		case "tools/call":
			ln.calls = append(ln.calls, rid)
		case "initialize":
			ln.init = rid
			// The SDK answers params it cannot decode with error code 0;
			// JSON-RPC's code for them is -32602 (issue 11 item 3).
			var p sdk.InitializeParams
			if len(req.Params) > 0 {
				if err := json.Unmarshal(req.Params, &p); err != nil {
					return line{}, json.RawMessage(rid), -32602, "Invalid params: initialize: " + paramsError(err)
				}
			}
		}
	}
	if ln.batch && len(ln.notes) > 0 {
		ln.data = nil
		if len(rest) > 0 {
			ln.data, _ = json.Marshal(rest)
		}
	}
	return ln, nil, 0, ""
}

// paramsError names the field a decoding error is about, in JSON's terms.
func paramsError(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
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

// echoID is the id a reply to a bad message carries: the message's own id
// when it is a string or a number, else null (JSON-RPC 2.0 §5).
func echoID(msg json.RawMessage, single bool) json.RawMessage {
	var f struct {
		ID json.RawMessage `json:"id"`
	}
	if !single || json.Unmarshal(msg, &f) != nil || len(f.ID) == 0 {
		return nil
	}
	var v any
	if json.Unmarshal(f.ID, &v) != nil {
		return nil
	}
	switch v.(type) {
	case string, float64:
		return f.ID
	}
	return nil
}

// rawID is an id as JSON, the key owed requests are tracked by.
func rawID(id jsonrpc.ID) string {
	b, _ := json.Marshal(id.Raw()) // nil on error: ""
	return string(b)
}

// refuse writes a JSON-RPC error reply for a bad line and logs it.
func (g *stdioGuard) refuse(id json.RawMessage, code int, message, what string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	const previewLen = 120
	if len(what) > previewLen {
		what = what[:previewLen] + "…"
	}
	g.log.Warn("mcp: answered a malformed message", "code", code, "error", message, "line", what)
	reply, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", id, jsonrpc.Error{Code: int64(code), Message: message}})
	if err == nil {
		_, _ = g.out.writeRaw(append(reply, '\n'))
	}
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
		for i, ln := range g.queue {
			if len(ln.calls) > 0 && g.calls > 0 {
				continue // a tools/call is being served: keep arrival order
			}
			if ln.batch && g.initID != "" {
				continue // batches depend on the protocol initialize settles
			}
			g.queue = append(g.queue[:i:i], g.queue[i+1:]...)
			if ln.batch && g.protocol >= firstNoBatchProtocol {
				g.refuse(nil, -32600, fmt.Sprintf("Invalid Request: JSON-RPC batches are not part of MCP %s and later (this session: %s)", firstNoBatchProtocol, g.protocol), string(ln.data))
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

// answered marks the replies in one outgoing line (a message or a batch).
func (g *stdioGuard) answered(data []byte) {
	msgs := []json.RawMessage{data}
	if bytes.HasPrefix(data, []byte("[")) && json.Unmarshal(data, &msgs) != nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, m := range msgs {
		id, ok := responseID(m)
		if !ok {
			continue
		}
		if id == g.initID && g.initID != "" {
			var init struct {
				Result struct {
					ProtocolVersion string `json:"protocolVersion"`
				} `json:"result"`
			}
			_ = json.Unmarshal(m, &init)
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

// responseID is the id of a response (raw JSON); ok is false for requests,
// notifications and what does not parse. The SDK writes "id" before the
// result, so a big result is normally not decoded at all.
func responseID(msg []byte) (id string, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(msg))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return "", false
	}
	response := false
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return "", false
		}
		switch key {
		case "method":
			return "", false
		case "result", "error":
			if id != "" {
				return id, true
			}
			response = true
		}
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			return "", false
		}
		if key == "id" {
			id = string(v)
		}
	}
	return id, response && id != ""
}

// lockedWriter is stdout shared by the SDK's replies and the guard's error
// replies: each Write is one whole line, so lines never interleave.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
	g  *stdioGuard
}

// Write sends one line of the SDK's and notes the replies it carries.
func (w *lockedWriter) Write(p []byte) (int, error) {
	n, err := w.writeRaw(p)
	if err == nil {
		w.g.answered(bytes.TrimSpace(p))
	}
	return n, err
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
