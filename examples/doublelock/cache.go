// Package doublelock locks a mutex twice in one goroutine: on a cache miss,
// Get calls the exported Refresh, which takes the lock Get already holds.
// sync.Mutex is not reentrant, so Get blocks for ever. A miss only happens
// when Invalidate ran first, so the deadlock depends on the interleaving.
package doublelock

import "sync"

// Cache holds one value that is loaded on demand.
type Cache struct {
	mu    sync.Mutex
	val   int
	valid bool
}

// NewCache returns a cache whose value is already loaded.
func NewCache() *Cache { return &Cache{val: load(), valid: true} }

func load() int { return 42 }

// Get returns the cached value, reloading it if it was invalidated.
func (c *Cache) Get() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.valid {
		c.Refresh() // BUG: Refresh locks c.mu again
	}
	return c.val
}

// Refresh reloads the value.
func (c *Cache) Refresh() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.val = load()
	c.valid = true
}

// Invalidate marks the value stale.
func (c *Cache) Invalidate() {
	c.mu.Lock()
	c.valid = false
	c.mu.Unlock()
}
