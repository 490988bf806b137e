// Package rwr_config: a configuration store with a ForEach visitor that runs
// under the read lock. A visitor that resolves defaults calls Get, a second
// RLock; a reload waiting for the write lock in between deadlocks both.
package rwr_config

import (
	"sort"
	"sync"
)

type Store struct {
	mu      sync.RWMutex
	values  map[string]string
	version int
}

func NewStore(kv map[string]string) *Store {
	s := &Store{values: make(map[string]string)}
	for k, v := range kv {
		s.values[k] = v
	}
	return s
}

func (s *Store) Get(key string) string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.values[key]
}

// ForEach visits keys in order with the read lock held.
func (s *Store) ForEach(fn func(k, v string)) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	keys := make([]string, 0, len(s.values))
	for k := range s.values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fn(k, s.values[k])
	}
}

// Reload replaces values (a file watcher calls it).
func (s *Store) Reload(kv map[string]string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, v := range kv {
		s.values[k] = v
	}
	s.version++
}

// Effective resolves empty settings from their "default." entry.
func Effective(s *Store) map[string]string {
	out := make(map[string]string)
	s.ForEach(func(k, v string) {
		if v == "" {
			v = s.Get("default." + k) // BUG: RLock while ForEach holds RLock
		}
		out[k] = v
	})
	return out
}
