package core

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
)

// MaxMutationKeys is how many client_mutation_id keys State.Mutations keeps
// (the most recent ones).
const MaxMutationKeys = 200

// paramsHash is the sha256 (hex) of a call's params in canonical JSON
// (keys sorted, numbers normalised), so a retry that spells the same call
// differently still matches.
func paramsHash(obj map[string]json.RawMessage) string {
	canon := make(map[string]any, len(obj))
	for k, v := range obj {
		var x any
		if err := json.Unmarshal(v, &x); err != nil {
			x = string(v)
		}
		canon[k] = x
	}
	b, err := json.Marshal(canon)
	if err != nil {
		b = []byte(fmt.Sprint(canon))
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// replay looks key up: a hit with the same params returns the first result's
// text (ok true); the same key with other params is an error.
func replay(st *State, p *opCall, key string) (text string, ok bool, err error) {
	for i := len(st.Mutations) - 1; i >= 0; i-- {
		m := &st.Mutations[i]
		if m.Key != key {
			continue
		}
		if m.Hash != paramsHash(p.obj) {
			return "", false, fmt.Errorf("client_mutation_id %q was already used for a different %s call; use a new key for a new change", key, m.Action)
		}
		return m.Text, true, nil
	}
	return "", false, nil
}

// remember records a mutation that changed the state under its key (a
// keyed call that was a No change or was rejected leaves no key, since it
// persists nothing; its retry simply runs again), keeping the newest
// MaxMutationKeys. It builds a new slice: w's may share the input's array.
func (r *runner) remember(w *State, p *opCall, key, text string, ids []int) {
	keep := w.Mutations
	if len(keep) >= MaxMutationKeys {
		keep = keep[len(keep)-MaxMutationKeys+1:]
	}
	ms := make([]MutationKey, 0, len(keep)+1)
	ms = append(ms, keep...)
	ms = append(ms, MutationKey{
		Key: key, Action: p.action, Text: text, IDs: ids, At: r.now, Hash: paramsHash(p.obj),
	})
	w.Mutations = ms
}
