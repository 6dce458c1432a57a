package verify

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/planls/planls/core"
)

// Command is one backticked command of a completed item's evidence: what
// a verification with a Runner would run.
type Command struct {
	TaskID   int
	Subject  string
	Evidence string // the item's whole evidence, as stored
	Line     string // the command line (sh -c)
}

// Commands lists the commands that Tasks with a Runner would run for tasks,
// in the same order (completed tasks only, backticked commands only).
func Commands(tasks []core.Task) []Command {
	var out []Command
	for _, t := range tasks {
		if t.Status != core.Completed {
			continue
		}
		for _, r := range core.ParseEvidence(t.Evidence) {
			if r.Kind == core.RefCommand && r.Backticked {
				out = append(out, Command{TaskID: t.ID, Subject: t.Subject, Evidence: t.Evidence, Line: r.Command})
			}
		}
	}
	return out
}

// Authored is the git commit that last changed how often a text occurs in
// the state file: for an evidence text, the commit that recorded it.
type Authored struct {
	Commit  string    // abbreviated id
	Author  string    // "Name <email>"
	Date    time.Time // author date
	Subject string
}

// StatePath is the state file's path below a workspace root, as git names it.
const StatePath = StateDir + "/state.json"

// EvidenceCommits finds, for each evidence text, the newest commit that
// changed how often it occurs in the state file (git log -S over
// .planls/state.json, the text as the state file spells it): the commit
// that recorded it. An evidence no commit has (written only in the work
// tree) is absent from the map; err is why git could not answer (no git,
// not a repository). One git process per distinct evidence.
func EvidenceCommits(ctx context.Context, root string, evidence []string) (map[string]Authored, error) {
	r := newRepo(ctx, root)
	if r.err != nil {
		return nil, r.err
	}
	out := map[string]Authored{}
	for _, e := range evidence {
		if _, done := out[e]; done {
			continue
		}
		needle := stateSpelling(e)
		log, err := r.git(nil, "log", "-1", "--no-ext-diff", "--format=%h%x00%an <%ae>%x00%aI%x00%s", "-S"+needle, "--", StatePath)
		if err != nil {
			return out, err
		}
		f := strings.SplitN(strings.TrimRight(string(log), "\n"), "\x00", 4)
		if len(f) < 4 {
			continue
		}
		date, _ := time.Parse(time.RFC3339, f[2])
		out[e] = Authored{Commit: f[0], Author: f[1], Date: date.UTC(), Subject: f[3]}
	}
	return out, nil
}

// stateSpelling is s as a JSON string in the state file, without its
// quotes (the store writes JSON without HTML escaping).
func stateSpelling(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	q := strings.TrimRight(b.String(), "\n")
	return q[1 : len(q)-1]
}
