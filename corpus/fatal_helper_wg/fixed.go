package fatal_helper_wg

import "sync"

type CacheFixed struct {
	mu     sync.Mutex
	now    int
	items  map[string]string
	expiry map[string]int
}

func NewCacheFixed() *CacheFixed {
	return &CacheFixed{items: make(map[string]string), expiry: make(map[string]int)}
}

func (c *CacheFixed) Set(k, v string, ttl int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.items[k] = v
	c.expiry[k] = c.now + ttl
}

func (c *CacheFixed) Get(k string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.items[k]
	if !ok {
		return "", ErrMiss
	}
	return v, nil
}

func (c *CacheFixed) Sweep() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for k := range c.items {
		if c.expiry[k] <= c.now {
			delete(c.items, k)
			delete(c.expiry, k)
			n++
		}
	}
	return n
}
