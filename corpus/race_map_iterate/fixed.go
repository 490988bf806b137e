package race_map_iterate

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

type CountersFixed struct {
	mu sync.RWMutex
	m  map[string]*atomic.Int64
}

func NewCountersFixed() *CountersFixed {
	return &CountersFixed{m: make(map[string]*atomic.Int64)}
}

func (c *CountersFixed) Inc(name string) {
	c.mu.RLock()
	ctr, ok := c.m[name]
	c.mu.RUnlock()
	if !ok {
		c.mu.Lock()
		if ctr, ok = c.m[name]; !ok {
			ctr = new(atomic.Int64)
			c.m[name] = ctr
		}
		c.mu.Unlock()
	}
	ctr.Add(1)
}

func (c *CountersFixed) Export() string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	var lines []string
	for name, ctr := range c.m {
		lines = append(lines, fmt.Sprintf("%s %d", name, ctr.Load()))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}
