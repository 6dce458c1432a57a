package mcp

import (
	"context"
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
//     create then list could list first).
type drainTransport struct{ inner sdk.Transport }

func (t drainTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	c, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &drainConn{Connection: c, owed: map[jsonrpc.ID]bool{}, answered: make(chan struct{}, 1)}, nil
}

// drainConn counts the requests read and not yet answered. Only the
// jsonrpc2 read loop calls Read, so one signal channel suffices.
type drainConn struct {
	sdk.Connection
	mu       sync.Mutex
	owed     map[jsonrpc.ID]bool // requests read, not yet answered
	toolCall *jsonrpc.ID         // the tools/call being served, if any
	answered chan struct{}       // signalled after each reply
}

// Read passes messages through; a read error (EOF, or a closed
// connection) is held back until nothing is owed, drainTimeout passes, or
// ctx ends.
func (c *drainConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if err == nil {
		req, ok := msg.(*jsonrpc.Request)
		if !ok || !req.IsCall() {
			return msg, nil
		}
		if req.Method == "tools/call" {
			// A later message may be the answer the running call waits
			// for (roots/list); that call then ends by its own timeout.
			if werr := c.waitFor(ctx, func() bool { return c.toolCall == nil }); werr != nil {
				return nil, werr
			}
		}
		c.mu.Lock()
		c.owed[req.ID] = true
		if req.Method == "tools/call" {
			id := req.ID
			c.toolCall = &id
		}
		c.mu.Unlock()
		return msg, nil
	}
	timeout, cancel := context.WithTimeout(ctx, drainTimeout)
	defer cancel()
	c.waitFor(timeout, func() bool { return len(c.owed) == 0 })
	return nil, err
}

// waitFor blocks until cond (checked under mu) holds or ctx ends.
func (c *drainConn) waitFor(ctx context.Context, cond func() bool) error {
	for {
		c.mu.Lock()
		ok := cond()
		c.mu.Unlock()
		if ok {
			return nil
		}
		select {
		case <-c.answered:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Write marks a reply's request as answered once it is written.
func (c *drainConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	err := c.Connection.Write(ctx, msg)
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.mu.Lock()
		delete(c.owed, resp.ID)
		if c.toolCall != nil && *c.toolCall == resp.ID {
			c.toolCall = nil
		}
		c.mu.Unlock()
		select {
		case c.answered <- struct{}{}:
		default:
		}
	}
	return err
}
