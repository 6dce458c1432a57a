package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"sync"

	"go.lsp.dev/jsonrpc2"

	"github.com/planls/planls/internal/rpcid"
)

// maxMessage bounds one message body (bytes) so a hostile Content-Length cannot
// exhaust memory.
const maxMessage = 256 << 20

// stream is the LSP base protocol framing (Content-Length headers). Unlike
// jsonrpc2.NewStream it matches header names case-insensitively (RFC 7230),
// survives a body that is not JSON-RPC (it answers -32700 or -32600 itself,
// JSON-RPC 2.0 §5.1, and reads on, where the library's stream would end the
// connection) and keeps request ids exactly as sent (wireid.go).
type stream struct {
	rwc io.ReadWriteCloser
	in  *bufio.Reader
	log *slog.Logger
	ids *wireIDs
	mu  sync.Mutex // serialises writes: Read may answer a bad message itself
}

func newStream(rwc io.ReadWriteCloser, log *slog.Logger) *stream {
	return &stream{rwc: rwc, in: bufio.NewReaderSize(rwc, 64<<10), log: log, ids: &wireIDs{}}
}

// Read returns the next decodable message; I/O errors (EOF) end the stream.
func (s *stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	var total int64
	for {
		body, n, err := s.readFrame()
		total += n
		if err != nil {
			return nil, total, err
		}
		if body == nil {
			continue
		}
		msg, reply := decodeMessage(body, s.ids)
		if reply != nil {
			s.log.Warn("answered a bad message", "reply", string(reply), "bytes", len(body))
			s.writeRaw(reply)
			continue
		}
		if msg == nil {
			s.log.Debug("dropping a response to no request of ours", "message", rpcid.Preview(body))
			continue
		}
		return msg, total, nil
	}
}

// readFrame reads one header block and its body. A block without a usable
// Content-Length yields a nil body (skipped, not fatal).
func (s *stream) readFrame() ([]byte, int64, error) {
	var total, length int64 = 0, -1
	for {
		line, err := s.in.ReadString('\n')
		total += int64(len(line))
		if err != nil {
			return nil, total, err
		}
		line = strings.TrimSpace(line)
		if line == "" {
			if length < 0 && total <= 2 {
				continue // stray blank line between messages
			}
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok || !strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			continue
		}
		v, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
		if err != nil || v < 0 || v > maxMessage {
			s.log.Warn("bad Content-Length", "value", value)
			length = -1
			continue
		}
		length = v
	}
	if length < 0 {
		s.log.Warn("message without Content-Length skipped")
		return nil, total, nil
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(s.in, body); err != nil {
		return nil, total, err
	}
	return body, total + length, nil
}

// Write frames one message, encoded by encoding/json (through the jsonrpc2
// message's own MarshalJSON); a reply goes out with the id its request came
// with.
func (s *stream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	data, err := s.encode(msg)
	if err != nil {
		return 0, fmt.Errorf("marshaling message: %w", err)
	}
	return s.writeRaw(data)
}

func (s *stream) encode(msg jsonrpc2.Message) ([]byte, error) {
	if resp, ok := msg.(*jsonrpc2.Response); ok {
		if id, ok := s.ids.Take(resp.ID()); ok {
			return encodeResponse(id, resp)
		}
	}
	return json.Marshal(msg)
}

// replyRaw writes the reply to call id whose result is already encoded.
func (s *stream) replyRaw(id jsonrpc2.ID, result json.RawMessage) {
	wire, ok := s.ids.Take(id)
	if !ok {
		wire = json.RawMessage("null") // every call's id is admitted as it is read
	}
	if _, err := s.writeRaw([]byte(`{"jsonrpc":"2.0","id":`), wire, []byte(`,"result":`), result, []byte("}")); err != nil {
		s.log.Debug("write failed", "err", err)
	}
}

// writeRaw frames one encoded message body, the concatenation of parts.
// A part of 64 KiB or more (a publish or planls/plan answer of hundreds of
// items) is written as it is, not copied behind the header: a 1,000-item
// planls/plan answer is 0.5 MB, and copying it twice per request was 1 MB
// of garbage each time.
func (s *stream) writeRaw(parts ...[]byte) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	const big = 64 << 10
	size, small := 0, 0
	for _, p := range parts {
		size += len(p)
		if len(p) < big {
			small += len(p)
		}
	}
	buf := fmt.Appendf(make([]byte, 0, small+32), "Content-Length: %d\r\n\r\n", size)
	var total int64
	write := func(b []byte) error {
		n, err := s.rwc.Write(b)
		total += int64(n)
		return err
	}
	for _, p := range parts {
		if len(p) < big {
			buf = append(buf, p...)
			continue
		}
		if err := write(buf); err != nil {
			return total, err
		}
		buf = buf[:0]
		if err := write(p); err != nil {
			return total, err
		}
	}
	if len(buf) == 0 {
		return total, nil
	}
	return total, write(buf)
}

// Close closes the underlying connection, unblocking Read.
func (s *stream) Close() error { return s.rwc.Close() }
