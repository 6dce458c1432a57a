package mcp

import "github.com/planls/planls/core"

// withEvidenceNotes adds the weak-evidence and failed-verification
// warnings, and the advice next to a refused move out of completed
// (core.CompletedFinalCode), to a result's content as further text blocks,
// so the agent reads them at once. The seed's content[0].text stays byte
// for byte what core wrote.
func withEvidenceNotes(res core.Result) core.Envelope {
	env := res.Envelope
	for _, n := range res.Notices {
		if n.Code == core.WeakEvidenceCode || n.Code == core.CompletedFinalCode || n.Code == core.RuleFailed {
			// Copy: the content slice may be shared with the result's state.
			env.Content = append(env.Content[:len(env.Content):len(env.Content)], core.Content{Type: "text", Text: n.Text})
		}
	}
	return env
}
