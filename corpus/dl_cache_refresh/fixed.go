package dl_cache_refresh

import "sync"

// CacheFixed is Cache with the refresh done by a helper that expects the
// lock to be held.
type CacheFixed struct {
	mu    sync.Mutex
	items map[string]*entry
	load  func(key string) string
}

func NewCacheFixed(load func(string) string) *CacheFixed {
	return &CacheFixed{items: make(map[string]*entry), load: load}
}

func (c *CacheFixed) Get(key string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.items[key]
	if !ok || e.stale {
		return c.refreshLocked(key)
	}
	return e.val
}

func (c *CacheFixed) Refresh(key string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.refreshLocked(key)
}

func (c *CacheFixed) refreshLocked(key string) string {
	e := &entry{val: c.load(key)}
	c.items[key] = e
	return e.val
}

func (c *CacheFixed) Invalidate(key string) {
	c.mu.Lock()
	if e, ok := c.items[key]; ok {
		e.stale = true
	}
	c.mu.Unlock()
}
