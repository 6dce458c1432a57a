package core

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// keyText is s as reconciliation compares it: Unicode NFC, with emoji
// variation selectors (U+FE0E, U+FE0F) and zero-width no-break spaces
// (U+FEFF, a BOM) removed, and no spaces or tabs at the end of a line. Two
// texts a reader cannot tell apart compare equal, so re-saving PLAN.md in
// NFD, with a BOM or with trailing white space never makes an item look
// changed. The stored subject and planText stay verbatim.
func keyText(s string) string { return normalizeRunes(trimLineEnds(s)) }

// normalizeRunes is s in NFC without the three invisible code points.
func normalizeRunes(s string) string {
	if isASCII(s) {
		return s
	}
	// All three encode as 0xEF and two more bytes: that byte is a fast
	// first test (ContainsAny alone made BenchmarkMatchPlanEdited 1.15×
	// slower at 200–1,000 items).
	if strings.IndexByte(s, 0xEF) >= 0 && strings.ContainsAny(s, "\uFE0E\uFE0F\uFEFF") {
		s = strings.Map(func(r rune) rune {
			if r == '\uFE0E' || r == '\uFE0F' || r == '\uFEFF' {
				return -1
			}
			return r
		}, s)
	}
	if norm.NFC.IsNormalString(s) {
		return s
	}
	return norm.NFC.String(s)
}

// trimLineEnds is s without spaces and tabs at the end of each line; s
// itself (no copy) when it has none, the common case.
func trimLineEnds(s string) string {
	if !strings.Contains(s, " \n") && !strings.Contains(s, "\t\n") && !strings.HasSuffix(s, " ") && !strings.HasSuffix(s, "\t") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	first := true
	for line := range strings.SplitSeq(s, "\n") {
		if !first {
			b.WriteByte('\n')
		}
		first = false
		b.WriteString(strings.TrimRight(line, " \t"))
	}
	return b.String()
}

// foldText is s as list filters compare it: keyText (NFC, no emoji
// variation selectors, no BOM) with Unicode full case folding, so that a
// search typed in NFC finds a plan saved in NFD (macOS), "✔" finds "✔️" and
// "STRASSE" finds "Straße". ASCII text is only lower-cased (the same
// result, without the folder's allocations).
func foldText(s string) string {
	if isASCII(s) {
		return strings.ToLower(s)
	}
	s = cases.Fold().String(keyText(s))
	// Folding can leave a text that is no longer NFC (a folded letter
	// before a combining mark): compose again.
	if norm.NFC.IsNormalString(s) {
		return s
	}
	return norm.NFC.String(s)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// textID hashes src as a reader sees it: keyText of the text with LF line
// ends, no BOM, no blank lines at the end, no white space ending a line
// and every task box read as open (untickedText). Two files that differ
// only in what a reader cannot see, or in which boxes are ticked, have the
// same textID.
func textID(src []byte) string { return textIDOf(src, true, true) }

// textIDOf is textID, keeping the white space that ends lines unless
// trimEnds and the boxes' marks unless untick: how textIds were made
// before planls dropped them, so a plan approved then is not taken as
// changed now.
func textIDOf(src []byte, trimEnds, untick bool) string {
	s := bytes.TrimPrefix(src, utf8BOM)
	if untick {
		s = untickedText(s)
	}
	if bytes.IndexByte(s, '\r') >= 0 {
		s = bytes.ReplaceAll(s, []byte("\r\n"), []byte("\n"))
		s = bytes.ReplaceAll(s, []byte("\r"), []byte("\n"))
	}
	s = bytes.TrimRight(s, " \t\n") // blank lines at the end show nothing
	if trimEnds && (bytes.Contains(s, []byte(" \n")) || bytes.Contains(s, []byte("\t\n"))) {
		s = []byte(trimLineEnds(string(s))) // nor do spaces at the end of a line
	}
	if bytes.Contains(s, []byte("\uFE0E")) || bytes.Contains(s, []byte("\uFE0F")) || bytes.Contains(s, []byte("\uFEFF")) || !norm.NFC.IsNormal(s) {
		s = []byte(normalizeRunes(string(s)))
	}
	sum := sha256.Sum256(s)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// TextChanged reports whether src, the plan file now, says something else
// than the approved plan ref (every edit to approved text is
// drift), ignoring what a reader cannot see (Unicode normalization, emoji
// variation selectors, a BOM, line endings) and the marks of task boxes
// (ticking a box is progress, not a new plan). A nil ref has nothing to
// change. States approved before textId existed compare by content hash.
func TextChanged(src []byte, ref *PlanRef) bool {
	switch {
	case ref == nil:
		return false
	case PlanMatches(src, ref.ID):
		return false
	case ref.TextID == "":
		return true
	}
	return textID(src) != ref.TextID && textIDOf(src, true, false) != ref.TextID && textIDOf(src, false, false) != ref.TextID
}
