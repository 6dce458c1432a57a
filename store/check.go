package store

import "github.com/planls/planls/core"

// Check reads the state and returns core.Validate's warnings (dangling
// blockedBy, cycles: todo-behaviour.md §8). They are reported, never fixed.
// The error is the same as Read's (*StateError for a bad file).
func (s *Store) Check() (warnings []string, err error) {
	st, err := s.read()
	if err != nil {
		return nil, err
	}
	_, warnings = core.Validate(st)
	return warnings, nil
}
