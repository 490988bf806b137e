package rwr_chan_helper

import (
	"fmt"
	"sort"
	"sync"
)

type CatalogFixed struct {
	mu     sync.RWMutex
	prices map[string]int
}

func NewCatalogFixed() *CatalogFixed {
	return &CatalogFixed{prices: map[string]int{"apple": 3, "pear": 4}}
}

func (c *CatalogFixed) totalLocked() int {
	sum := 0
	for _, p := range c.prices {
		sum += p
	}
	return sum
}

func (c *CatalogFixed) Total() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.totalLocked()
}

func (c *CatalogFixed) SetPrice(item string, p int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.prices[item] = p
}

func (c *CatalogFixed) Report() string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	items := make([]string, 0, len(c.prices))
	for it := range c.prices {
		items = append(items, it)
	}
	sort.Strings(items)
	return fmt.Sprintf("%v total=%d", items, c.totalLocked()) // same read section
}
