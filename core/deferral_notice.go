package core

import (
	"fmt"
	"strings"

	"github.com/planls/planls/planparse"
)

// DeferredCode is the Code of a plan item's deferral notice (netDeferrals).
const DeferredCode = "plan-item-deferred"

// DeferralForPeople is the deferral of plan item t as a person reads it:
// "Deferred #3 Read limits from config.yaml, reason: needs a load rig",
// the subject as planparse.Display shows it (no markdown, no
// colon ending a lead-in). The notice's Text is the seed's, for agents and
// the pi package; an editor shows this one.
func DeferralForPeople(t *Task) string {
	subject := strings.TrimRight(planparse.Display(t.Subject, t.PlanText), ": ")
	return fmt.Sprintf("Deferred #%d %s, reason: %s", t.ID, sanitize(subject), sanitize(t.Reason))
}
