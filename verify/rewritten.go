package verify

import (
	"bytes"
	"slices"
	"strconv"
	"strings"

	"github.com/planls/planls/core"
)

// maxRewriteScan is how many of HEAD's newest commits are searched for a
// lost commit's copy: a rebase's range, never all of a large history.
const maxRewriteScan = 500

// rewriteFormat is git log's header line per commit: git patch-id reads the
// id after "commit ", logHeaders the author, author date (seconds and
// zone, --date=raw) and subject after it, NUL-separated.
const rewriteFormat = "commit %H%x00%an <%ae>%x00%ad%x00%s"

// findCopies sets RewrittenAs on each commit of lost (commits no local
// branch reaches) that HEAD has a copy of: among HEAD's newest
// maxRewriteScan commits that none of lost reaches (what a rebase or an
// amend made since the merge-base), the newest with the same patch id (git
// patch-id --stable), else the newest with the same author, author date
// and subject (a rebase that resolved a conflict changes the patch; an
// empty or merge commit has none). At most three git processes for all of
// lost; a commit stays as it was when git cannot answer.
func (r *repo) findCopies(lost []*Commit) {
	if len(lost) == 0 {
		return
	}
	ids := make([]string, len(lost))
	for i, c := range lost {
		ids[i] = c.ID
	}
	logArgs := []string{"log", "-p", "--no-color", "--no-ext-diff", "--date=raw", "--format=" + rewriteFormat}
	cands, err := r.git(nil, append(slices.Concat(logArgs, []string{"--max-count=" + strconv.Itoa(maxRewriteScan), "HEAD", "--not"}), ids...)...)
	if err != nil || len(cands) == 0 {
		return
	}
	old, err := r.git(nil, append(append(logArgs, "--no-walk"), ids...)...)
	if err != nil {
		return
	}
	raw, err := r.git(slices.Concat(cands, old), "patch-id", "--stable")
	if err != nil {
		return
	}
	patch := map[string]string{} // commit id → patch id
	for _, line := range strings.Split(string(raw), "\n") {
		if pid, id, ok := strings.Cut(line, " "); ok {
			patch[id] = pid
		}
	}
	oldMeta := map[string]string{}
	for _, h := range logHeaders(old) {
		oldMeta[h.id] = h.meta
	}
	heads := logHeaders(cands)
	for _, c := range lost {
		byMeta := ""
		meta, hasMeta := oldMeta[c.ID]
		for _, h := range heads {
			if p := patch[c.ID]; p != "" && patch[h.id] == p {
				c.RewrittenAs = h.id
				break
			}
			if byMeta == "" && hasMeta && h.meta == meta {
				byMeta = h.id
			}
		}
		if c.RewrittenAs == "" {
			c.RewrittenAs = byMeta
		}
	}
}

// logHeader is one commit's rewriteFormat line: its id and the rest.
type logHeader struct{ id, meta string }

// logHeaders are the rewriteFormat lines of git log -p output, in order.
// A diff line never starts with "commit ": each has a marker first.
func logHeaders(out []byte) []logHeader {
	var hs []logHeader
	for _, line := range bytes.Split(out, []byte("\n")) {
		rest, ok := bytes.CutPrefix(line, []byte("commit "))
		if !ok || bytes.Count(rest, []byte{0}) != 3 {
			continue
		}
		id, meta, _ := bytes.Cut(rest, []byte{0})
		hs = append(hs, logHeader{string(id), string(meta)})
	}
	return hs
}

// rewrittenEvidence is evidence with each commit id of checks whose
// commit was rewritten replaced by its copy's (Commit.RewrittenAs), as
// long as written and at least 12 hex digits; "" when none was.
func rewrittenEvidence(evidence string, checks []Check) string {
	var b strings.Builder
	at := 0
	for _, c := range checks {
		if c.Ref.Kind != core.RefCommit || c.Commit == nil || c.Commit.RewrittenAs == "" || c.State != Failed || c.Ref.Start < at {
			continue
		}
		id := c.Commit.RewrittenAs
		b.WriteString(evidence[at:c.Ref.Start])
		b.WriteString(id[:min(len(id), max(c.Ref.End-c.Ref.Start, 12))])
		at = c.Ref.End
	}
	if at == 0 {
		return ""
	}
	return b.String() + evidence[at:]
}

// shellQuote is s as one single-quoted POSIX shell word.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
