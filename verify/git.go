package verify

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/planls/planls/core"
)

// Commit is a commit evidence names, as the repository has it.
// Its JSON is the commit object of planls verify --format json and of the
// planls/plan request (docs/PROTOCOL.md).
type Commit struct {
	ID      string    `json:"id"`      // full object id
	Subject string    `json:"subject"` // first line of the message
	Date    time.Time `json:"date"`    // committer date (RFC 3339 in JSON)
	// OnHEAD: reachable from HEAD. Else Branch is a local branch that
	// reaches it ("" when none does: dropped by a rebase or a reset).
	OnHEAD bool   `json:"onHead"`
	Branch string `json:"branch,omitempty"`
	// RewrittenAs, for a commit no branch reaches, is the full id of its
	// copy on HEAD (a rebase or an amend rewrote it: findCopies), else "".
	RewrittenAs string `json:"rewrittenAs,omitempty"`

	tree    string   // the tree's object id
	parents []string // the parents' object ids, first parent first
}

// lookupResult is what one commit prefix resolved to.
type lookupResult struct {
	commit *Commit
	err    string // missing, ambiguous, not a commit, or why git could not answer
	// planOnly: the commit changes nothing but the plan and its state
	// (NotWork), so it is no item's work.
	planOnly bool
	// setup: planOnly because its only other change is the .gitattributes
	// lines for StateDir (stateSetup).
	setup bool
	// empty: the commit changes no file (markEmpty), so it is no item's
	// work either.
	empty bool
}

// repo runs git in one workspace. A workspace that is not a repository
// (or a machine without git) has err set and answers every lookup with it.
type repo struct {
	ctx  context.Context
	root string
	err  error
}

func newRepo(ctx context.Context, root string) *repo {
	r := &repo{ctx: ctx, root: root}
	if _, err := exec.LookPath("git"); err != nil {
		r.err = errors.New("git is not installed")
		return r
	}
	out, err := r.git(nil, "rev-parse", "--is-inside-work-tree")
	if err != nil || strings.TrimSpace(string(out)) != "true" {
		r.err = errors.New("the workspace is not a git repository")
	}
	return r
}

// git runs one git command in the root with stdin and returns its stdout.
func (r *repo) git(stdin []byte, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(r.ctx, "git", append([]string{"-C", r.root}, args...)...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return out, fmt.Errorf("git %s: %s", args[0], firstLine(msg))
		}
		return out, fmt.Errorf("git %s: %w", args[0], err)
	}
	return out, nil
}

// lookup resolves commit ids (full or abbreviated, lower-case hex) with
// three git processes whatever their number: cat-file --batch for the
// objects, rev-list HEAD for reachability (stopping once every commit is
// seen), name-rev for the branch of those HEAD does not reach; and, when
// no branch reaches some, up to three more to find their copies on HEAD
// (findCopies).
func (r *repo) lookup(ids []string) map[string]lookupResult {
	out := map[string]lookupResult{}
	if len(ids) == 0 {
		return out
	}
	if r.err != nil {
		for _, id := range ids {
			out[id] = lookupResult{err: r.err.Error()}
		}
		return out
	}
	var uniq []string
	for _, id := range ids {
		if _, ok := out[id]; !ok {
			out[id] = lookupResult{}
			uniq = append(uniq, id)
		}
	}
	var in bytes.Buffer
	for _, id := range uniq {
		in.WriteString(id + "\n")
	}
	raw, err := r.git(in.Bytes(), "cat-file", "--batch")
	if err != nil {
		for _, id := range uniq {
			out[id] = lookupResult{err: err.Error()}
		}
		return out
	}
	byFull := map[string]*Commit{}
	rd := bufio.NewReader(bytes.NewReader(raw))
	for _, id := range uniq {
		c, msg := readBatchEntry(rd, id)
		if c != nil {
			if prev := byFull[c.ID]; prev != nil {
				c = prev
			} else {
				byFull[c.ID] = c
			}
		}
		out[id] = lookupResult{commit: c, err: msg}
	}
	r.reachability(byFull)
	var lost []*Commit
	for _, c := range byFull {
		if !c.OnHEAD && c.Branch == "" {
			lost = append(lost, c)
		}
	}
	r.findCopies(lost)
	return out
}

// readBatchEntry reads cat-file --batch's answer for id: a header
// "<oid> <type> <size>" and the object, or "<id> missing|ambiguous".
func readBatchEntry(rd *bufio.Reader, id string) (*Commit, string) {
	header, err := rd.ReadString('\n')
	if err != nil {
		return nil, "git cat-file ended early"
	}
	f := strings.Fields(header)
	if len(f) == 2 {
		switch f[1] {
		case "ambiguous":
			return nil, fmt.Sprintf("commit %s is ambiguous: write more of its id", id)
		default:
			return nil, fmt.Sprintf("commit %s not found in the repository", id)
		}
	}
	if len(f) != 3 {
		return nil, "git cat-file: unexpected answer " + strconv.Quote(strings.TrimSpace(header))
	}
	size, err := strconv.Atoi(f[2])
	if err != nil {
		return nil, "git cat-file: bad size " + strconv.Quote(f[2])
	}
	body := make([]byte, size+1) // the object and its trailing newline
	if _, err := io.ReadFull(rd, body); err != nil {
		return nil, "git cat-file ended early"
	}
	if f[1] != "commit" {
		return nil, fmt.Sprintf("%s names a %s, not a commit", id, f[1])
	}
	c := parseCommit(body[:size])
	c.ID = f[0]
	return c, ""
}

