package lsp

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the golden sections of testdata/roundtrip/*.txtar")

// TestRoundTrip runs each testdata/roundtrip/*.txtar through a real session.
// Sections:
//
//	PLAN.md      the plan on disk
//	ops          optional: approve the plan, then run each line as a todo call
//	edit         optional: the buffer the editor opens (default: PLAN.md)
//	caps         optional: client capabilities (JSON)
//	diagnostics  golden: one line per diagnostic of the plan
//	actions      golden: the code actions offered on each diagnostic's line
//	symbols      golden: the document symbol tree
//
// Every case runs again with LF turned into CRLF, expecting the same output
// (positions do not depend on the line ending). -update rewrites goldens.
func TestRoundTrip(t *testing.T) {
	files, _ := filepath.Glob("testdata/roundtrip/*.txtar")
	if len(files) == 0 {
		t.Fatal("no fixtures")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			sec := map[string]string{}
			for _, f := range ar.Files {
				sec[f.Name] = string(f.Data)
			}
			got := roundTrip(t, sec, false)
			if *update {
				for i, f := range ar.Files {
					if g, ok := got[f.Name]; ok {
						ar.Files[i].Data = []byte(g)
					}
				}
				for _, name := range []string{"diagnostics", "actions", "symbols"} {
					if _, ok := sec[name]; !ok {
						ar.Files = append(ar.Files, txtar.File{Name: name, Data: []byte(got[name])})
					}
				}
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			for _, name := range []string{"diagnostics", "actions", "symbols"} {
				if got[name] != sec[name] {
					t.Errorf("%s:\n--- got\n%s--- want\n%s", name, got[name], sec[name])
				}
			}
			if strings.Contains(sec["PLAN.md"], "\r") {
				return
			}
			crlf := roundTrip(t, sec, true)
			for _, name := range []string{"diagnostics", "actions", "symbols"} {
				if crlf[name] != got[name] {
					t.Errorf("CRLF %s differs:\n%s", name, crlf[name])
				}
			}
		})
	}
}

func roundTrip(t *testing.T, sec map[string]string, crlf bool) map[string]string {
	conv := func(s string) string {
		if crlf {
			return strings.ReplaceAll(s, "\n", "\r\n")
		}
		return s
	}
	root, plan := workspace(t, conv(sec["PLAN.md"]))
	if ops, ok := sec["ops"]; ok {
		cliApprove(t, root)
		for _, line := range strings.Split(ops, "\n") {
			if strings.TrimSpace(line) != "" {
				cli(t, root, line)
			}
		}
	}
	var caps map[string]any
	if c := sec["caps"]; c != "" {
		if err := json.Unmarshal([]byte(c), &caps); err != nil {
			t.Fatal(err)
		}
	}
	e := newEnv(t, envConfig{folders: []string{root}, caps: caps})
	text := sec["PLAN.md"]
	if ed, ok := sec["edit"]; ok {
		text = ed
	}
	u := e.open(plan, conv(text))
	e.settle(u)
	ds, _ := e.lastDiags(u)
	out := map[string]string{}
	var b bytes.Buffer
	lines := map[uint32]bool{}
	for _, d := range ds {
		data, _ := json.Marshal(d.Data)
		fmt.Fprintf(&b, "%s %v %v %s %s\n", rng(d.Range), d.Severity, d.Code, data, d.Message)
		for _, ri := range d.RelatedInformation {
			fmt.Fprintf(&b, "  related %s %s\n", rng(ri.Location.Range), ri.Message)
		}
		lines[d.Range.Start.Line] = true
	}
	out["diagnostics"] = b.String()
	b.Reset()
	var sorted []int
	for l := range lines {
		sorted = append(sorted, int(l))
	}
	sort.Ints(sorted)
	for _, l := range sorted {
		var ctx []protocol.Diagnostic
		for _, d := range ds {
			if int(d.Range.Start.Line) == l {
				ctx = append(ctx, d)
			}
		}
		fmt.Fprintf(&b, "%d: %s\n", l, titles(e.actions(u, l, ctx)))
	}
	out["actions"] = b.String()
	b.Reset()
	var syms []protocol.DocumentSymbol
	e.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": u}}, &syms)
	checkSymbols(t, "fixture", syms)
	var dump func(depth int, s []protocol.DocumentSymbol)
	dump = func(depth int, s []protocol.DocumentSymbol) {
		for _, sym := range s {
			fmt.Fprintf(&b, "%s%s [%s] sel [%s] %s\n", strings.Repeat("  ", depth), sym.Name, rng(sym.Range), rng(sym.SelectionRange), sym.Detail)
			dump(depth+1, sym.Children)
		}
	}
	dump(0, syms)
	out["symbols"] = b.String()
	return out
}

func rng(r protocol.Range) string {
	return fmt.Sprintf("%d:%d-%d:%d", r.Start.Line, r.Start.Character, r.End.Line, r.End.Character)
}
