// Package rwr_metrics: a metrics registry guarded by a RWMutex. Snapshot
// read-locks the registry and calls Value, which read-locks it again. A
// Register waiting for the write lock in between blocks the second RLock.
package rwr_metrics

import (
	"sort"
	"sync"
)

type Registry struct {
	mu      sync.RWMutex
	metrics map[string]*int64
}

func NewRegistry() *Registry { return &Registry{metrics: make(map[string]*int64)} }

func (r *Registry) Register(name string) *int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	if p, ok := r.metrics[name]; ok {
		return p
	}
	p := new(int64)
	r.metrics[name] = p
	return p
}

func (r *Registry) Value(name string) int64 {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if p, ok := r.metrics[name]; ok {
		return *p
	}
	return -1
}

func (r *Registry) names() []string {
	out := make([]string, 0, len(r.metrics))
	for n := range r.metrics {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Snapshot returns name=value pairs.
func (r *Registry) Snapshot() map[string]int64 {
	r.mu.RLock()
	defer r.mu.RUnlock()
	snap := make(map[string]int64)
	for _, n := range r.names() {
		snap[n] = r.Value(n) // BUG: recursive RLock; a pending writer blocks it
	}
	return snap
}
