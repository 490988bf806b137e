// Package rwr has the read-write-read deadlock of sync.RWMutex: Lookup holds
// the read lock and calls Len, which takes the read lock again. If a writer
// calls Lock in between, Go's RWMutex makes the second RLock wait for the
// writer, and the writer waits for the first RLock to be released.
package rwr

import "sync"

// Registry maps names to their registration order.
type Registry struct {
	mu    sync.RWMutex
	names map[string]int
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{names: map[string]int{}} }

// Add registers name.
func (r *Registry) Add(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.names[name] = len(r.names)
}

// Len reports how many names are registered.
func (r *Registry) Len() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.names)
}

// Lookup reports the index of name and the size of the registry.
func (r *Registry) Lookup(name string) (index, size int) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	index = r.names[name]
	size = r.Len() // BUG: recursive read lock
	return index, size
}
