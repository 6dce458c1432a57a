package planparse

// In a checkbox plan only checkboxes are items, so a section there with
// numbered steps or a work-list label and no checkbox gives nothing ("###
// Work" and its five numbered steps beside "### Done when" and its boxes).
// That is right when the boxes tick off the same work, but the steps look
// like work, so the dry run and the preview lenses say what the section
// holds and how to track it, as they do for a skipped section.

// unread reports whether section s gave no items of its own: it is skipped,
// or it is a checkbox plan's section without checkboxes.
func (r *reader) unread(s *sec) bool {
	return s.act == aSkip || s.act == aBoxes && s.why == whyBoxes
}

// boxesOnlyUnder reports whether s is a checkbox plan's section without
// checkboxes under another such section: the outer one says what its
// subtree holds.
func (r *reader) boxesOnlyUnder(s *sec) bool {
	p := r.parentOf(s)
	return s.act == aBoxes && p != nil && r.unread(p)
}
