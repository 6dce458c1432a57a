package lsp

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/planls/planls/core"
	"github.com/planls/planls/verify"
)

const codeWeak = core.RuleWeak

// lookupTimeout bounds the git lookups of a hover or a planls/plan request.
const lookupTimeout = 10 * time.Second

// evidenceRef is one reference of an item's evidence in planls/plan
// (docs/PROTOCOL.md "planls/plan request"): what it names, where it leads
// and how it checked.
type evidenceRef struct {
	Kind   string `json:"kind"` // commit, file, test, command, url
	Text   string `json:"text"` // as written in the evidence
	State  string `json:"state"`
	Detail string `json:"detail"`
	// URI opens what the reference names: the file (a file or test
	// reference that resolved), or the URL.
	URI  string `json:"uri,omitempty"`
	Line int    `json:"line,omitempty"` // 1-based line of a file reference, 0 when none
	// Commit is set for a commit that exists.
	Commit *verify.Commit `json:"commit,omitempty"`
}

// itemVerify is planls/plan's verification of a completed item.
type itemVerify struct {
	State  string `json:"state"` // verified, unverifiable, failed
	Reason string `json:"reason"`
	Weak   bool   `json:"weak"`
}

// addVerification verifies the completed items of res (offline: no
// command runs) against root and fills in their verify state and evidence
// references. It runs without the server lock: git is a subprocess.
func addVerification(ctx context.Context, root string, res *planResult) {
	var items []*planItem
	var tasks []core.Task
	for gi := range res.Groups {
		for ii := range res.Groups[gi].Items {
			it := &res.Groups[gi].Items[ii]
			it.EvidenceRefs = []evidenceRef{}
			if it.Status == string(core.Completed) && it.ID != 0 {
				items = append(items, it)
				tasks = append(tasks, core.Task{ID: it.ID, Subject: it.Subject, Status: core.Completed, Evidence: it.Evidence})
			}
		}
	}
	if len(tasks) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, lookupTimeout)
	defer cancel()
	// One result per task, in order (verify.Tasks).
	for i, r := range verify.Tasks(ctx, root, tasks, verify.Options{}) {
		items[i].Verify = &itemVerify{State: string(r.State), Reason: r.Reason, Weak: r.Weak}
		items[i].EvidenceRefs = refsOf(root, r.Checks)
	}
}

// refsOf renders checks as planls/plan evidence references.
func refsOf(root string, checks []verify.Check) []evidenceRef {
	out := []evidenceRef{}
	for _, c := range checks {
		ref := evidenceRef{Kind: string(c.Ref.Kind), Text: c.Ref.Text, State: string(c.State), Detail: c.Detail, Commit: c.Commit}
		switch {
		case c.File != "":
			if abs, _, ok := verify.Resolve(root, c.File); ok {
				ref.URI, ref.Line = uriOf(abs), c.Ref.Line
			}
		case c.Ref.Kind == core.RefURL:
			ref.URI = c.Ref.URL
		}
		out = append(out, ref)
	}
	return out
}

// evidenceHover is what hover adds under an item's evidence: one
// line per reference, a file as a link that opens it (at its line), a
// commit with its subject and date. It looks commits up in git and files
// on disk, so it runs without the server lock.
//
// For a plain-text client (mk.plain) the lines are the same without
// markdown: no code spans or escapes, a file as its path and line.
func evidenceHover(ctx context.Context, root, evidence string, mk markup) string {
	refs := core.ParseEvidence(evidence)
	if len(refs) == 0 {
		return ""
	}
	var ids []string
	for _, r := range refs {
		if r.Kind == core.RefCommit {
			ids = append(ids, r.Commit)
		}
	}
	var commits map[string]verify.Commit
	if len(ids) > 0 {
		ctx, cancel := context.WithTimeout(ctx, lookupTimeout)
		commits, _ = verify.Commits(ctx, root, ids)
		cancel()
	}
	var b strings.Builder
	for _, r := range refs {
		b.WriteString("\n- ")
		switch r.Kind {
		case core.RefCommit:
			c, ok := commits[r.Commit]
			if !ok {
				fmt.Fprintf(&b, "commit %s (not in this repository)", mk.code(r.Commit))
				break
			}
			where := "on HEAD"
			if !c.OnHEAD {
				where = "not on HEAD"
				if c.Branch != "" {
					where = "on branch " + c.Branch
				}
			}
			fmt.Fprintf(&b, "commit %s %s (%s, %s)", mk.code(c.ID[:min(12, len(c.ID))]), mk.esc(c.Subject), c.Date.Format("2006-01-02"), where)
		case core.RefFile, core.RefTest:
			label := r.Path
			if r.Kind == core.RefTest {
				label = r.Test
			}
			if r.Path == "" {
				fmt.Fprintf(&b, "test %s", mk.code(r.Test))
				break
			}
			abs, _, ok := verify.Resolve(root, r.Path)
			if !ok {
				fmt.Fprintf(&b, "%s %s (outside the workspace)", r.Kind, mk.code(label))
				break
			}
			if _, err := os.Stat(abs); err != nil {
				fmt.Fprintf(&b, "%s %s (not found)", r.Kind, mk.code(strings.Trim(r.Text, "`")))
				break
			}
			target := uriOf(abs)
			if r.Line > 0 {
				target += fmt.Sprintf("#L%d", r.Line)
			}
			text := strings.Trim(r.Text, "`")
			fmt.Fprintf(&b, "%s %s", r.Kind, mk.pick(text+" ("+abs+")", "["+mk.esc(text)+"]("+target+")"))
		case core.RefCommand:
			fmt.Fprintf(&b, "command %s", mk.code(r.Command))
			if r.Result != "" {
				b.WriteString(": " + mk.esc(r.Result))
			}
		case core.RefURL:
			b.WriteString(mk.pick(r.URL, "<"+r.URL+">"))
		}
	}
	return b.String()
}
