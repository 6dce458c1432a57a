package mcp

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// lineTransport is the stdio transport of `planls mcp`: newline-delimited
// JSON-RPC like the SDK's IOTransport, but malformed input does not end the
// session. The SDK's transport returns a read error for a line that is not
// JSON, not a JSON-RPC message, too long or an empty batch, and the SDK then
// ends the session without a reply; this one answers such lines itself with
// the JSON-RPC 2.0 error (-32700 Parse error, -32600 Invalid Request), logs
// a warning, and reads on. Batches are accepted on every protocol version;
// their replies go back as one array.
type lineTransport struct {
	in  io.ReadCloser
	out io.Writer
	log *slog.Logger
	max int // longest line in bytes; 0 = maxMessageBytes
}

// Connect starts reading in.
func (t lineTransport) Connect(context.Context) (sdk.Connection, error) {
	limit := t.max
	if limit <= 0 {
		limit = maxMessageBytes
	}
	c := &lineConn{
		in:       t.in,
		lines:    newLineReader(t.in, limit),
		out:      t.out,
		log:      t.log,
		incoming: make(chan readResult),
		done:     make(chan struct{}),
		owed:     map[jsonrpc.ID]*replyBatch{},
	}
	go c.pump()
	return c, nil
}

// lineConn is a connection over a line stream. A pump goroutine reads and
// checks lines, answers the bad ones and hands good messages to Read.
// Every write (the server's messages and the pump's error replies) goes
// through one mutex as one Write of a whole line, so bytes never interleave.
type lineConn struct {
	in    io.ReadCloser
	lines *lineReader
	log   *slog.Logger

	wmu sync.Mutex
	out io.Writer

	incoming  chan readResult
	done      chan struct{} // closed by Close
	closeOnce sync.Once

	mu   sync.Mutex
	owed map[jsonrpc.ID]*replyBatch // calls read, not answered; nil value = not in a batch
}

// replyBatch collects the replies of one batch, in the batch's order.
type replyBatch struct {
	slots   [][]byte           // encoded replies; nil while a call is pending
	index   map[jsonrpc.ID]int // pending call id → slot
	pending int
}

// array is the batch's reply line (without its newline).
func (b *replyBatch) array() []byte {
	return append(append([]byte{'['}, bytes.Join(b.slots, []byte{','})...), ']')
}

func (c *lineConn) pump() {
	for {
		line, err := c.lines.next()
		var tl *tooLongError
		switch {
		case errors.As(err, &tl):
			c.log.Warn("mcp: skipped an over-long input line", "bytes", tl.size, "max", c.lines.max)
			err = c.writeLine((&errReply{id: nullID, code: -32600, message: msgTooLong(c.lines.max)}).encode())
			if err == nil {
				continue
			}
		case err == nil && len(bytes.TrimSpace(line)) == 0:
			continue
		case err == nil:
			var msgs []jsonrpc.Message
			msgs, err = c.accept(line)
			if err == nil && !c.deliver(msgs) {
				return
			}
			if err == nil {
				continue
			}
		}
		c.fail(err)
		return
	}
}

// accept checks one line, records the calls it owes replies to, writes the
// replies the server cannot give (the bad parts) and returns the messages
// for the server. The error is a failed write.
func (c *lineConn) accept(line []byte) ([]jsonrpc.Message, error) {
	p := parseLine(line)
	var msgs []jsonrpc.Message
	var now [][]byte // replies to write before the server sees msgs
	c.mu.Lock()
	var b *replyBatch
	if p.batch {
		b = &replyBatch{index: map[jsonrpc.ID]int{}}
	}
	seen := map[jsonrpc.ID]bool{}
	for _, e := range p.elems {
		if req, ok := e.msg.(*jsonrpc.Request); ok && req.IsCall() {
			if _, busy := c.owed[req.ID]; busy || seen[req.ID] {
				// The SDK would answer with no id at all; a reply that
				// carried this id would be taken for the first call's.
				e = errElement(nil, -32600, sprintID(msgIDInUse, req.ID))
			} else {
				seen[req.ID] = true
			}
		}
		if e.err != nil {
			if e.id.IsValid() {
				if _, busy := c.owed[e.id]; busy || seen[e.id] {
					e.err.id = nullID
				}
			}
			c.log.Warn("mcp: answered a malformed message", "code", e.err.code, "error", e.err.message, "line", preview(line))
			if b != nil {
				b.slots = append(b.slots, e.err.encode())
			} else {
				now = append(now, e.err.encode())
			}
			continue
		}
		msgs = append(msgs, e.msg)
		if req, ok := e.msg.(*jsonrpc.Request); ok && req.IsCall() {
			c.owed[req.ID] = b
			if b != nil {
				b.index[req.ID] = len(b.slots)
				b.slots = append(b.slots, nil)
				b.pending++
			}
		}
	}
	if b != nil && b.pending == 0 && len(b.slots) > 0 {
		now = append(now, b.array())
	}
	c.mu.Unlock()
	for _, r := range now {
		if err := c.writeLine(r); err != nil {
			return nil, err
		}
	}
	return msgs, nil
}

// deliver hands messages to Read; false once closed.
func (c *lineConn) deliver(msgs []jsonrpc.Message) bool {
	for _, m := range msgs {
		select {
		case c.incoming <- readResult{msg: m}:
		case <-c.done:
			return false
		}
	}
	return true
}

// fail hands Read the error that ends the input (io.EOF at its end).
func (c *lineConn) fail(err error) {
	select {
	case c.incoming <- readResult{err: err}:
	case <-c.done:
	}
}

// Read returns the next good message; io.EOF once the input has ended.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case r := <-c.incoming:
		return r.msg, r.err
	case <-c.done:
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Write sends one message as one line. A reply to a call of a batch is held
// until the batch is complete, then the batch's replies go as one array.
func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.mu.Lock()
		b, owed := c.owed[resp.ID]
		delete(c.owed, resp.ID)
		if owed && b != nil {
			b.slots[b.index[resp.ID]] = data
			b.pending--
			if b.pending > 0 {
				c.mu.Unlock()
				return nil
			}
			data = b.array()
		}
		c.mu.Unlock()
	}
	return c.writeLine(data)
}

// writeLine writes data and a newline in one Write.
func (c *lineConn) writeLine(data []byte) error {
	line := make([]byte, 0, len(data)+1)
	line = append(append(line, data...), '\n')
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err := c.out.Write(line)
	return err
}

// Close stops the pump and closes the input.
func (c *lineConn) Close() error {
	var err error
	c.closeOnce.Do(func() {
		close(c.done)
		err = c.in.Close()
	})
	return err
}

// SessionID is empty: stdio has one session.
func (c *lineConn) SessionID() string { return "" }

// preview is the start of a bad line for the log (the log quotes it).
func preview(line []byte) string {
	const n = 120
	if len(line) > n {
		return string(line[:n]) + "…"
	}
	return string(line)
}