// parseCommit reads the committer date and the subject of a raw commit.
func parseCommit(raw []byte) *Commit {
	c := &Commit{}
	head, msg, _ := bytes.Cut(raw, []byte("\n\n"))
	for _, line := range strings.Split(string(head), "\n") {
		if rest, ok := strings.CutPrefix(line, "committer "); ok {
			c.Date = signatureTime(rest)
		} else if rest, ok := strings.CutPrefix(line, "tree "); ok {
			c.tree = rest
		} else if rest, ok := strings.CutPrefix(line, "parent "); ok {
			c.parents = append(c.parents, rest)
		}
	}
	c.Subject = strings.TrimSpace(firstLine(string(msg)))
	return c
}

// signatureTime reads "<name> <email> <unix seconds> <+zone>".
func signatureTime(sig string) time.Time {
	f := strings.Fields(sig)
	if len(f) < 2 {
		return time.Time{}
	}
	secs, err := strconv.ParseInt(f[len(f)-2], 10, 64)
	if err != nil {
		return time.Time{}
	}
	t := time.Unix(secs, 0)
	if z := f[len(f)-1]; len(z) == 5 {
		h, _ := strconv.Atoi(z[1:3])
		m, _ := strconv.Atoi(z[3:5])
		off := h*3600 + m*60
		if z[0] == '-' {
			off = -off
		}
		t = t.In(time.FixedZone(z, off))
	}
	return t
}

// reachability marks the commits HEAD reaches, then names a local branch
// for the others.
func (r *repo) reachability(commits map[string]*Commit) {
	if len(commits) == 0 {
		return
	}
	left := len(commits)
	cmd := exec.CommandContext(r.ctx, "git", "-C", r.root, "rev-list", "HEAD")
	stdout, err := cmd.StdoutPipe()
	if err == nil && cmd.Start() == nil {
		sc := bufio.NewScanner(stdout)
		for left > 0 && sc.Scan() {
			if c := commits[sc.Text()]; c != nil && !c.OnHEAD {
				c.OnHEAD = true
				left--
			}
		}
		// Every commit seen: the rest of the history is not needed.
		_ = cmd.Process.Kill()
		_, _ = io.Copy(io.Discard, stdout)
		_ = cmd.Wait()
	}
	if left == 0 {
		return
	}
	var args []string
	for id, c := range commits {
		if !c.OnHEAD {
			args = append(args, id)
		}
	}
	out, err := r.git(nil, append([]string{"name-rev", "--refs=refs/heads/*"}, args...)...)
	if err != nil {
		return
	}
	for _, line := range strings.Split(string(out), "\n") {
		id, name, ok := strings.Cut(strings.TrimSpace(line), " ")
		if c := commits[id]; ok && c != nil && name != "undefined" {
			if i := strings.IndexAny(name, "~^"); i >= 0 {
				name = name[:i]
			}
			c.Branch = name
		}
	}
}

// commitCheck is the outcome for a commit reference; plan is the plan
// file as Options.Plan names it.
func commitCheck(ref core.EvidenceRef, lr lookupResult, plan string) Check {
	c := Check{Ref: ref, Commit: lr.commit}
	switch {
	case lr.commit == nil && strings.Contains(lr.err, "not found"), lr.commit == nil && strings.Contains(lr.err, "not a commit"),
		lr.commit == nil && strings.Contains(lr.err, "ambiguous"):
		c.State, c.Detail = Failed, lr.err
	case lr.commit == nil:
		c.State, c.Detail = Unverifiable, "commit "+ref.Commit+": "+lr.err
	case lr.empty && (lr.commit.OnHEAD || lr.commit.Branch != ""):
		c.State, c.Detail = Failed, noWork(lr.commit, "changes no files")
	case lr.planOnly && (lr.commit.OnHEAD || lr.commit.Branch != ""):
		c.State, c.Detail = Failed, noWork(lr.commit, "changes nothing but the plan ("+planFiles(plan, lr.setup)+")")
	case lr.commit.OnHEAD:
		c.State, c.Detail = Verified, fmt.Sprintf("commit %s %q (%s) is on HEAD", short(lr.commit.ID), lr.commit.Subject, day(lr.commit.Date))
	case lr.commit.Branch != "":
		c.State, c.Detail = Verified, fmt.Sprintf("commit %s %q (%s) is on branch %s, not on HEAD", short(lr.commit.ID), lr.commit.Subject, day(lr.commit.Date), lr.commit.Branch)
	case lr.commit.RewrittenAs != "":
		c.State, c.Detail = Failed, fmt.Sprintf("commit %s %q was rewritten (rebased?) as %s on HEAD", short(lr.commit.ID), lr.commit.Subject, short(lr.commit.RewrittenAs))
	default:
		c.State, c.Detail = Failed, fmt.Sprintf("commit %s %q exists but no local branch reaches it (rebased or reset away?)", short(lr.commit.ID), lr.commit.Subject)
	}
	return c
}

// noWork is the detail of a commit that exists but proves no work: what it
// changes, said after the commit's short id, subject and day.
func noWork(c *Commit, changes string) string {
	return fmt.Sprintf("commit %s %q (%s) %s, so it is no proof of the item's work", short(c.ID), c.Subject, day(c.Date), changes)
}

func short(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

func day(t time.Time) string {
	if t.IsZero() {
		return "no date"
	}
	return t.Format("2006-01-02")
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
