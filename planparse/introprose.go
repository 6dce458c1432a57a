package planparse

// groupsWork reports whether a sub-section is a group of work headings: its
// own sub-sections name work by their form (a file action such as "[NEW]
// lib/main.dart", a task, a phase, a step of a numbered sequence), as an
// implementation plan's "### Models" groups its "#### [NEW] …" file
// headings. Prose over such groups introduces them ("## Proposed changes",
// "We will set up a folder per feature.", then the groups), as prose over
// task headings does: it is not an item of its own.
func (r *reader) groupsWork(t *sec) bool {
	for _, k := range t.kids {
		if u := r.secs[k]; r.named(u) || r.isTask(u) {
			return true
		}
	}
	return false
}
