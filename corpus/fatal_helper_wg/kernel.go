// Package fatal_helper_wg: a TTL cache sets a value and its expiry in two
// critical sections; the expiry sweeper can run in between and evict the new
// key as already expired. The test's worker goroutines check read-your-writes
// with a helper that calls t.Fatalf and call wg.Done at the end (not
// deferred), so the eviction turns into a test that hangs in wg.Wait.
package fatal_helper_wg

import (
	"errors"
	"sync"
)

var ErrMiss = errors.New("cache miss")

type Cache struct {
	mu     sync.Mutex
	now    int // logical clock, advanced by the sweeper's owner
	items  map[string]string
	expiry map[string]int
}

func NewCache() *Cache {
	return &Cache{items: make(map[string]string), expiry: make(map[string]int)}
}

func (c *Cache) Set(k, v string, ttl int) {
	c.mu.Lock()
	c.items[k] = v
	c.mu.Unlock()
	// BUG (kernel): the key is visible without an expiry until this runs.
	c.mu.Lock()
	c.expiry[k] = c.now + ttl
	c.mu.Unlock()
}

func (c *Cache) Get(k string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.items[k]
	if !ok {
		return "", ErrMiss
	}
	return v, nil
}

// Sweep evicts expired keys (a key with no expiry counts as expired).
func (c *Cache) Sweep() int {
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
