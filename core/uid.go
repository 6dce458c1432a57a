package core

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"time"
)

// UIDBytes is the length of a task identity before hex encoding: 64 bits,
// so two tasks of one project share one with odds far below one in a
// billion even at a million tasks.
const UIDBytes = 8

// DerivedUID is the identity of a task recorded before tasks had one: 16
// hex digits of the sha256 of its id and its createdAt (RFC 3339 with
// nanoseconds), the two things no change ever touches. Every reader of
// the same old record, on any branch or clone, derives the same identity,
// so two branches that both upgrade still match their tasks. (A task that
// an older planls renumbered in a merge has two ids in its history and so
// two derived identities; only tasks created since have one for good.)
func DerivedUID(id int, createdAt time.Time) string {
	h := sha256.Sum256([]byte(strconv.Itoa(id) + "\x00" + createdAt.UTC().Format(time.RFC3339Nano)))
	return hex.EncodeToString(h[:UIDBytes])
}

// EnsureUIDs gives each task of tasks without a UID its DerivedUID, in
// place, and reports whether it gave any.
func EnsureUIDs(tasks []Task) bool {
	changed := false
	for i := range tasks {
		if t := &tasks[i]; t.UID == "" {
			t.UID = DerivedUID(t.ID, t.CreatedAt)
			changed = true
		}
	}
	return changed
}
