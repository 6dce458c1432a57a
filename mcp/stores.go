package mcp

import (
	"sync"

	"github.com/planls/planls/store"
)

// maxStores bounds the projects a server keeps a store for. A server
// normally serves one project; a host that points sessions at many
// different roots only loses the read cache of the ones forgotten.
const maxStores = 8

// storeSet keeps one store.Store per project root for the life of the
// server, so that the store's read cache (the last decoded state) survives
// from one tools/call to the next. A fresh store per call would decode
// state.json on every list and get.
type storeSet struct {
	mu     sync.Mutex
	stores map[string]*store.Store
}

// get returns root's store, opening it on first use.
func (s *storeSet) get(root string) *store.Store {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st, ok := s.stores[root]; ok {
		return st
	}
	if s.stores == nil || len(s.stores) >= maxStores {
		s.stores = make(map[string]*store.Store)
	}
	st := store.Open(root, actor)
	s.stores[root] = st
	return st
}
