package race_field_health

import "sync"

type HealthFixed struct {
	mu      sync.Mutex
	healthy bool
	reason  string
}

func NewHealthFixed() *HealthFixed { return &HealthFixed{healthy: true} }

func (h *HealthFixed) MarkDown(reason string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.healthy = false
	h.reason = reason
}

func (h *HealthFixed) MarkUp() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.healthy = true
	h.reason = ""
}

func (h *HealthFixed) Status() (bool, string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.healthy, h.reason
}

type CheckerFixed struct {
	H     *HealthFixed
	Probe func() error
}

func (c *CheckerFixed) RunOnce(wg *sync.WaitGroup) {
	defer wg.Done()
	if err := c.Probe(); err != nil {
		c.H.MarkDown(err.Error())
	} else {
		c.H.MarkUp()
	}
}
