package store

import (
	"crypto/rand"
	"encoding/hex"

	"github.com/planls/planls/core"
)

// newUID is a fresh task identity: core.UIDBytes from the system's random
// source, in lowercase hex (16 digits, like core.DerivedUID's).
func newUID() string {
	b := make([]byte, core.UIDBytes)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return hex.EncodeToString(b)
}

// giveUIDs gives every task of tasks that has no identity yet (one a call
// just created: core leaves it empty) a fresh one, in place. It runs once
// per task, at the commit that first writes it; the identity then travels
// with the task's record in the state file and the journal.
func giveUIDs(tasks []core.Task) {
	for i := range tasks {
		if tasks[i].UID == "" {
			tasks[i].UID = newUID()
		}
	}
}
