package core

import (
	"reflect"
	"slices"
)

// mergeCleared merges State.Cleared, what each side's last clear dropped:
// the side that changed it wins; when both cleared, both archives are kept
// (ours first, then theirs's records ours does not hold), so a restore on
// the merged branch brings back what either side dropped. A record is the
// same on both sides when its id, creation time and subject match. Archived ids are
// historical: restore renumbers them, so no id is remapped here.
func mergeCleared(b, o, t []Task) []Task {
	switch {
	case reflect.DeepEqual(o, b):
		return t
	case reflect.DeepEqual(t, b), reflect.DeepEqual(o, t):
		return o
	}
	out := slices.Clone(o)
	for _, x := range t {
		if !slices.ContainsFunc(o, func(y Task) bool { return y.ID == x.ID && y.CreatedAt.Equal(x.CreatedAt) && y.Subject == x.Subject }) {
			out = append(out, x)
		}
	}
	slices.SortStableFunc(out, func(a, b Task) int { return a.ID - b.ID })
	return out
}
