// Package race_field_health: a health checker records status in two fields
// without synchronization. A concurrent reader can observe the status half
// written: unhealthy with no reason.
package race_field_health

import "sync"

type Health struct {
	healthy bool
	reason  string
}

func NewHealth() *Health { return &Health{healthy: true} }

func (h *Health) MarkDown(reason string) {
	h.healthy = false // BUG: unsynchronized two-field update
	h.reason = reason
}

func (h *Health) MarkUp() {
	h.healthy = true
	h.reason = ""
}

// Status is served on /healthz.
func (h *Health) Status() (bool, string) {
	return h.healthy, h.reason
}

// Checker probes a dependency and records the result.
type Checker struct {
	H     *Health
	Probe func() error
}

func (c *Checker) RunOnce(wg *sync.WaitGroup) {
	defer wg.Done()
	if err := c.Probe(); err != nil {
		c.H.MarkDown(err.Error())
	} else {
		c.H.MarkUp()
	}
}
