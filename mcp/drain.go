package mcp

import (
	"context"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// drainTimeout bounds how long a closed stdin waits for the replies still
// owed, so a stuck call cannot keep an orphaned server alive (B34).
const drainTimeout = 10 * time.Second

// drainTransport wraps a transport for two guarantees the SDK does not give:
//
//   - the end of input is reported only after every request read before it
//     has been answered (the SDK cancels in-flight requests as soon as its
//     reader sees EOF, which loses the replies of a client that writes its
//     calls and closes stdin at once);
//   - tools/call requests are handed to the server one at a time, in the
//     order they arrived (the SDK runs calls concurrently, so a pipelined
//     create then list could list first). Other messages, such as the
//     client's answer to roots/list that a running call waits for, pass
//     the queued calls.
type drainTransport struct{ inner sdk.Transport }

func (t drainTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	c, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &drainConn{
		Connection: c,
		in:         make(chan readResult),
		done:       make(chan struct{}),
		owed:       map[jsonrpc.ID]bool{},
		answered:   make(chan struct{}, 1),
	}, nil
}

type readResult struct {
	msg jsonrpc.Message
	err error
}

// drainConn sits between the SDK and the line transport. A pump goroutine
// reads the transport; Read hands messages on, holding tools/call requests
// back while one is being served and the input's end while replies are owed.
// Only the jsonrpc2 read loop calls Read.
type drainConn struct {
	sdk.Connection
	pumpOnce  sync.Once
	in        chan readResult
	done      chan struct{} // closed by Close: stops the pump
	closeOnce sync.Once

	mu       sync.Mutex
	owed     map[jsonrpc.ID]bool // requests read, not yet answered
	toolCall bool                // a tools/call is being served
	callID   jsonrpc.ID          // ... with this id
	queue    []*jsonrpc.Request  // tools/call requests waiting their turn
	answered chan struct{}       // signalled after each reply

	readErr  error // the transport's read error, once seen
	deadline <-chan time.Time
}

func (c *drainConn) pump() {
	for {
		msg, err := c.Connection.Read(context.Background())
		select {
		case c.in <- readResult{msg, err}:
		case <-c.done:
			return
		}
		if err != nil {
			return
		}
	}
}

// Read returns the next message for the server. See drainConn.
func (c *drainConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	c.pumpOnce.Do(func() { go c.pump() })
	for {
		c.mu.Lock()
		if !c.toolCall && len(c.queue) > 0 {
			req := c.queue[0]
			c.queue = c.queue[1:]
			c.toolCall, c.callID = true, req.ID
			c.mu.Unlock()
			return req, nil
		}
		idle := len(c.owed) == 0 && len(c.queue) == 0
		c.mu.Unlock()

		if c.readErr != nil {
			if idle {
				return nil, c.readErr
			}
			select {
			case <-c.answered:
			case <-c.done:
				return nil, c.readErr
			case <-c.deadline:
				return nil, c.readErr
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			continue
		}

		select {
		case r := <-c.in:
			if r.err != nil {
				c.readErr = r.err
				c.deadline = time.After(drainTimeout)
				continue
			}
			req, ok := r.msg.(*jsonrpc.Request)
			if !ok || !req.IsCall() {
				return r.msg, nil
			}
			c.mu.Lock()
			c.owed[req.ID] = true
			if req.Method == "tools/call" {
				c.queue = append(c.queue, req)
				c.mu.Unlock()
				continue
			}
			c.mu.Unlock()
			return req, nil
		case <-c.answered:
		case <-c.done:
			return nil, io.EOF // closed by the server: nothing more is read
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// Write marks a reply's request as answered once it is written.
func (c *drainConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	err := c.Connection.Write(ctx, msg)
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.mu.Lock()
		delete(c.owed, resp.ID)
		if c.toolCall && c.callID == resp.ID {
			c.toolCall = false
		}
		c.mu.Unlock()
		select {
		case c.answered <- struct{}{}:
		default:
		}
	}
	return err
}

// Close stops the pump and closes the transport.
func (c *drainConn) Close() error {
	c.closeOnce.Do(func() { close(c.done) })
	return c.Connection.Close()
}
