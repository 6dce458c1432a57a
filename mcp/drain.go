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

// drainTransport wraps a transport so the end of input is reported only
// after every request read before it has been answered. The SDK cancels
// in-flight requests as soon as its reader sees EOF, which loses the
// replies of a client that writes its calls and closes stdin at once.
type drainTransport struct{ inner sdk.Transport }

func (t drainTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	c, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &drainConn{Connection: c, owed: map[jsonrpc.ID]bool{}, answered: make(chan struct{}, 1)}, nil
}

// drainConn counts the calls read and not yet answered.
type drainConn struct {
	sdk.Connection
	mu       sync.Mutex
	owed     map[jsonrpc.ID]bool
	answered chan struct{} // signalled after each reply
}

// Read passes messages through; a read error (EOF, or a closed
// connection) is held back until nothing is owed, drainTimeout passes, or
// ctx ends.
func (c *drainConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if err == nil {
		if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
			c.mu.Lock()
			c.owed[req.ID] = true
			c.mu.Unlock()
		}
		return msg, nil
	}
	deadline := time.NewTimer(drainTimeout)
	defer deadline.Stop()
	for {
		c.mu.Lock()
		n := len(c.owed)
		c.mu.Unlock()
		if n == 0 {
			return nil, err
		}
		select {
		case <-c.answered:
		case <-deadline.C:
			return nil, err
		case <-ctx.Done():
			return nil, err
		}
	}
}

// Write marks a reply's request as answered once it is written.
func (c *drainConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	err := c.Connection.Write(ctx, msg)
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.mu.Lock()
		delete(c.owed, resp.ID)
		c.mu.Unlock()
		select {
		case c.answered <- struct{}{}:
		default:
		}
	}
	return err
}
