package planparse

// An ExecPlan (the living plan format whose sections are Purpose / Big
// Picture, Progress, Surprises & Discoveries, Decision Log, Plan of Work,
// Concrete Steps, Validation and Acceptance) ticks its work off in
// Progress, as checkboxes that the author keeps up to date; its Plan of
// Work describes the same work in sequence, as prose, milestones or a
// numbered list. The same work counts once, where it is ticked off.

// workBesideProgress reports whether s is a plan of work without
// checkboxes in a plan whose Progress log holds two checkboxes or more.
func (r *reader) workBesideProgress(s *sec) bool {
	if s.label != "plan of work" || s.boxes > 0 || s.subBoxes > 0 {
		return false
	}
	for _, t := range r.secs {
		if t.kind == kLog && t.label == "progress" && t.boxes >= 2 {
			return true
		}
	}
	return false
}
