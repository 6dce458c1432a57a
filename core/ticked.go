package core

import "fmt"

// RuleTicked is the rule of an open plan item (pending or in_progress) whose
// checkbox is ticked in the plan file: the LSP diagnostic code and the rule
// `planls check` reports it under (docs/PLAN-FORMAT.md
// "Approval and re-approval": a checked checkbox never completes an item).
const RuleTicked = "checked-not-completed"

// TickedMessage is RuleTicked's text for plan item id, shared by the editor
// diagnostic, `planls check` and the stop hook.
func TickedMessage(id int) string {
	return fmt.Sprintf("plan item #%d is ticked but not completed: complete it with evidence", id)
}
