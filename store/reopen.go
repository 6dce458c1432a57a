package store

import (
	"context"

	"github.com/planls/planls/core"
)

// Reopen commits core.Reopen(op): a person's reopening of a closed task.
// Its journal entry has kind "reopen", the writer's Actor and the time as
// every entry, and params core.ReopenedParams: who (op.By), why, the status
// the task had and the evidence or deferral reason it drops. Errors are as
// Call's; a refusal comes back in the envelope.
func (s *Store) Reopen(ctx context.Context, op core.ReopenOp, opts core.Options) (core.Result, error) {
	return s.update(ctx, "reopen", nil, func(st *core.State) core.Result {
		return core.Reopen(st, op, opts)
	})
}
