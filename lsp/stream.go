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
)

// maxMessage bounds one message body (bytes) so a hostile Content-Length cannot
// exhaust memory.
const maxMessage = 256 << 20

// stream is the LSP base protocol framing (Content-Length headers). Unlike
// jsonrpc2.NewStream it matches header names case-insensitively (RFC 7230) and
// survives a body that is not JSON-RPC: it answers with a ParseError whose id
// is null (JSON-RPC 2.0 §5) and reads on, where the library's stream would end
// the connection.
type stream struct {
	rwc io.ReadWriteCloser
	in  *bufio.Reader
	log *slog.Logger
	mu  sync.Mutex // serialises writes: Read may answer a parse error itself
}

func newStream(rwc io.ReadWriteCloser, log *slog.Logger) *stream {
	return &stream{rwc: rwc, in: bufio.NewReaderSize(rwc, 64<<10), log: log}
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
		msg, err := jsonrpc2.DecodeMessage(body)
		if err != nil {
			s.log.Warn("dropping undecodable message", "err", err, "bytes", len(body))
			s.writeRaw(fmt.Appendf(nil, `{"jsonrpc":"2.0","id":null,"error":{"code":%d,"message":%q}}`,
				jsonrpc2.ParseError, "parse error: "+err.Error()))
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
// message's own MarshalJSON).
func (s *stream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	data, err := json.Marshal(msg)
	if err != nil {
		return 0, fmt.Errorf("marshaling message: %w", err)
	}
	return s.writeRaw(data)
}

// writeRaw frames one encoded message body as one write.
func (s *stream) writeRaw(data []byte) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	frame := fmt.Appendf(make([]byte, 0, len(data)+32), "Content-Length: %d\r\n\r\n", len(data))
	n, err := s.rwc.Write(append(frame, data...))
	return int64(n), err
}

// Close closes the underlying connection, unblocking Read.
func (s *stream) Close() error { return s.rwc.Close() }
