package race_field_reload

import "sync/atomic"

type ClientFixed struct {
	cfg atomic.Pointer[Config]
}

func NewClientFixed(c Config) *ClientFixed {
	cl := &ClientFixed{}
	cl.cfg.Store(&c)
	return cl
}

// Reload publishes a fresh, immutable Config.
func (c *ClientFixed) Reload(n Config) { c.cfg.Store(&n) }

func (c *ClientFixed) Settings() Config { return *c.cfg.Load() }
