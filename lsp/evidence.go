package lsp

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/planls/planls/core"
	"github.com/planls/planls/verify"
)

// lookupTimeout bounds the git lookups of one background refresh.
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
	Reason string `json:"reason,omitempty"`
	Weak   bool   `json:"weak,omitempty"`
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

// evidenceHover is what hover adds under an item's evidence: one line per
// reference, a file as a link that opens it (at its line), a commit with
// its subject and date, from res, the verification of that evidence (nil
// while it is not there: the references as written).
//
// For a plain-text client (mk.plain) the lines are the same without
// markdown: no code spans or escapes, a file as its path and line.
func evidenceHover(root, evidence string, res *verify.Result, mk markup) string {
	refs := core.ParseEvidence(evidence)
	if res != nil && len(res.Checks) > 0 {
		// verify read the evidence already; its checks also hold a commit
		// written as a number (1234567) that the repository has.
		refs = refs[:0:0]
		for _, c := range res.Checks {
			refs = append(refs, c.Ref)
		}
	}
	var b strings.Builder
	for i, r := range refs {
		var c *verify.Check
		if res != nil && len(res.Checks) == len(refs) {
			c = &res.Checks[i]
		}
		b.WriteString("\n- ")
		switch r.Kind {
		case core.RefCommit:
			switch {
			case c == nil:
				fmt.Fprintf(&b, "commit %s", mk.code(r.Commit))
			case c.Commit == nil:
				fmt.Fprintf(&b, "commit %s (not in this repository)", mk.code(r.Commit))
			default:
				where := "on HEAD"
				if !c.Commit.OnHEAD {
					where = "not on HEAD"
					if c.Commit.Branch != "" {
						where = "on branch " + c.Commit.Branch
					}
				}
				id := c.Commit.ID[:min(12, len(c.Commit.ID))]
				fmt.Fprintf(&b, "commit %s %s (%s, %s)", mk.code(id), mk.esc(c.Commit.Subject), c.Commit.Date.Format("2006-01-02"), where)
			}
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
			if c != nil && c.File != "" {
				abs = filepath.Join(root, filepath.FromSlash(c.File))
			} else if c != nil && c.State == verify.Failed {
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
