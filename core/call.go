package core

import (
	"bytes"
	"encoding/json"
	"slices"
	"time"
)

// Options are the caller's context for Run and Do.
type Options struct {
	Now         time.Time      // clock for createdAt/updatedAt; zero means time.Now().UTC()
	Zone        *time.Location // zone for date-only due_at when owner_timezone is absent; nil = UTC
	ReadOnly    bool           // only list/get allowed (planls mcp --read-only)
	ProjectID   string         // when set, a project_id param must equal it
	NoDeleteAll bool           // refuse delete_all outright
	// CompactRows makes list rows one line each unless the call names the
	// fields it wants (the MCP server sets it). Without it
	// rows are the seed's (the seed's content strings): plan text of open items,
	// evidence and reason.
	CompactRows bool
	// FieldBytes, when above 0, cuts each field a list row shows to about
	// that many bytes, ending in "…" (a page must fit an agent's budget).
	FieldBytes int
}

// Content is one element of the envelope's content array.
type Content struct {
	Type string `json:"type"` // always "text"
	Text string `json:"text"`
}

// Details is the envelope's details snapshot (seed "Return envelope").
type Details struct {
	Action string          `json:"action"`
	Params json.RawMessage `json:"params"`
	Tasks  DetailTasks     `json:"tasks"`
	NextID int             `json:"nextId"`
	Error  string          `json:"error,omitempty"`
	Plan   *PlanRef        `json:"plan,omitempty"`
	// Paging of list (MCP seed): total rows matched and the cursor of the next page.
	Total      *int   `json:"total,omitempty"`
	NextCursor string `json:"nextCursor,omitempty"`
	// IDs are the tasks a delete_all deleted or a restore restored (in a
	// batch: all of its delete_all and restore ops), in order; absent
	// otherwise. The text compresses them into runs ("#1–#2999"), so this is
	// where a program reads them.
	IDs []int `json:"ids,omitempty"`
	// Fields are the row fields (RowFields) a compact list page shows
	// (Options.CompactRows), so a client knows what the rows leave out;
	// absent for every other call.
	Fields []string `json:"fields,omitempty"`
}

// Envelope is the tool result: content[0].text plus the details snapshot.
type Envelope struct {
	Content []Content `json:"content"`
	Details Details   `json:"details"`
}

// Text returns content[0].text.
func (e Envelope) Text() string {
	if len(e.Content) == 0 {
		return ""
	}
	return e.Content[0].Text
}

// IsError reports whether the call was rejected (details.error set).
func (e Envelope) IsError() bool { return e.Details.Error != "" }

// Notice is a user notification a UI should show, e.g. a net plan deferral:
// "Plan item deferred: #<id> <subject> -- <reason>" at level "warning".
type Notice struct {
	Level string // "warning" or "info"
	Text  string
	Code  string `json:",omitempty"` // DeferredCode, WeakEvidenceCode or CompletedFinalCode
	ID    int    `json:",omitempty"` // the task the notice is about
	// Plain is the notice for a person where Text is not: a weak-evidence
	// notice without its closing way to fix the task in the todo tool's
	// JSON ("; record it with {...}"), for adapters that name their own way
	// (the CLI's flags); a deferral with its subject as people read it
	// (DeferralForPeople). "" when Text is already that.
	Plain string `json:",omitempty"`
}

// Result is what Run, Do and Approve return.
type Result struct {
	Envelope Envelope
	// State is the state after the call. It is the input pointer, untouched,
	// when nothing changed; the input is never mutated.
	State *State
	// Changed is true when State differs from the input and must be persisted.
	Changed bool
	Notices []Notice
	// Affected is the ids of the tasks the call created, changed or removed
	// (a clear's todos), in the order it touched them, each once; nil when
	// nothing changed (a rejection, a read, a no-op, a batch that cancels out).
	Affected []int
	// Shown is the ids of the tasks the call rendered (the rows of a list
	// page, a get's task) or named without changing (a rejected or no-change
	// op's id), in order, each once. Together with Affected it is what a
	// client needs of details.tasks to read the answer.
	Shown []int
}

// DetailTasks is details.tasks: the seed's task shape, so it is written
// without each task's UID, which is planls's bookkeeping for merges and
// not part of the tool's result (seed "Return envelope"). HTML characters
// are left unescaped; an encoder that escapes them (encoding/json's
// default) still does.
type DetailTasks []Task

// MarshalJSON writes the tasks as []Task does, without their UIDs.
func (ts DetailTasks) MarshalJSON() ([]byte, error) {
	out := []Task(ts)
	if slices.ContainsFunc(out, func(t Task) bool { return t.UID != "" }) {
		out = slices.Clone(out)
		for i := range out {
			out[i].UID = ""
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
