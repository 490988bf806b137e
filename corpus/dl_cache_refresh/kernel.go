// Package dl_cache_refresh: a read-through cache whose Get refreshes entries
// that were invalidated. The refresh path re-enters the cache mutex through a
// public method (double locking through a method call).
package dl_cache_refresh

import "sync"

type entry struct {
	val   string
	stale bool
}

// Cache is a read-through cache keyed by string.
type Cache struct {
	mu    sync.Mutex
	items map[string]*entry
	load  func(key string) string
}

func NewCache(load func(string) string) *Cache {
	return &Cache{items: make(map[string]*entry), load: load}
}

// Get returns the cached value, loading or refreshing it when needed.
func (c *Cache) Get(key string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.items[key]
	if !ok {
		e = &entry{val: c.load(key)}
		c.items[key] = e
	}
	if e.stale {
		// BUG: Refresh locks c.mu, which this goroutine already holds.
		return c.Refresh(key)
	}
	return e.val
}

// Refresh reloads key unconditionally.
func (c *Cache) Refresh(key string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := &entry{val: c.load(key)}
	c.items[key] = e
	return e.val
}

// Invalidate marks key stale; the next Get reloads it.
func (c *Cache) Invalidate(key string) {
	c.mu.Lock()
	if e, ok := c.items[key]; ok {
		e.stale = true
	}
	c.mu.Unlock()
}
