package core

import (
	"reflect"
	"slices"
)

// mergeCleared merges State.Cleared, what each side's last clear dropped:
// the side that changed it wins; when both cleared, both archives are kept
// (ours first, then theirs's records ours does not hold), so a restore on
// the merged branch brings back what either side dropped. A record is the
// same on both sides when its UID matches (or, without UIDs, its id,
// creation time and subject). Archived ids are
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
		if !slices.ContainsFunc(o, func(y Task) bool { return sameRecord(&x, &y) }) {
			out = append(out, x)
		}
	}
	slices.SortStableFunc(out, func(a, b Task) int { return a.ID - b.ID })
	return out
}

// sameRecord reports whether a and b are one task's records.
func sameRecord(a, b *Task) bool {
	if a.UID != "" || b.UID != "" {
		return a.UID == b.UID
	}
	return a.ID == b.ID && a.CreatedAt.Equal(b.CreatedAt) && a.Subject == b.Subject
}
