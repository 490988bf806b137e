// Package rwr_chan_helper: a catalog report holds the read lock while it waits
// for a helper goroutine that computes a total under the read lock too. When a
// writer queues for the write lock in between, the helper's RLock blocks
// behind it: reporter, helper and writer wait for each other.
package rwr_chan_helper

import (
	"fmt"
	"sort"
	"sync"
)

type Catalog struct {
	mu     sync.RWMutex
	prices map[string]int
}

func NewCatalog() *Catalog {
	return &Catalog{prices: map[string]int{"apple": 3, "pear": 4}}
}

func (c *Catalog) Total() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	sum := 0
	for _, p := range c.prices {
		sum += p
	}
	return sum
}

func (c *Catalog) SetPrice(item string, p int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.prices[item] = p
}

// Report lists the items and their total.
func (c *Catalog) Report() string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	total := make(chan int)
	go func() { total <- c.Total() }() // BUG: RLock in a helper while we hold RLock and wait for it
	items := make([]string, 0, len(c.prices))
	for it := range c.prices {
		items = append(items, it)
	}
	sort.Strings(items)
	return fmt.Sprintf("%v total=%d", items, <-total)
}
