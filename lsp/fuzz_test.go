package lsp

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"log/slog"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/planls/planls/core"
	"github.com/planls/planls/planparse"
)

// FuzzStreamRead: any byte stream is framed without panicking, and Read
// ends (with an error) when the input does.
func FuzzStreamRead(f *testing.F) {
	f.Add([]byte("Content-Length: 2\r\n\r\n{}"))
	f.Add([]byte("content-length: 40\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\"}xxx"))
	f.Add([]byte("Content-Length: -1\r\n\r\nContent-Length: 99999999999\r\n\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		st := &stream{in: bufio.NewReader(bytes.NewReader(data)), rwc: nopRWC{}, log: slog.New(slog.DiscardHandler)}
		for i := 0; i < 1000; i++ {
			if _, _, err := st.Read(context.Background()); err != nil {
				return
			}
		}
		t.Fatal("Read never ended on a finite input")
	})
}

type nopRWC struct{}

func (nopRWC) Read([]byte) (int, error)    { return 0, io.EOF }
func (nopRWC) Write(p []byte) (int, error) { return len(p), nil }
func (nopRWC) Close() error                { return nil }

// FuzzViews: any plan text, approved or drifted from an approved plan, gives
// diagnostics inside the document, symbols that nest, and a plan result,
// in both encodings, without panicking.
func FuzzViews(f *testing.F) {
	f.Add("# P\n\n## G\n- a\n- b\n")
	f.Add("## G\r\n- [x] 🚀 a\r- \n  - nested\n```\n- x\n")
	f.Add("- a\n## G ##\n\tb\n* c\n1) d\n")
	approvedSrc := []byte("# P\n\n## G\n- a\n- b\n")
	base := core.Approve(core.Empty(), planparse.Parse(approvedSrc), approvedSrc, "PLAN.md", core.Options{}).State
	f.Fuzz(func(t *testing.T, text string) {
		for _, enc := range []encoding{utf16, utf8Enc} {
			for _, st := range []*core.State{core.Empty(), base} {
				s := &server{settings: settings{PlanFiles: []string{"PLAN.md"}, Severity: "information", FadeClosed: true}, docs: map[string]*document{}, enc: enc}
				fo := newFolder("/w", "file:///w")
				fo.state, fo.planPath, fo.planDisk = st, "/w/PLAN.md", []byte(text)
				sn := s.build(fo)
				lines := uint32(len(sn.m.lines))
				for _, d := range sn.all() {
					if d.Range.Start.Line >= lines || d.Range.End.Line >= lines || !before(d.Range.Start, d.Range.End) {
						t.Fatalf("range %+v outside %d lines", d.Range, lines)
					}
				}
				checkSymbols(t, "fuzz", []protocol.DocumentSymbol{planSymbol(sn)})
				_ = planOf(sn)
				for off := 0; off <= len(text); off += 7 {
					if it := sn.itemAt(off); it != nil {
						_ = hoverText(sn, it, markup{plain: off%2 == 0})
					}
				}
			}
		}
	})
}
