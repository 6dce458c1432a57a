package lsp

import (
	"fmt"
	"hash/maphash"
	"slices"

	"go.lsp.dev/protocol"

	"github.com/planls/planls/core"
)

// publish queues the diagnostics of each URI whose meaning differs from
// what it last got, capped to maxPublished, and clears, with an empty list,
// URIs this folder no longer reports on. A publish is encoded once:
// the hash of its JSON without the document version (every field a client
// sees) is what dedupes, and the same bytes are sent. Caller holds mu; the
// outbox writes them, the latest list of a URI replacing one still queued.
func (s *server) publish(f *folder, diags map[string][]protocol.Diagnostic) {
	sent := make(map[string]uint64, len(diags))
	for uri, list := range diags {
		if s.caps.pullDiags && s.docOpen(uri) {
			// The client asks for an open document's diagnostics itself
			// (pulldiag.go): pushing them too would show them twice.
			list = []protocol.Diagnostic{}
		}
		msg, meaning, err := s.publishMessage(uri, list)
		if err != nil {
			s.log.Error("diagnostics not encodable", "uri", uri, "err", err)
			continue
		}
		sent[uri] = meaning
		if prev, seen := f.published[uri]; !seen || prev != sent[uri] {
			s.out.put("publish "+uri, func() { s.write(msg); s.reuse(msg) })
		} else {
			s.reuse(msg)
		}
	}
	for uri := range f.published {
		if _, ok := sent[uri]; !ok {
			if msg, _, err := s.publishMessage(uri, []protocol.Diagnostic{}); err == nil {
				s.out.put("publish "+uri, func() { s.write(msg); s.reuse(msg) })
			}
		}
	}
	f.published = sent
}

// reuse keeps buf for the next publish unless one is kept already.
func (s *server) reuse(buf []byte) {
	select {
	case s.spare <- buf:
	default:
	}
}

// publishMessage encodes the textDocument/publishDiagnostics notification
// of list, with the open buffer's version when there is one, and returns
// it with the hash of its meaning: the same bytes without the version
// (caller holds mu). Encoding the list once for the hash and again to send
// was 0.4 ms of a keystroke at 1,000 items (BenchmarkInProcessKeystroke).
func (s *server) publishMessage(uri string, list []protocol.Diagnostic) (msg []byte, meaning uint64, err error) {
	var version uint32
	for _, d := range s.docs {
		if d.uri == uri && d.version > 0 {
			version = uint32(d.version)
		}
	}
	// Sized for the list: grown, the buffer of a 1,000-item plan's publish
	// (185 KB) was copied once and left as much again to collect.
	n := 256 + len(uri)
	for i := range list {
		n += 224 + len(list[i].Message)
	}
	var buf []byte
	select {
	case buf = <-s.spare:
	default:
	}
	msg, body, err := appendPublish(slices.Grow(buf[:0], n), uri, version, list)
	var h maphash.Hash
	h.SetSeed(hashSeed)
	h.WriteString(uri)
	h.Write(msg[body:])
	return msg, h.Sum64(), err
}

// maxPublished is the most diagnostics one publish carries. Past it (a
// plan of about a thousand open items) a list says little an editor can
// show, and its encoding is the cost of every keystroke; the plan sidebar,
// planls/plan and `planls status` still list every item.
const maxPublished = 1000

// codeCapped is the code of the summary diagnostic of a capped list.
const codeCapped = "diagnostics-capped"

// capped returns list when it fits maxPublished. Otherwise it keeps, in
// document order, every error and warning first and then the first other
// diagnostics, maxPublished-1 in all, followed by one Information
// diagnostic on the plan's title line that says how many were left out,
// made in list's array.
func capped(sn *snapshot, list []protocol.Diagnostic) []protocol.Diagnostic {
	if len(list) <= maxPublished {
		return list
	}
	keep := make([]bool, len(list))
	room := maxPublished - 1
	for pass := 0; pass < 2; pass++ {
		for i, d := range list {
			serious := d.Severity == protocol.DiagnosticSeverityError || d.Severity == protocol.DiagnosticSeverityWarning
			if room > 0 && !keep[i] && (pass == 1 || serious) {
				keep[i] = true
				room--
			}
		}
	}
	out, open := list[:0], 0
	for i, d := range list { // d is read before out reaches i
		switch d.Code {
		case core.RuleOpen, core.RuleInProgress, core.RuleBlocked:
			open++
		}
		if keep[i] {
			out = append(out, d)
		}
	}
	return append(out, protocol.Diagnostic{
		Range: sn.titleRange(), Severity: protocol.DiagnosticSeverityInformation, Code: codeCapped,
		Source: "planls", Data: &diagData{Code: codeCapped},
		Message: fmt.Sprintf("showing %d of %d planls diagnostics (%s): the plan sidebar and `planls status` list every item",
			len(out), len(list), core.CountNoun(open, "open item")),
	})
}

// hashSeed keys the fingerprints of what a client was sent (publish,
// refreshSums) for the life of the process.
var hashSeed = maphash.MakeSeed()
