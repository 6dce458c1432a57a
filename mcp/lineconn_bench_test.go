package mcp

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkLineConnRead measures the transport's cost per inbound message
// (framing, checks, decoding) on typical tools/call lines, with one bad line
// in every hundred.
func BenchmarkLineConnRead(b *testing.B) {
	var in bytes.Buffer
	const n = 10000
	for i := 0; i < n; i++ {
		if i%100 == 99 {
			in.WriteString("not json\n")
			continue
		}
		fmt.Fprintln(&in, callMsg(i, `{"action":"update","id":3,"status":"completed","evidence":"go test ./... passes"}`))
	}
	data := in.Bytes()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		c, _ := lineTransport{in: io.NopCloser(bytes.NewReader(data)), out: io.Discard, log: log}.Connect(context.Background())
		for {
			if _, err := c.Read(context.Background()); err != nil {
				break
			}
		}
		c.Close()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/line")
}

// BenchmarkSDKIOTransportRead is the SDK's own stdio transport on the same
// lines without the bad ones (one would end it): the baseline for
// BenchmarkLineConnRead.
func BenchmarkSDKIOTransportRead(b *testing.B) {
	var in bytes.Buffer
	const n = 10000
	for i := 0; i < n; i++ {
		fmt.Fprintln(&in, callMsg(i, `{"action":"update","id":3,"status":"completed","evidence":"go test ./... passes"}`))
	}
	data := in.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		c, _ := (&sdk.IOTransport{Reader: io.NopCloser(bytes.NewReader(data)), Writer: nopCloser{io.Discard}}).Connect(context.Background())
		for {
			if _, err := c.Read(context.Background()); err != nil {
				break
			}
		}
		c.Close()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/line")
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// BenchmarkLineReaderHugeLine measures skipping a 50 MB line.
func BenchmarkLineReaderHugeLine(b *testing.B) {
	data := append(bytes.Repeat([]byte("x"), 50<<20), '\n')
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		lr := newLineReader(bytes.NewReader(data), maxMessageBytes)
		if _, err := lr.next(); err == nil {
			b.Fatal("a 50 MB line was accepted")
		}
	}
}
