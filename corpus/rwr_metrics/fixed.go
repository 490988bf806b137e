package rwr_metrics

import (
	"sort"
	"sync"
)

// RegistryFixed reads values with a helper that assumes the read lock is held.
type RegistryFixed struct {
	mu      sync.RWMutex
	metrics map[string]*int64
}

func NewRegistryFixed() *RegistryFixed {
	return &RegistryFixed{metrics: make(map[string]*int64)}
}

func (r *RegistryFixed) Register(name string) *int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	if p, ok := r.metrics[name]; ok {
		return p
	}
	p := new(int64)
	r.metrics[name] = p
	return p
}

func (r *RegistryFixed) Value(name string) int64 {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.valueLocked(name)
}

func (r *RegistryFixed) valueLocked(name string) int64 {
	if p, ok := r.metrics[name]; ok {
		return *p
	}
	return -1
}

func (r *RegistryFixed) Snapshot() map[string]int64 {
	r.mu.RLock()
	defer r.mu.RUnlock()
	names := make([]string, 0, len(r.metrics))
	for n := range r.metrics {
		names = append(names, n)
	}
	sort.Strings(names)
	snap := make(map[string]int64)
	for _, n := range names {
		snap[n] = r.valueLocked(n)
	}
	return snap
}
