package core

import (
	"fmt"
	"strconv"
)

// weakEvidenceNotices are the warnings for tasks this call completed, or
// whose evidence it changed, with evidence that names nothing checkable
// (WeakEvidence). The seed's content strings stay as they are: adapters add
// these next to them (the MCP result's text, the CLI's stderr, the editor's
// message).
func weakEvidenceNotices(before, after *State) []Notice {
	var out []Notice
	for i := range after.Tasks {
		t := &after.Tasks[i]
		if t.Status != Completed || !WeakEvidence(t.Evidence) {
			continue
		}
		if old := before.task(t.ID); old != nil && old.Status == Completed && old.Evidence == t.Evidence {
			continue
		}
		plain := weakEvidenceNotice(t)
		text := plain + "; record it with " + fmt.Sprintf(`{"action":"update","id":%d,"evidence":"..."}`, t.ID)
		out = append(out, Notice{Level: "warning", Code: WeakEvidenceCode, ID: t.ID, Text: text, Plain: plain})
	}
	return out
}

// weakEvidenceNotice tells whoever completed t what checkable evidence
// looks like; the caller adds how to record it without reopening the task.
func weakEvidenceNotice(t *Task) string {
	what := "#" + strconv.Itoa(t.ID)
	if t.isPlan() {
		what = "plan item " + what
	}
	return fmt.Sprintf("%s: %s is completed with weak evidence %s, which names nothing planls can check. "+
		"Good evidence names a commit (abc1234), a file (internal/x.go:42), a test (TestParse) or a command "+
		"with its result (`go test ./...` passes)", WeakEvidenceCode, what, strconv.Quote(sanitize(t.Evidence)))
}
