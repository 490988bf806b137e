package rwr_config

import (
	"sort"
	"sync"
)

// StoreFixed hands visitors a consistent copy, with no lock held.
type StoreFixed struct {
	mu      sync.RWMutex
	values  map[string]string
	version int
}

func NewStoreFixed(kv map[string]string) *StoreFixed {
	s := &StoreFixed{values: make(map[string]string)}
	for k, v := range kv {
		s.values[k] = v
	}
	return s
}

func (s *StoreFixed) Get(key string) string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.values[key]
}

// ForEach visits a snapshot; fn may call back into the store.
func (s *StoreFixed) ForEach(fn func(k, v string, get func(string) string)) {
	s.mu.RLock()
	snap := make(map[string]string, len(s.values))
	for k, v := range s.values {
		snap[k] = v
	}
	s.mu.RUnlock()
	keys := make([]string, 0, len(snap))
	for k := range snap {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	get := func(k string) string { return snap[k] }
	for _, k := range keys {
		fn(k, snap[k], get)
	}
}

func (s *StoreFixed) Reload(kv map[string]string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, v := range kv {
		s.values[k] = v
	}
	s.version++
}

func EffectiveFixed(s *StoreFixed) map[string]string {
	out := make(map[string]string)
	s.ForEach(func(k, v string, get func(string) string) {
		if v == "" {
			v = get("default." + k)
		}
		out[k] = v
	})
	return out
}
