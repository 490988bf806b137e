// Package rwfixed is rwr without the recursive read lock: Lookup calls a
// helper that requires the lock to be held instead of taking it again.
package rwfixed

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
	return r.lenLocked()
}

// lenLocked is Len for callers that hold r.mu.
func (r *Registry) lenLocked() int { return len(r.names) }

// Lookup reports the index of name and the size of the registry.
func (r *Registry) Lookup(name string) (index, size int) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.names[name], r.lenLocked()
}
