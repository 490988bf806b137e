// Package race_map_iterate: a metrics exporter ranges over the counter map
// while request handlers lazily create counters in it without a lock:
// "fatal error: concurrent map iteration and map write" (or read and write).
package race_map_iterate

import (
	"fmt"
	"sort"
	"strings"
	"sync/atomic"
)

type Counters struct {
	m map[string]*atomic.Int64 // BUG: the map itself is not protected
}

func NewCounters() *Counters { return &Counters{m: make(map[string]*atomic.Int64)} }

func (c *Counters) Inc(name string) {
	ctr, ok := c.m[name]
	if !ok {
		ctr = new(atomic.Int64)
		c.m[name] = ctr
	}
	ctr.Add(1)
}

// Export renders the counters in the Prometheus text format.
func (c *Counters) Export() string {
	var lines []string
	for name, ctr := range c.m {
		lines = append(lines, fmt.Sprintf("%s %d", name, ctr.Load()))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}
